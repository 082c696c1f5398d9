"""games 0013: on PostgreSQL the game's position and logs, rewritten by every move, are
compressed with lz4 (cheaper for the database's CPU than pglz); SQLite is untouched."""

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def test_the_position_and_logs_are_compressed_with_lz4() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("column compression is PostgreSQL's")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute "
            "WHERE attrelid = 'games_game'::regclass "
            "AND attname IN ('state', 'move_log', 'undo_log', 'options')"
        )
        compression = dict(cursor.fetchall())
    assert compression == {"state": "l", "move_log": "l", "undo_log": "l", "options": ""}
