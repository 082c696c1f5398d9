"""The Codex campaign as a player sees it, derived from their scenario games: a
scenario is won when they have a won game of it; its best ledger is their highest
final score over its won, lost and finished games; its stars the best over its won
games. Games a review holds off (not in the player's figures) count for nothing."""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from uuid import UUID

from django.contrib.auth.models import User
from django.db.models import Max

from codex.models import TitleReign
from games.codex import (
    codex_scenarios,
    handicap_words,
    par_margin_moves,
    scenario_difficulty,
    scenario_stars,
)
from games.engine.steps.codex import Scenario
from games.models import Game
from games.variants import game_variant

MASTER_ARCHITECT = "master-architect"
"""The code of the Codex's title (achievements.declarations.TITLES)."""

LEDGER_STATUSES = (Game.Status.WON, Game.Status.LOST, Game.Status.FINISHED)
"""The games whose final ledger counts (a best ledger, the leaderboards, the campaign
ledger): an abandoned game was walked away from, not closed (docs/codex.md)."""

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
    difficulty: str
    solver_effort: int
    won: bool
    best_ledger: int | None
    stars: int
    unlocked: bool
    review: str = ""
    """The review holds a game of it that would better the player's record
    (ScenarioRecord.review): "held" or "voided"; empty otherwise."""


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
class Milestone:
    """The first game that reached a mark in a scenario, and when it closed."""

    game_id: UUID
    at: datetime


@dataclass(frozen=True, kw_only=True)
class ScenarioRecord:
    """A player's games of one scenario, as the campaign counts them."""

    best_ledger: int | None = None
    reached: Mapping[int, Milestone] = field(default_factory=dict)
    """For each number of stars, the first game that earned at least as many."""
    review: str = ""
    """The review's hold (Game.ReviewHold) on a game of the scenario that would better
    this record if it counted (more stars, or a higher ledger): a game under review
    before a voided one; empty when no held game would change it."""

    @property
    def won(self) -> bool:
        return 1 in self.reached

    @property
    def stars(self) -> int:
        return max(self.reached, default=0)

    def bettered_by(self, *, ledger: int | None, stars: int) -> bool:
        best = self.best_ledger
        return stars > self.stars or (ledger is not None and (best is None or ledger > best))


def _game_marks(game: Game, scenario: Scenario) -> tuple[int | None, int]:
    """What a closed game of the scenario earns: its ledger (None for a game whose
    ledger does not count) and its stars (0 unless won)."""
    ledger = game.final_score if game.status in LEDGER_STATUSES else None
    if game.status != Game.Status.WON or game.finished_at is None:
        return ledger, 0
    variant = game_variant(game)
    public = variant.public_view(variant.load(game.state))
    stars = scenario_stars(
        scenario=scenario,
        won=True,
        moves=game.move_count,
        reserve_used=bool(public.get("reserve_used_ever")),
    )
    return ledger, stars


def scenario_records(*, player_id: int) -> dict[str, ScenarioRecord]:
    """The player's record in each scenario they have closed a game of (one query):
    the games held off by a review (Game.review_hold) count for nothing, and the
    record says when one of them would better it (`review`)."""
    by_key = {scenario.key: scenario for scenario in codex_scenarios()}
    games = (
        Game.objects.filter(
            player_id=player_id, track=Game.Track.SCENARIO, status__in=Game.CLOSED_STATUSES
        )
        .order_by("finished_at", "id")
        .only(
            "id",
            "variant",
            "rules_version",
            "track_ref",
            "status",
            "final_score",
            "move_count",
            "finished_at",
            "state",
            "review_hold",
        )
    )
    ledgers: dict[str, int] = {}
    reached: dict[str, dict[int, Milestone]] = {}
    held: dict[str, list[tuple[str, int | None, int]]] = {}
    for game in games:
        scenario = by_key.get(game.track_ref)
        if scenario is None:
            continue
        ledger, stars = _game_marks(game, scenario)
        if not game.counted:
            held.setdefault(scenario.key, []).append((game.review_hold, ledger, stars))
            continue
        if ledger is not None:
            ledgers[scenario.key] = max(ledgers.get(scenario.key, ledger), ledger)
        marks = reached.setdefault(scenario.key, {})
        for level in range(1, stars + 1):
            if game.finished_at is not None:
                marks.setdefault(level, Milestone(game_id=game.id, at=game.finished_at))
    records = {}
    for key in ledgers.keys() | reached.keys() | held.keys():
        record = ScenarioRecord(best_ledger=ledgers.get(key), reached=reached.get(key, {}))
        bettering = {
            hold
            for hold, ledger, stars in held.get(key, [])
            if record.bettered_by(ledger=ledger, stars=stars)
        }
        review = next((hold for hold in Game.ReviewHold.values if hold in bettering), "")
        records[key] = replace(record, review=review)
    return records


def scenario_games_in_progress(*, player: User) -> dict[str, UUID]:
    """The player's scenario games in progress, by scenario key (one query; a player has
    at most one of a scenario, as games.services.game_active_on_track reads it)."""
    return dict(
        Game.objects.filter(
            player=player,
            variant="steps",
            track=Game.Track.SCENARIO,
            status=Game.Status.ACTIVE,
        )
        .order_by()
        .values_list("track_ref", "id")
    )


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
    progress = {} if player is None else scenario_records(player_id=player.pk)
    tiers: list[TierEntry] = []
    won_before = 0
    for tier in sorted({scenario.tier for scenario in codex_scenarios()}):
        members = [scenario for scenario in codex_scenarios() if scenario.tier == tier]
        unlocked = tier_unlocked(tier=tier, won_before=won_before)
        entries = [
            _entry(scenario, progress.get(scenario.key, ScenarioRecord()), unlocked=unlocked)
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
    progress = scenario_records(player_id=player.pk)
    won_before = sum(
        progress.get(other.key, ScenarioRecord()).won
        for other in codex_scenarios()
        if other.tier == scenario.tier - 1
    )
    if tier_unlocked(tier=scenario.tier, won_before=won_before):
        return ""
    return tier_lock_reason(tier=scenario.tier, won_before=won_before)


def _entry(scenario: Scenario, progress: ScenarioRecord, *, unlocked: bool) -> ScenarioEntry:
    return ScenarioEntry(
        key=scenario.key,
        number=scenario.number,
        name=scenario.name,
        lore=scenario.lore,
        handicaps=handicap_words(scenario),
        par=scenario.par,
        two_star_moves=par_margin_moves(scenario.par),
        difficulty=scenario_difficulty(scenario),
        solver_effort=scenario.nodes,
        won=progress.won,
        best_ledger=progress.best_ledger,
        stars=progress.stars,
        unlocked=unlocked,
        review=progress.review,
    )


@dataclass(frozen=True, kw_only=True)
class LedgerLeader:
    player_id: int
    ledger: int
    reached_at: datetime
    """When the player's total first stood where it stands."""


def campaign_ledger_leader() -> LedgerLeader | None:
    """The player with the highest campaign ledger, the sum of their best ledger in
    every scenario, above zero; between equal totals, the one who reached theirs
    first (the latest of the first games at each of their bests), then the lower id.
    Two queries: the bests of every player, then the games of the tied leaders."""
    closed = (
        Game.objects.counted()
        .filter(
            track=Game.Track.SCENARIO,
            track_ref__in=[scenario.key for scenario in codex_scenarios()],
            status__in=LEDGER_STATUSES,
            final_score__isnull=False,
            finished_at__isnull=False,
        )
        .order_by()
    )
    bests: dict[tuple[int, str], int] = {}
    totals: dict[int, int] = {}
    for player_id, key, best in (
        closed.values("player_id", "track_ref")
        .annotate(best=Max("final_score"))
        .values_list("player_id", "track_ref", "best")
    ):
        bests[player_id, key] = best
        totals[player_id] = totals.get(player_id, 0) + best
    top = max(totals.values(), default=0)
    if top <= 0:
        return None
    tied = [player_id for player_id, total in totals.items() if total == top]
    first_at: dict[tuple[int, str], datetime] = {}
    for player_id, key, score, finished_at in (
        closed.filter(player_id__in=tied)
        .order_by("finished_at", "id")
        .values_list("player_id", "track_ref", "final_score", "finished_at")
    ):
        if score == bests[player_id, key] and finished_at is not None:
            first_at.setdefault((player_id, key), finished_at)
    reached = {
        player_id: max(at for (holder, _), at in first_at.items() if holder == player_id)
        for player_id in tied
    }
    leader = min(tied, key=lambda player_id: (reached[player_id], player_id))
    return LedgerLeader(player_id=leader, ledger=top, reached_at=reached[leader])


@dataclass(frozen=True, kw_only=True)
class Reign:
    username: str
    ledger: int
    started_at: datetime
    ended_at: datetime | None


def _reign(row: TitleReign) -> Reign:
    return Reign(
        username=row.player.get_username(),
        ledger=row.figure,
        started_at=row.started_at,
        ended_at=row.ended_at,
    )


def master_architect_reign() -> Reign | None:
    """The Master Architect's open reign: who holds the title now (one query)."""
    row = (
        TitleReign.objects.filter(code=MASTER_ARCHITECT, ended_at__isnull=True)
        .select_related("player")
        .first()
    )
    return None if row is None else _reign(row)


def player_reigns(*, player_id: int) -> list[Reign]:
    """The player's reigns as Master Architect, the latest first (one query)."""
    rows = TitleReign.objects.filter(code=MASTER_ARCHITECT, player_id=player_id)
    return [_reign(row) for row in rows.select_related("player")]
