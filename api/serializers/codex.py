"""What the API shows of the Citadel Layout Codex: the selectors' campaign, the Master
Architect's reign and a scenario's leaderboard (codex.selectors, codex.leaderboard),
never a scenario's seed or its solver's line (hidden while the Codex is played)."""

from typing import Any
from uuid import UUID

from rest_framework import serializers

from api.pagination import VIEWER_ROW_HELP, PageSerializer
from api.serializers.review import ReviewHoldField
from codex.leaderboard import ScenarioRow
from codex.selectors import WINS_TO_OPEN_NEXT_TIER, Campaign, Reign, ScenarioEntry, TierEntry
from games.codex import DIFFICULTY_WORDS, PAR_MARGIN, codex_scenario, difficulty_rule
from games.engine.steps.codex import Scenario


class HandicapDataSerializer(serializers.Serializer[Scenario]):
    """The handicaps the words say, as figures: Steps' deal options (GET /variants'
    names) and the platform's own two."""

    draw = serializers.IntegerField(source="options.draw", help_text="Cards a draw: 1 or 3.")
    buffers = serializers.IntegerField(source="options.buffers", help_text="Reserve slots.")
    recycles = serializers.IntegerField(source="options.recycles")
    retrieval = serializers.BooleanField(
        source="options.retrieval", help_text="Cards may come back from the foundations."
    )
    undo_allowance = serializers.IntegerField(
        allow_null=True, help_text="Moves that may be taken back; null for no limit."
    )
    time_limit_seconds = serializers.IntegerField(
        allow_null=True, help_text="The game's clock; null without one."
    )


class ScenarioProgressSerializer(serializers.Serializer[Any]):
    won = serializers.BooleanField(help_text="You have a won game of it.")
    best_ledger = serializers.IntegerField(
        allow_null=True,
        help_text="Your highest final score of its won, lost and finished games; null before one.",
    )
    stars = serializers.IntegerField(help_text="Your best stars of its won games, 0 to 3.")
    review = ReviewHoldField(
        help_text="The review holds a game of it that would better these figures: "
        '"held" while under review (it counts once cleared), "voided"; null otherwise.'
    )
    game_in_progress = serializers.UUIDField(
        allow_null=True,
        help_text="Your game of it in progress (GET /games/{id}); POST .../play resumes it.",
    )


class CodexScenarioSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="Stable: POST /codex/{key}/play.")
    number = serializers.IntegerField(help_text="Its place in the Codex, 1 to 20.")
    name = serializers.CharField()
    lore = serializers.CharField()
    tier = serializers.IntegerField()
    handicaps = serializers.ListField(
        child=serializers.CharField(), help_text='In words: "1 card a draw", "3 undos", ...'
    )
    handicap_data = HandicapDataSerializer()
    par = serializers.IntegerField(help_text="The moves of the solver's win.")
    two_star_moves = serializers.IntegerField(help_text="The most moves a two-star win may take.")
    difficulty = serializers.ChoiceField(
        choices=list(DIFFICULTY_WORDS),
        help_text=f"From the solver's effort to win it: {difficulty_rule()}.",
    )
    solver_effort = serializers.IntegerField(help_text="The positions the solver expanded to win.")
    unlocked = serializers.BooleanField(help_text="Its tier is open to you.")
    progress = ScenarioProgressSerializer(allow_null=True, help_text="Yours; null for a visitor.")


class CodexTierSerializer(serializers.Serializer[Any]):
    tier = serializers.IntegerField()
    name = serializers.CharField()
    unlocked = serializers.BooleanField(help_text="Open: tier 1, or 3 wins in the tier before.")
    lock_reason = serializers.CharField(
        allow_null=True, help_text="Why it is locked, with the wins so far; null when open."
    )
    won = serializers.IntegerField(
        allow_null=True, help_text="Its scenarios you have won; null for a visitor."
    )
    scenarios = CodexScenarioSerializer(many=True)


class CodexRulesSerializer(serializers.Serializer[Any]):
    wins_to_open_next_tier = serializers.IntegerField()
    par_margin_percent = serializers.IntegerField(
        help_text="Two stars need a win within par plus this share of it."
    )
    unlocking = serializers.CharField(help_text="The unlocking rule in words.")
    stars = serializers.CharField(help_text="The star rule in words.")
    title = serializers.CharField(help_text="Who holds the Master Architect's title, in words.")


class MasterArchitectSerializer(serializers.Serializer[Reign]):
    username = serializers.CharField()
    ledger = serializers.IntegerField(help_text="The holder's campaign ledger.")
    since = serializers.DateTimeField(source="started_at")


class CodexTotalsSerializer(serializers.Serializer[Campaign]):
    won = serializers.IntegerField()
    scenarios = serializers.IntegerField(source="scenario_count")
    stars = serializers.IntegerField()
    max_stars = serializers.IntegerField()
    ledger = serializers.IntegerField(help_text="The sum of your best ledgers.")


class CodexSerializer(serializers.Serializer[Any]):
    tiers = CodexTierSerializer(many=True)
    rules = CodexRulesSerializer()
    master_architect = MasterArchitectSerializer(
        allow_null=True, help_text="The title's holder now; null before any campaign ledger."
    )
    totals = CodexTotalsSerializer(allow_null=True, help_text="Your campaign; null for a visitor.")


def _rules() -> dict[str, Any]:
    """The rules as the Codex page states them, from the figures the rules use."""
    margin = round(PAR_MARGIN * 100)
    return {
        "wins_to_open_next_tier": WINS_TO_OPEN_NEXT_TIER,
        "par_margin_percent": margin,
        "unlocking": (
            f"Tier 1 is open. Each later tier opens when {WINS_TO_OPEN_NEXT_TIER} scenarios "
            "of the tier before it are won."
        ),
        "stars": (
            f"One star for a win; two for a win within par plus {margin} percent; three for "
            "a win at or under par with no reserve slot used."
        ),
        "title": (
            "The title of Master Architect of the Ascension Citadel goes to the highest "
            "campaign ledger, the sum of a player's best ledger in every scenario."
        ),
    }


def _scenario(
    entry: ScenarioEntry, *, tier: int, signed_in: bool, in_progress: dict[str, UUID]
) -> dict[str, Any]:
    scenario = codex_scenario(entry.key)
    if scenario is None:  # the campaign lists the Codex's own scenarios
        raise LookupError(f"No scenario {entry.key!r} in the Codex")
    progress = None
    if signed_in:
        progress = {
            "won": entry.won,
            "best_ledger": entry.best_ledger,
            "stars": entry.stars,
            "review": entry.review,
            "game_in_progress": in_progress.get(entry.key),
        }
    return {
        "key": entry.key,
        "number": entry.number,
        "name": entry.name,
        "lore": entry.lore,
        "tier": tier,
        "handicaps": entry.handicaps,
        "handicap_data": scenario,
        "par": entry.par,
        "two_star_moves": entry.two_star_moves,
        "difficulty": entry.difficulty,
        "solver_effort": entry.solver_effort,
        "unlocked": entry.unlocked,
        "progress": progress,
    }


def _tier(tier: TierEntry, *, signed_in: bool, in_progress: dict[str, UUID]) -> dict[str, Any]:
    return {
        "tier": tier.tier,
        "name": tier.name,
        "unlocked": tier.unlocked,
        "lock_reason": tier.lock_reason or None,
        "won": tier.won if signed_in else None,
        "scenarios": [
            _scenario(entry, tier=tier.tier, signed_in=signed_in, in_progress=in_progress)
            for entry in tier.scenarios
        ],
    }


def codex_body(
    campaign: Campaign,
    *,
    reign: Reign | None,
    signed_in: bool,
    in_progress: dict[str, UUID],
) -> dict[str, Any]:
    """The Codex as its page shows it: a visitor gets no progress and no totals."""
    return dict(
        CodexSerializer(
            {
                "tiers": [
                    _tier(tier, signed_in=signed_in, in_progress=in_progress)
                    for tier in campaign.tiers
                ],
                "rules": _rules(),
                "master_architect": reign,
                "totals": campaign if signed_in else None,
            }
        ).data
    )


class ScenarioRowSerializer(serializers.Serializer[ScenarioRow]):
    rank = serializers.IntegerField(help_text="Equal results share a rank (1, 1, 3).")
    username = serializers.CharField()
    won = serializers.BooleanField()
    hints_used = serializers.IntegerField(
        help_text="A game played with a hint ranks after every game without one."
    )
    score = serializers.IntegerField(help_text="The ledger: the game's final score.")
    elapsed_seconds = serializers.IntegerField()
    move_count = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    is_viewer = serializers.BooleanField(help_text="The row is yours.")


class ScenarioLeaderboardSerializer(PageSerializer):
    results = ScenarioRowSerializer(many=True)
    viewer_row = ScenarioRowSerializer(allow_null=True, help_text=VIEWER_ROW_HELP)
    key = serializers.CharField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    tier = serializers.IntegerField()
    par = serializers.IntegerField()
