"""The site counts what the metrics say it counts: a move through the board, a game
closed by Finish, a request by its URL name (the settings wire core.metrics in)."""

from uuid import uuid4

import pytest
from django.urls import reverse
from prometheus_client import REGISTRY

from games.models import Game
from games.services import game_start
from tests.games.helpers import refusal_code

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_move_a_finish_and_their_requests_are_counted(
    player_client, player, django_capture_on_commit_callbacks
):
    game = game_start(player=player, variant="klondike")
    moves = sample("arena_moves_total", game="klondike")
    finished = sample("arena_games_finished_total", game="klondike", status="finished")
    timed = sample("arena_request_seconds_count", view="games:move", method="POST", status="2xx")

    moved = player_client.post(
        reverse("games:move", args=[game.id]), {"move": "draw", "revision": 0}, **HX
    )
    assert moved.status_code == 200
    # A refusal on the board is an answer too (200, games.views._refused).
    refused = player_client.post(
        reverse("games:move", args=[game.id]), {"move": "draw", "revision": 0}, **HX
    )
    assert refusal_code(refused) == "stale_revision"
    missing = player_client.post(
        reverse("games:move", args=[uuid4()]), {"move": "draw", "revision": 0}, **HX
    )
    assert missing.status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        closed = player_client.post(
            reverse("games:finish", args=[game.id]), {"revision": 1, "confirm": "on"}, **HX
        )
    assert closed.status_code == 200

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert sample("arena_moves_total", game="klondike") == moves + 1
    assert sample("arena_games_finished_total", game="klondike", status="finished") == finished + 1
    assert (
        sample("arena_request_seconds_count", view="games:move", method="POST", status="2xx")
        == timed + 2
    )
    assert (
        sample("arena_request_seconds_count", view="games:move", method="POST", status="4xx") >= 1
    )
