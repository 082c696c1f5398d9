"""A game's logs grow by appending (games.services.logs): a move reads no undo record
and its one UPDATE appends to both logs, and the stored logs stay exactly what the
moves and undos made them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import format_move
from games.models import Game
from games.variants import game_variant
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(player):
    return start_with_deck(player, load_fixture("klondike_win.json")["deck"])


def play(game: Game, player, move: str) -> Game:
    stored = Game.objects.get(id=game.id)
    return services.game_move_play(
        game_id=game.id, player=player, move=move, revision=stored.revision
    ).game


def legal(game: Game) -> list[str]:
    stored = Game.objects.get(id=game.id)
    variant = game_variant(stored)
    return [format_move(move) for move in variant.legal_moves(variant.load(stored.state))]


def test_a_move_reads_no_undo_record_and_appends_to_both_logs(game, player):
    revision = play(game, player, "draw").revision
    with CaptureQueriesContext(connection) as captured:
        services.game_move_play(game_id=game.id, player=player, move="draw", revision=revision)
    statements = [query["sql"] for query in captured.captured_queries]
    # The locked read, with the player's profile (FOR UPDATE on PostgreSQL only).
    locked = next(sql for sql in statements if sql.startswith("SELECT") and "games_game" in sql)
    update = next(sql for sql in statements if sql.startswith('UPDATE "games_game"'))
    assert "undo_log" not in locked.split("FROM")[0]
    appends = "||" if connection.vendor == "postgresql" else "json_insert"
    assert update.count(appends) == 2  # the move log and the undo records


def test_the_stored_logs_are_what_the_moves_and_undos_made_them(game, player):
    played: list[str] = []
    for _ in range(12):
        move = next(move for move in legal(game) if move != "recycle")
        play(game, player, move)
        played.append(move)
    stored = Game.objects.get(id=game.id)
    assert stored.move_log[: len(played)] == played[: len(stored.move_log)]
    before_undos = stored.move_count
    for _ in range(3):
        revision = Game.objects.get(id=game.id).revision
        services.game_move_undo(game_id=game.id, player=player, revision=revision)
    stored = Game.objects.get(id=game.id)
    assert stored.move_count == len(stored.move_log) == len(stored.undo_log) == before_undos - 3
    # Every record still takes its move back: undo to the deal.
    while stored.move_log:
        services.game_move_undo(game_id=game.id, player=player, revision=stored.revision)
        stored = Game.objects.get(id=game.id)
    dealt = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    assert stored.state == Game.objects.get(id=dealt.id).state
    assert stored.undo_log == []
