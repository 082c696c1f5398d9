"""A game's move log and undo records grow by appending. An action's one UPDATE adds
what it logged to the stored lists (jsonb `||` on PostgreSQL, `json_insert` on SQLite)
instead of writing them again whole, and a move never reads the undo records: its
locked read defers them, and only an undo reads them (games.services.actions). A long
game's undo records are kilobytes; a move's are a few dozen bytes."""

import json
from typing import Any

from django.db import models
from django.db.models import F, Func
from django.db.models.sql.compiler import SQLCompiler

from games.models import Game

UNDO_LOG = "undo_log"
MOVE_LOG = "move_log"


class JsonListAppend(Func):
    """The JSON list in `column` with `items` added at its end, computed by the database."""

    output_field = models.JSONField()

    def __init__(self, column: str, items: list[Any]) -> None:
        super().__init__(F(column))
        self.items = items

    def as_sql(  # type: ignore[override]  # the SQL is the vendor's own
        self, compiler: SQLCompiler, connection: Any, **extra_context: Any
    ) -> tuple[str, list[Any]]:
        column, params = compiler.compile(self.get_source_expressions()[0])
        if connection.vendor == "postgresql":
            return f"(COALESCE({column}, '[]'::jsonb) || %s::jsonb)", [
                *params,
                json.dumps(self.items),
            ]
        # SQLite: '$[#]' is the place after the last item, at each insertion.
        places = ", ".join("'$[#]', json(%s)" for _ in self.items)
        return f"json_insert(COALESCE({column}, '[]'), {places})", [
            *params,
            *(json.dumps(item) for item in self.items),
        ]


def game_log_step(game: Game, *, move: str, undo: dict[str, Any]) -> None:
    """Log one applied move and the record that takes it back."""
    game.move_log.append(move)
    if UNDO_LOG in game.get_deferred_fields():
        game.undo_pending = [*(game.undo_pending or []), undo]
    else:
        game.undo_log.append(undo)


def game_log_update(game: Game, fields: list[str]) -> tuple[list[str], list[str]]:
    """The fields an action's UPDATE writes, its logs made appends where they only grew:
    the undo records logged while deferred, the moves added to a log read whole. Returns
    them and the move log to put back once saved."""
    written = list(fields)
    moves = game.move_log
    known = game.stored_move_count
    if known is not None and len(moves) >= known and MOVE_LOG in written:
        if len(moves) == known:
            written.remove(MOVE_LOG)
        else:
            game.move_log = JsonListAppend(MOVE_LOG, moves[known:])
    if UNDO_LOG in game.get_deferred_fields() and UNDO_LOG in written:
        if game.undo_pending:
            game.undo_log = JsonListAppend(UNDO_LOG, game.undo_pending)
        else:
            written.remove(UNDO_LOG)
    return written, moves


def game_log_saved(game: Game, moves: list[str]) -> None:
    """After the UPDATE: the logs as the row now holds them (the undo records deferred
    again, read if ever needed)."""
    game.move_log = moves
    game.stored_move_count = len(moves)
    if game.undo_pending:
        del game.__dict__[UNDO_LOG]
        game.undo_pending = None
