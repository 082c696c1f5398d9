"""Closing a game: its final score is fixed, the close hooks run inside the
transaction that closes it (settings.GAME_CLOSE_HOOKS: the daily result row, a
match's settlement; settings.GAME_ACTION_HOOKS run after every action: a match's
progress),
and once that commits the game goes to the tasks that follow a finish
(settings.GAME_CLOSED_TASKS: achievements, the review). games knows neither
hook nor task: the apps above it are named in settings, so the arrows point down."""

import logging
from collections.abc import Callable
from datetime import datetime
from functools import cache, partial
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from games.engine import Variant
from games.models import Game
from games.services.logs import game_log_appends, game_log_saved
from games.services.row_write import game_row_write

logger = logging.getLogger(__name__)

ACTION_FIELDS = [
    "state",
    "move_log",
    "undo_log",
    "revision",
    "move_count",
    "undo_count",
    "score",
    "final_score",
    "status",
    "elapsed_ms",
    "last_action_at",
    "deadline_at",
    "finished_at",
]
"""The fields an action writes: the one UPDATE of a move."""

CloseHook = Callable[..., Any]


def closing_status(variant: Variant[Any], state: Any, *, otherwise: str) -> str:
    """The status a game gets when it closes other than by a move (finished, abandoned,
    time up): lost when its position is lost, since a proven loss stands however the game
    is left (docs/decisions.md); ``otherwise`` else."""
    return Game.Status.LOST if variant.status(state) == Game.Status.LOST else otherwise


def game_close(
    game: Game, variant: Variant[Any], state: Any, *, status: str, now: datetime
) -> None:
    """End the game with its final score. The caller saves it with `game_save_action`."""
    game.status = status
    game.finished_at = now
    game.final_score = variant.final_score(state, game.elapsed_ms // 1000)


@cache
def _close_hooks(paths: tuple[str, ...]) -> tuple[CloseHook, ...]:
    return tuple(import_string(path) for path in paths)


def game_save_action(game: Game, *, state: Any = None, state_before: Any = None) -> None:
    """Write what an action changed. The action hooks run now (a match follows its
    seats' progress), given the engine's positions after and before the action when
    the action holds them (None: a hook loads what it needs); a game the action closed
    runs the close hooks now and its tasks after the commit."""
    fields, appends = game_log_appends(
        game, [*ACTION_FIELDS, "goal_met_at"] if game.goal_met_now else ACTION_FIELDS
    )
    game_row_write(game, fields=fields, appends=appends)
    game_log_saved(game)
    for action_hook in _close_hooks(tuple(settings.GAME_ACTION_HOOKS)):
        action_hook(game=game, state=state, state_before=state_before)
    game.stored_state = game.state
    if not game.is_active:
        for hook in _close_hooks(tuple(settings.GAME_CLOSE_HOOKS)):
            hook(game=game)
        transaction.on_commit(partial(game_closed_dispatch, game_id=game.id))


def game_closed_dispatch(*, game_id: UUID) -> None:
    """Hand a closed game to the tasks that follow a finish. A broker that is down
    never fails the finished game: the periodic sweeps of those apps catch up."""
    for task_path in settings.GAME_CLOSED_TASKS:
        try:
            import_string(task_path).delay(str(game_id))
        except Exception:
            logger.warning("could not enqueue %s for game %s", task_path, game_id)
