"""The review's hold on a game, a result or a match, as the API names it: `review` is
"held" while the review checks it, "voided" once a reviewer voided it, and null while
it counts (docs/review.md, "How a held game counts")."""

from typing import Any

from rest_framework import serializers

from games.models import Game

HOLD_HELP = (
    '"held": under review, "voided": voided by a reviewer; null while it counts. A held '
    "result is on no leaderboard and in no figure, rating or star until it is cleared."
)


class ReviewHoldField(serializers.ChoiceField):
    """Game.review_hold, whose empty value (no hold) is null here."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", HOLD_HELP)
        super().__init__(choices=Game.ReviewHold.choices, allow_null=True, **kwargs)

    def to_representation(self, value: Any) -> Any:
        return str(value) if value else None
