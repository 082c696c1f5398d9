"""Writes on games. Dealing (`dealing`) starts a game on its track; every action
on a game (`actions`) is one transaction that locks the game row, checks,
applies the move with the engine and saves only the changed fields; closing a
game (`closing`) fixes its final score, runs the close hooks inside that
transaction and hands the game to the tasks that follow once it commits."""

from games.services.actions import (
    TIME_UP_MESSAGE,
    ActionOutcome,
    game_auto_complete,
    game_card_tap,
    game_close_if_time_up,
    game_finish,
    game_looked_at,
    game_loss_accept,
    game_move_play,
    game_move_undo,
    games_close_expired,
)
from games.services.closing import game_closed_dispatch
from games.services.dealing import game_restart, game_resume_or_start, game_start
from games.services.hints import HintOutcome, game_hint
from games.services.review_hold import game_review_hold_set

__all__ = [
    "TIME_UP_MESSAGE",
    "ActionOutcome",
    "HintOutcome",
    "game_auto_complete",
    "game_card_tap",
    "game_close_if_time_up",
    "game_closed_dispatch",
    "game_finish",
    "game_hint",
    "game_looked_at",
    "game_loss_accept",
    "game_move_play",
    "game_move_undo",
    "game_restart",
    "game_resume_or_start",
    "game_review_hold_set",
    "game_start",
    "games_close_expired",
]
