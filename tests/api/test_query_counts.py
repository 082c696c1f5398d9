"""Exact numbers of queries of the API's hot paths, as tests/games/test_query_counts.py
counts the web's: a move is the token's session and user, then one transaction with
one locked read of the game (its player's profile with it) and one write."""

import pytest

from tests.games.helpers import load_fixture, start_with_deck
from tests.games.test_query_counts import ACTION, SIGNED_IN, assert_one_locked_read_and_one_write

pytestmark = pytest.mark.django_db


def sql(captured) -> list[str]:
    return [query["sql"] for query in captured.captured_queries]


@pytest.fixture
def game(player):
    return start_with_deck(player, load_fixture("klondike_win.json")["deck"])


def test_a_move(api, game, django_assert_num_queries):
    with django_assert_num_queries(SIGNED_IN + ACTION) as captured:
        response = api.post(f"/api/v1/games/{game.id}/moves", {"move": "draw", "revision": 0})
    assert response.status_code == 200
    assert_one_locked_read_and_one_write(sql(captured))


def test_a_poll_of_an_unchanged_game(api, game, django_assert_num_queries):
    etag = api.get(f"/api/v1/games/{game.id}")["ETag"]
    with django_assert_num_queries(SIGNED_IN + 1):
        response = api.get(f"/api/v1/games/{game.id}", headers={"If-None-Match": etag})
    assert response.status_code == 304
