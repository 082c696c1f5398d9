"""What the API shows of the daily challenges: a day's challenges, the month's
calendar, stars and badge thresholds, the monthly leaderboard and an open proof, as
the selectors read them for the web's pages (challenges.selectors,
challenges.leaderboard, challenges.proof). Never a challenge's seed; its proof line only
once the proof is open, and then as the engine's public view of each position."""

from dataclasses import asdict
from datetime import date
from typing import Any

from rest_framework import serializers

from api.pagination import VIEWER_ROW_HELP, PageSerializer
from api.serializers.public import GamePublicViewField, TableStateField
from api.serializers.review import ReviewHoldField
from challenges.leaderboard import MonthRow
from challenges.proof import ProofLine, ProofPosition
from challenges.selectors import ChallengeEntry, MonthView

MONTH_HELP = "A month written YYYY-MM, as the `month` parameter takes it."


def month_text(month: date) -> str:
    return f"{month:%Y-%m}"


class ChallengeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(
        help_text="Stable: POST /challenges/{id}/play, GET /challenges/{id}/proof."
    )
    day = serializers.DateField(source="date", help_text="The challenge's day (UTC).")
    variant = serializers.CharField(help_text="The game's key (klondike, spike, ...).")
    name = serializers.CharField(source="variant_name", help_text="The game's name.")
    difficulty = serializers.IntegerField(help_text="1 easy, 2 medium, 3 hard.")
    difficulty_label = serializers.CharField(help_text="Easy, Medium or Hard.")
    stars = serializers.IntegerField(help_text="What completing it earns: 1, 2 or 3 stars.")
    goal = serializers.CharField(
        source="words", help_text='The goal in words: "Play two sevens to the foundations".'
    )
    goal_data = serializers.DictField(
        source="goal",
        help_text='The goal as data: its kind and figures, {"kind": "foundation_rank", '
        '"rank": "7", "count": 2} (docs/challenges.md, "Goals").',
    )
    done = serializers.BooleanField(
        allow_null=True, help_text="You have completed it; null for a visitor."
    )
    review = ReviewHoldField(
        help_text="Not done because the review holds your game that met the goal: "
        '"held" while under review (its stars count once it is cleared), "voided"; null '
        "otherwise, and for a visitor."
    )
    playable = serializers.BooleanField(help_text="Its day has begun: it can be played.")
    earns_stars = serializers.BooleanField(
        help_text="A completion now earns its stars (its month is this one)."
    )
    proof_open = serializers.BooleanField(
        help_text="Its proof is open to you: GET /challenges/{id}/proof answers."
    )


def challenge_of(entry: ChallengeEntry, *, signed_in: bool) -> dict[str, Any]:
    """A challenge as the day's list shows it: a visitor's `done` is null."""
    return {**asdict(entry), "done": entry.done if signed_in else None}


class ChallengeDaySerializer(serializers.Serializer[Any]):
    day = serializers.DateField()
    today = serializers.DateField(help_text="Today in UTC: the challenges change at 00:00 UTC.")
    practice = serializers.BooleanField(
        help_text="The day's month is over: its challenges are practice, no star counts."
    )
    making = serializers.BooleanField(
        help_text="Today's challenges are still being proved by the solver: the list is "
        "not whole yet, ask again in a few seconds."
    )
    challenges = ChallengeSerializer(
        many=True, help_text="Game by game in the site's order, easy to hard."
    )


class CalendarDaySerializer(serializers.Serializer[Any]):
    day = serializers.DateField()
    made = serializers.IntegerField(help_text="The day's challenges made.")
    done = serializers.IntegerField(
        allow_null=True, help_text="Those you completed; null for a visitor."
    )
    stars = serializers.IntegerField(
        allow_null=True, help_text="The stars they earned you; null for a visitor."
    )
    is_today = serializers.BooleanField()
    playable = serializers.BooleanField(
        help_text="Its challenges can be played (GET /challenges?day=)."
    )


class ThresholdSerializer(serializers.Serializer[Any]):
    badge = serializers.CharField(help_text="bronze, silver, gold or perfect.")
    title = serializers.CharField()
    stars = serializers.IntegerField(
        allow_null=True, help_text="The month's stars that earn it; null for perfect."
    )
    reached = serializers.BooleanField(
        allow_null=True, help_text="You have reached it this month; null for a visitor."
    )
    to_go = serializers.IntegerField(
        allow_null=True,
        help_text="Stars you still need for it; null for perfect (see `progress`) and for "
        "a visitor.",
    )


class MonthProgressSerializer(serializers.Serializer[Any]):
    stars = serializers.IntegerField(help_text="Your stars of the month.")
    completed = serializers.IntegerField(help_text="The month's challenges you completed.")
    challenges = serializers.IntegerField(help_text="The month's challenges made so far.")
    perfect = serializers.BooleanField(
        help_text="Every challenge of the month completed, once every day of it is made."
    )


class ChallengeMonthSerializer(serializers.Serializer[Any]):
    month = serializers.CharField(help_text=MONTH_HELP)
    previous_month = serializers.CharField(help_text=MONTH_HELP)
    next_month = serializers.CharField(
        allow_null=True, help_text=MONTH_HELP + " Null while it has not begun."
    )
    max_stars = serializers.IntegerField(
        help_text="The stars the month's challenges made so far are worth."
    )
    days = CalendarDaySerializer(many=True, help_text="Every day of the month, in order.")
    thresholds = ThresholdSerializer(many=True, help_text="The month's badges, by their stars.")
    progress = MonthProgressSerializer(allow_null=True, help_text="Yours; null for a visitor.")


def month_of_view(
    view: MonthView, *, signed_in: bool, previous_month: date, next_month: date | None
) -> dict[str, Any]:
    """The month as the challenges page's calendar shows it: a visitor's figures are null."""
    facts = view.facts
    return {
        "month": month_text(facts.month),
        "previous_month": month_text(previous_month),
        "next_month": None if next_month is None else month_text(next_month),
        "max_stars": view.max_stars,
        "days": [
            {
                "day": cell.day,
                "made": cell.made,
                "done": cell.done if signed_in else None,
                "stars": cell.stars if signed_in else None,
                "is_today": cell.is_today,
                "playable": cell.playable,
            }
            for week in view.weeks
            for cell in week
            if cell is not None
        ],
        "thresholds": [
            {
                "badge": threshold.threshold.badge,
                "title": threshold.threshold.title,
                "stars": threshold.threshold.stars,
                "reached": threshold.reached if signed_in else None,
                "to_go": threshold.to_go if signed_in else None,
            }
            for threshold in view.thresholds
        ],
        "progress": {
            "stars": facts.stars,
            "completed": facts.completed,
            "challenges": facts.challenges,
            "perfect": facts.perfect,
        }
        if signed_in
        else None,
    }


class MonthRowSerializer(serializers.Serializer[MonthRow]):
    rank = serializers.IntegerField(help_text="Equal stars and last star share a rank (1, 1, 3).")
    username = serializers.CharField()
    stars = serializers.IntegerField(help_text="The player's stars of the month.")
    last_star_at = serializers.DateTimeField(
        help_text="When the last star came: of equal stars, the earlier ranks first."
    )
    is_viewer = serializers.BooleanField(help_text="The row is yours.")


class ChallengeLeaderboardSerializer(PageSerializer):
    results = MonthRowSerializer(many=True)
    viewer_row = MonthRowSerializer(allow_null=True, help_text=VIEWER_ROW_HELP)
    month = serializers.CharField(help_text=MONTH_HELP)
    previous_month = serializers.CharField(help_text=MONTH_HELP)
    next_month = serializers.CharField(
        allow_null=True, help_text=MONTH_HELP + " Null while it has not begun."
    )


class ProofPositionSerializer(serializers.Serializer[ProofPosition]):
    step = serializers.IntegerField(help_text="Moves played: 0 is the deal.")
    move = serializers.CharField(
        allow_null=True, help_text="The move that led here, in the notation; null for the deal."
    )
    public = GamePublicViewField(
        help_text="The position as a game's `public` shows a table: face-up cards and counts only."
    )
    state = TableStateField()
    progress = serializers.CharField(
        source="progress.text", help_text="The goal's progress: 'Aces to the foundations: 1 of 2'."
    )
    goal_met = serializers.BooleanField(source="progress.met")


class ChallengeProofSerializer(serializers.Serializer[Any]):
    challenge = ChallengeSerializer()
    goal_step = serializers.IntegerField(
        help_text="The step whose move meets the goal: the last, as the proof ends there."
    )
    positions = ProofPositionSerializer(
        many=True, help_text="The deal, then the position after each move of the proof."
    )


def proof_of(proof: ProofLine, *, signed_in: bool) -> dict[str, Any]:
    return dict(
        ChallengeProofSerializer(
            {
                "challenge": challenge_of(proof.entry, signed_in=signed_in),
                "goal_step": proof.goal_step,
                "positions": proof.positions,
            }
        ).data
    )
