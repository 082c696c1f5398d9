"""Writes on matches: the lobby (making, joining, leaving, starting, rematches), the
quick-match queue, the moves and the turn clock of a shared board (the Duel),
following the seats' games and settling, the ratings, and the review's hold."""

from matches.services.duel import duel_move_play, duel_seat_scores, duel_turn_time_up
from matches.services.lobby import (
    match_create,
    match_join,
    match_leave,
    match_mode_require,
    match_rematch,
    match_start,
    mode_is_open,
    points_table_current,
    points_table_for,
)
from matches.services.points import points_table_publish
from matches.services.queue import (
    queue_join,
    queue_leave,
    queue_pair,
    queue_pair_all,
    queue_pair_all_if_embedded,
)
from matches.services.ratings import match_ratings_apply, ratings_recompute
from matches.services.review import match_game_hold_changed
from matches.services.settle import (
    match_close_if_time_up,
    match_game_acted,
    match_game_closed,
    match_settle,
    matches_close_expired,
)

__all__ = [
    "duel_move_play",
    "duel_seat_scores",
    "duel_turn_time_up",
    "match_close_if_time_up",
    "match_create",
    "match_game_acted",
    "match_game_closed",
    "match_game_hold_changed",
    "match_join",
    "match_leave",
    "match_mode_require",
    "match_ratings_apply",
    "match_rematch",
    "match_settle",
    "match_start",
    "matches_close_expired",
    "mode_is_open",
    "points_table_current",
    "points_table_for",
    "points_table_publish",
    "queue_join",
    "queue_leave",
    "queue_pair",
    "queue_pair_all",
    "queue_pair_all_if_embedded",
    "ratings_recompute",
]
