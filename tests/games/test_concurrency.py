"""Two requests on one game at the same moment: the row lock lets one through."""

import threading

import pytest
from django.db import connection

from games import services
from games.errors import StaleAction
from games.models import Game


@pytest.mark.django_db(transaction=True)
def test_simultaneous_moves_on_one_board_apply_exactly_once(player):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the row lock is exercised on PostgreSQL")
    game = services.game_start(player=player, variant="klondike")
    start = threading.Barrier(4)
    outcomes: list[str] = []

    def submit() -> None:
        start.wait()
        try:
            services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
            outcomes.append("applied")
        except StaleAction:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    game.refresh_from_db()
    assert sorted(outcomes) == ["applied", "stale", "stale", "stale"]
    assert game.move_log == ["draw"]
    assert game.revision == 1
    assert Game.objects.get(id=game.id).move_count == 1
