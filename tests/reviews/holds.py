"""The two ways the review holds a result, played through the review's own services
(the admin's actions call them): `held`, a game the automatic review flags when it
closes (played faster than the speed rule allows), released by a reviewer who
dismisses the flag; `voided`, a clear game a reviewer voids, released by a restore."""

from contextlib import contextmanager

import pytest
from django.test import override_settings

from games.models import Game
from reviews import services
from reviews.models import GameReview
from tests.reviews.helpers import committed

HOLDS = ["held", "voided"]

STATE_OF_HOLD = {"held": GameReview.State.UNDER_REVIEW, "voided": GameReview.State.VOIDED}


class Hold:
    def __init__(self, kind: str, reviewer) -> None:
        self.kind = kind
        self.reviewer = reviewer

    @contextmanager
    def closing(self):
        """The games closed inside are held by their automatic review (`held`): any
        game a test plays is faster than a minute an action."""
        if self.kind != "held":
            yield
            return
        with override_settings(REVIEW_MIN_SECONDS_PER_MOVE=60, REVIEW_MIN_MOVES_FOR_SPEED=1):
            yield

    def closed(self, game: Game) -> None:
        """After the game closed (and its review ran): a reviewer voids a clear game."""
        if self.kind == "voided":
            assert GameReview.objects.get(game_id=game.id).state == GameReview.State.CLEAR
            with committed():
                services.review_void(game_id=game.id, reviewer=self.reviewer, note="A solver.")
        assert GameReview.objects.get(game_id=game.id).state == STATE_OF_HOLD[self.kind]

    def release(self, game: Game) -> None:
        """The reviewer's decision that clears it: dismiss the flag, or restore."""
        with committed():
            if self.kind == "held":
                services.review_flags_dismiss(game_id=game.id, reviewer=self.reviewer, note="Fine.")
            else:
                services.review_restore(game_id=game.id, reviewer=self.reviewer, note="Appeal.")
        assert GameReview.objects.get(game_id=game.id).state == GameReview.State.CLEAR


@pytest.fixture(params=HOLDS)
def hold(request, reviewer) -> Hold:
    return Hold(request.param, reviewer)
