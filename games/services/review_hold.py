"""The review's hold on a closed game's result, and what follows it: the apps that
count the game take it out, or put it back, in their own code (settings.
GAME_REVIEW_HOLD_HOOKS: the daily result, a match's ratings, a challenge's
completion, the Codex's title). games knows none of them: the arrows point down."""

from collections.abc import Callable
from functools import cache
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

from games.models import Game

HoldHook = Callable[..., Any]


@cache
def _hold_hooks(paths: tuple[str, ...]) -> tuple[HoldHook, ...]:
    return tuple(import_string(path) for path in paths)


def game_review_hold_set(*, game: Game, hold: str) -> bool:
    """Hold the game's result (Game.ReviewHold: held while under review, voided) or
    count it again (hold ""), inside the caller's transaction: one UPDATE that writes
    only when the hold differs, then each hold hook with the game (its `review_hold`
    the new one). Returns whether the hold changed."""
    if hold and hold not in Game.ReviewHold.values:
        raise ValueError(f"No review hold {hold!r}")
    if not Game.objects.filter(id=game.id).exclude(review_hold=hold).update(review_hold=hold):
        return False
    game.review_hold = hold
    for hook in _hold_hooks(tuple(settings.GAME_REVIEW_HOLD_HOOKS)):
        hook(game=game)
    return True
