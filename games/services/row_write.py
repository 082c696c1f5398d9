"""An action's one write: an UPDATE of the fields it changed, with the items its logs
gained appended by the database (games.services.logs).

The ORM built this UPDATE's SQL anew on every move (Model.save: about 2 ms of a 12 ms
move on the benchmark's machine, scripts/bench_http.py). Here the SQL of each shape of
write (the fields, the logs appended and how many items each gains) is built once per
process and vendor, and each value is converted by its field (get_db_prep_save), as
Model.save does. A Game has no save hooks (no auto_now field among an action's, no
pre_save or post_save receiver): nothing of Model.save is skipped."""

import json
from functools import cache
from typing import Any

from django.db import connection, models

from games.models import Game


@cache
def _field(name: str) -> "models.Field[Any, Any]":
    field = Game._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"Game.{name} is not a column")
    return field


def _appended_sql(vendor: str, column: str, count: int) -> str:
    if vendor == "postgresql":
        return f"(COALESCE({column}, '[]'::jsonb) || %s::jsonb)"
    # SQLite: '$[#]' is the place after the last item, at each insertion.
    places = ", ".join("'$[#]', json(%s)" for _ in range(count))
    return f"json_insert(COALESCE({column}, '[]'), {places})"


@cache
def _update_sql(vendor: str, fields: tuple[str, ...], appended: tuple[tuple[str, int], ...]) -> str:
    quote = connection.ops.quote_name
    meta = Game._meta
    assignments = [f"{quote(_field(name).column)} = %s" for name in fields]
    for name, count in appended:
        column = quote(_field(name).column)
        assignments.append(f"{column} = {_appended_sql(vendor, column, count)}")
    # Only the model's own table and column names go in, quoted; every value is a parameter.
    table, key = quote(meta.db_table), quote(_field("id").column)
    return f"UPDATE {table} SET {', '.join(assignments)} WHERE {key} = %s"  # nosec B608


def _appended_values(vendor: str, items: list[Any]) -> list[str]:
    if vendor == "postgresql":
        return [json.dumps(items)]
    return [json.dumps(item) for item in items]


def game_row_write(game: Game, *, fields: list[str], appends: dict[str, list[Any]]) -> None:
    """Write `fields` of the game's row and append `appends` (field -> items) to its
    logs, in one UPDATE. Raises Game.DoesNotExist when the row is gone."""
    vendor = connection.vendor
    shape = tuple((name, len(items)) for name, items in appends.items())
    sql = _update_sql(vendor, tuple(fields), shape)
    values: list[Any] = []
    for name in fields:
        field = _field(name)
        values.append(field.get_db_prep_save(getattr(game, field.attname), connection))
    for items in appends.values():
        values.extend(_appended_values(vendor, items))
    values.append(_field("id").get_db_prep_value(game.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if cursor.rowcount != 1:
            raise Game.DoesNotExist(f"Game {game.pk} is gone: nothing was written")
