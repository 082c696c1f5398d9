"""An action's one read: the game's row locked, with the two settings of the player's
profile that a move and its board need, and the player's own row when the request has
not read it (a session's claim, accounts.session_user: one query for both, where the
request would read the user first in a query of its own).

It is every move's hottest query, and the ORM spent more time building its SQL than
the database spent answering it (about 1.2 ms of a 4 ms move on the benchmark's
machine, scripts/bench_http.py). So the ORM builds it once per process and database
vendor, with stand-in values where the game's and the player's ids go, and each action
runs that SQL with its own ids and makes the instance as the ORM would (its converters
and Model.from_db, the undo records deferred): the same SQL, the same instance."""

from dataclasses import dataclass
from functools import cache
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import F, Value
from django.db.models.functions import Coalesce

from accounts.models import Profile
from accounts.session_user import SignedOut, UserClaim
from games.models import Game

_SOME_GAME = UUID(int=0)
_SOME_PLAYER = -7_654_321
_SETTINGS = {
    "player_auto_foundation": "auto_foundation",
    "player_highlight_moves": "highlight_moves",
}
_USER_FIELDS = tuple(field.attname for field in User._meta.concrete_fields)


def _default(field: str) -> Any:
    """The setting's value for a player who never saved a profile."""
    return getattr(Profile._meta.get_field(field), "default", None)


@dataclass(frozen=True)
class _CompiledRead:
    sql: str
    params: tuple[Any, ...]
    game_at: int
    player_at: int
    """Where the game's and the player's ids go in `params`."""
    columns: tuple[str, ...]
    """The model's fields the row holds, in its order (the settings follow them, then
    the player's own fields when the read brings them)."""
    converters: tuple[tuple[int, tuple[Any, ...], Any], ...]
    """(column, its converters, its expression): the values the database returns as
    something else than the field's (JSON as text, a SQLite date as text)."""


@cache
def _compiled(vendor: str, reads_undo_log: bool, reads_player: bool) -> _CompiledRead:
    # Only the game's row is locked (of=self): the player's row is read, never locked.
    games = Game.objects.select_for_update(of=("self",)).annotate(
        **{
            name: Coalesce(F(f"player__profile__{field}"), Value(_default(field)))
            for name, field in _SETTINGS.items()
        }
    )
    if reads_player:
        games = games.annotate(
            **{f"player_row_{name}": F(f"player__{name}") for name in _USER_FIELDS}
        )
    if not reads_undo_log:
        # Only an undo reads the undo records; the others' are appended to them.
        games = games.defer("undo_log")
    query = games.filter(id=_SOME_GAME, player_id=_SOME_PLAYER).order_by().query
    compiler = query.get_compiler(using="default")
    sql, params = compiler.as_sql()
    expressions = [expression for expression, _sql, _alias in compiler.select]
    converters = compiler.get_converters(expressions)
    return _CompiledRead(
        sql=sql,
        params=tuple(params),
        game_at=next(i for i, p in enumerate(params) if p in (_SOME_GAME, _SOME_GAME.hex)),
        player_at=params.index(_SOME_PLAYER),
        columns=tuple(
            e.target.attname
            for e in expressions[
                : len(expressions) - len(_SETTINGS) - (len(_USER_FIELDS) if reads_player else 0)
            ]
        ),
        converters=tuple(
            (index, tuple(functions), expression)
            for index, (functions, expression) in converters.items()
        ),
    )


def game_locked_for_action(
    *, game_id: UUID, player: User | UserClaim, reads_undo_log: bool
) -> Game:
    """The player's game, its row locked until the transaction ends, its player the one
    given (or, for a session's claim, read with the game and accepted by it) and its
    profile settings on it. Raises Game.DoesNotExist when the player has no such game,
    SignedOut when the claim's session is not the player's. Call it inside a
    transaction."""
    read = _compiled(connection.vendor, reads_undo_log, isinstance(player, UserClaim))
    values = list(read.params)
    # The id as the vendor's UUID field takes it: a UUID (PostgreSQL) or its hex (SQLite).
    wanted = UUID(str(game_id))
    values[read.game_at] = wanted if isinstance(read.params[read.game_at], UUID) else wanted.hex
    values[read.player_at] = player.user_id if isinstance(player, UserClaim) else player.pk
    with connection.cursor() as cursor:
        cursor.execute(read.sql, values)
        found = cursor.fetchone()
    if found is None:
        raise Game.DoesNotExist("No such game")
    row = list(found)
    for index, functions, expression in read.converters:
        for convert in functions:
            row[index] = convert(row[index], expression, connection)
    count, settings_end = len(read.columns), len(read.columns) + len(_SETTINGS)
    game = Game.from_db(connection.alias, read.columns, row[:count])
    if isinstance(player, UserClaim):
        user = User.from_db(connection.alias, _USER_FIELDS, row[settings_end:])
        if not player.accept(user):
            raise SignedOut("This session is signed out: sign in again.")
        game.player = user
    else:
        game.player = player
    game.player_auto_foundation, game.player_highlight_moves = (
        bool(v) for v in row[count:settings_end]
    )
    return game
