"""A game's move log and undo records grow by appending. An action's one UPDATE adds
what it logged to the stored lists (jsonb `||` on PostgreSQL, `json_insert` on SQLite:
games.services.row_write) instead of writing them again whole, and a move never reads
the undo records: its locked read defers them, and only an undo reads them
(games.services.actions). A long game's undo records are kilobytes; a move's are a few
dozen bytes."""

from typing import Any

from games.models import Game

UNDO_LOG = "undo_log"
MOVE_LOG = "move_log"


def game_log_step(game: Game, *, move: str, undo: dict[str, Any]) -> None:
    """Log one applied move and the record that takes it back."""
    game.move_log.append(move)
    if UNDO_LOG in game.get_deferred_fields():
        game.undo_pending = [*(game.undo_pending or []), undo]
    else:
        game.undo_log.append(undo)


def game_log_appends(game: Game, fields: list[str]) -> tuple[list[str], dict[str, list[Any]]]:
    """What an action's UPDATE writes: the fields written whole, and the items appended
    to a log that only grew (the moves added to a log read whole, the undo records
    logged while deferred)."""
    written = list(fields)
    appends: dict[str, list[Any]] = {}
    moves = game.move_log
    known = game.stored_move_count
    if known is not None and len(moves) >= known and MOVE_LOG in written:
        written.remove(MOVE_LOG)
        if len(moves) > known:
            appends[MOVE_LOG] = moves[known:]
    if UNDO_LOG in game.get_deferred_fields() and UNDO_LOG in written:
        written.remove(UNDO_LOG)
        if game.undo_pending:
            appends[UNDO_LOG] = game.undo_pending
    return written, appends


def game_log_saved(game: Game) -> None:
    """After the UPDATE: the logs as the row now holds them (the undo records still
    deferred, read if ever needed)."""
    game.stored_move_count = len(game.move_log)
    game.undo_pending = None
