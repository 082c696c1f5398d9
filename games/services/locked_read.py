"""An action's one read: the game's row locked, with the two settings of the player's
profile that a move and its board need, and nothing of the user (the request has read
it already).

It is every move's hottest query, and the ORM spent more time building its SQL than
the database spent answering it (about 1.2 ms of a 4 ms move on the benchmark's
machine, scripts/bench_http.py). So the ORM builds it once per process and database
vendor, with stand-in values where the game's and the player's ids go, and each action
runs that SQL with its own ids as a raw query of the model: the same SQL, the same
model instances (deferred fields and from_db included)."""

from functools import cache
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import F, Value
from django.db.models.functions import Coalesce

from accounts.models import Profile
from games.models import Game

_SOME_GAME = UUID(int=0)
_SOME_PLAYER = -7_654_321
_SETTINGS = {
    "player_auto_foundation": "auto_foundation",
    "player_highlight_moves": "highlight_moves",
}


def _default(field: str) -> Any:
    """The setting's value for a player who never saved a profile."""
    return getattr(Profile._meta.get_field(field), "default", None)


@cache
def _compiled(vendor: str, reads_undo_log: bool) -> tuple[str, tuple[Any, ...], int, int]:
    """The SQL, its parameters, and where the game's and the player's ids go in them."""
    games = Game.objects.select_for_update(of=("self",)).annotate(
        **{
            name: Coalesce(F(f"player__profile__{field}"), Value(_default(field)))
            for name, field in _SETTINGS.items()
        }
    )
    if not reads_undo_log:
        # Only an undo reads the undo records; the others' are appended to them.
        games = games.defer("undo_log")
    query = games.filter(id=_SOME_GAME, player_id=_SOME_PLAYER).order_by().query
    sql, params = query.get_compiler(using="default").as_sql()
    game_at = next(i for i, p in enumerate(params) if p in (_SOME_GAME, _SOME_GAME.hex))
    player_at = params.index(_SOME_PLAYER)
    return sql, tuple(params), game_at, player_at


def game_locked_for_action(*, game_id: UUID, player: User, reads_undo_log: bool) -> Game:
    """The player's game, its row locked until the transaction ends, its player the one
    given and its profile settings on it. Raises Game.DoesNotExist when the player has
    no such game. Call it inside a transaction."""
    sql, params, game_at, player_at = _compiled(connection.vendor, reads_undo_log)
    values = list(params)
    # The id as the vendor's UUID field takes it: a UUID (PostgreSQL) or its hex (SQLite).
    wanted = UUID(str(game_id))
    values[game_at] = wanted if isinstance(params[game_at], UUID) else wanted.hex
    values[player_at] = player.pk
    found = list(Game.objects.raw(sql, values))
    if not found:
        raise Game.DoesNotExist("No such game")
    game = found[0]
    game.player = player
    game.player_auto_foundation = bool(game.player_auto_foundation)
    game.player_highlight_moves = bool(game.player_highlight_moves)
    return game
