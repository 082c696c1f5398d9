"""The Codex campaign as a player sees it, derived from their scenario games: a
scenario is won when they have a won game of it; its best ledger is their highest
final score over its closed games; its stars the best over its won games."""

from dataclasses import dataclass

from django.contrib.auth.models import User

from games.codex import codex_scenarios, handicap_words, par_margin_moves, scenario_stars
from games.engine.steps.codex import Scenario
from games.models import Game
from games.variants import game_variant

WINS_TO_OPEN_NEXT_TIER = 3
"""Scenarios of a tier a player must win to open the next tier."""

TIER_NAMES = {
    1: "The Foundation Galleries",
    2: "The Stepped Halls",
    3: "The Gilded Spire",
    4: "The Summit of Ascension",
}
"""The tiers' names, as docs/codex.md gives them."""


@dataclass(frozen=True, kw_only=True)
class ScenarioEntry:
    key: str
    number: int
    name: str
    lore: str
    handicaps: list[str]
    par: int
    two_star_moves: int
    won: bool
    best_ledger: int | None
    stars: int
    unlocked: bool


@dataclass(frozen=True, kw_only=True)
class TierEntry:
    tier: int
    name: str
    unlocked: bool
    won: int
    lock_reason: str
    scenarios: list[ScenarioEntry]


@dataclass(frozen=True, kw_only=True)
class Campaign:
    tiers: list[TierEntry]
    won: int
    stars: int
    ledger: int
    scenario_count: int
    max_stars: int


@dataclass(frozen=True, kw_only=True)
class _Progress:
    won: bool = False
    best_ledger: int | None = None
    stars: int = 0


def _progress_of(*, player: User | None) -> dict[str, _Progress]:
    if player is None:
        return {}
    by_key = {scenario.key: scenario for scenario in codex_scenarios()}
    progress: dict[str, _Progress] = {}
    games = Game.objects.filter(
        player=player, track=Game.Track.SCENARIO, status__in=Game.CLOSED_STATUSES
    ).only(
        "id",
        "variant",
        "rules_version",
        "track_ref",
        "status",
        "final_score",
        "move_count",
        "state",
    )
    for game in games:
        scenario = by_key.get(game.track_ref)
        if scenario is None:
            continue
        seen = progress.get(scenario.key, _Progress())
        won = game.status == Game.Status.WON
        stars = seen.stars
        if won:
            variant = game_variant(game)
            public = variant.public_view(variant.load(game.state))
            stars = max(
                stars,
                scenario_stars(
                    scenario=scenario,
                    won=True,
                    moves=game.move_count,
                    reserve_used=bool(public.get("reserve_used_ever")),
                ),
            )
        ledger = seen.best_ledger
        if game.final_score is not None and (ledger is None or game.final_score > ledger):
            ledger = game.final_score
        progress[scenario.key] = _Progress(won=seen.won or won, best_ledger=ledger, stars=stars)
    return progress


def tier_lock_reason(*, tier: int, won_before: int) -> str:
    """Why a tier is still locked, with the wins of the tier before it so far."""
    return (
        f"Tier {tier} opens when {WINS_TO_OPEN_NEXT_TIER} scenarios of tier {tier - 1} "
        f"are won: {won_before} won so far"
    )


def tier_unlocked(*, tier: int, won_before: int) -> bool:
    return tier == 1 or won_before >= WINS_TO_OPEN_NEXT_TIER


def codex_campaign(*, player: User | None) -> Campaign:
    """The four tiers with their scenarios and the player's progress in each (none for
    a visitor, to whom tier 1 alone shows open)."""
    progress = _progress_of(player=player)
    tiers: list[TierEntry] = []
    won_before = 0
    for tier in sorted({scenario.tier for scenario in codex_scenarios()}):
        members = [scenario for scenario in codex_scenarios() if scenario.tier == tier]
        unlocked = tier_unlocked(tier=tier, won_before=won_before)
        entries = [
            _entry(scenario, progress.get(scenario.key, _Progress()), unlocked=unlocked)
            for scenario in members
        ]
        tiers.append(
            TierEntry(
                tier=tier,
                name=TIER_NAMES.get(tier, f"Tier {tier}"),
                unlocked=unlocked,
                won=sum(entry.won for entry in entries),
                lock_reason="" if unlocked else tier_lock_reason(tier=tier, won_before=won_before),
                scenarios=entries,
            )
        )
        won_before = tiers[-1].won
    entries = [entry for tier_entry in tiers for entry in tier_entry.scenarios]
    return Campaign(
        tiers=tiers,
        won=sum(entry.won for entry in entries),
        stars=sum(entry.stars for entry in entries),
        ledger=sum(entry.best_ledger or 0 for entry in entries),
        scenario_count=len(entries),
        max_stars=3 * len(entries),
    )


def scenario_lock_reason(*, player: User, scenario: Scenario) -> str:
    """Why the player may not play the scenario yet; empty when they may."""
    if scenario.tier == 1:
        return ""
    progress = _progress_of(player=player)
    won_before = sum(
        progress.get(other.key, _Progress()).won
        for other in codex_scenarios()
        if other.tier == scenario.tier - 1
    )
    if tier_unlocked(tier=scenario.tier, won_before=won_before):
        return ""
    return tier_lock_reason(tier=scenario.tier, won_before=won_before)


def _entry(scenario: Scenario, progress: _Progress, *, unlocked: bool) -> ScenarioEntry:
    return ScenarioEntry(
        key=scenario.key,
        number=scenario.number,
        name=scenario.name,
        lore=scenario.lore,
        handicaps=handicap_words(scenario),
        par=scenario.par,
        two_star_moves=par_margin_moves(scenario.par),
        won=progress.won,
        best_ledger=progress.best_ledger,
        stars=progress.stars,
        unlocked=unlocked,
    )
