"""Exact numbers of queries of the API's hot paths, as tests/games/test_query_counts.py
counts the web's: a move is the token's session and user, then one transaction with
one locked read of the game (its player's profile with it) and one write."""

import json

import pytest

from accounts.models import Profile
from api.sockets import socket_action
from games.engine import format_move
from games.specs import game_specs
from games.variants import game_variant
from tests.games.helpers import load_fixture, start_with_deck
from tests.games.test_query_counts import ACTION, SIGNED_IN, assert_one_locked_read_and_one_write
from tests.matches.helpers import sprint

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
    assert_one_locked_read_and_one_write(sql(captured), user_with_the_game=False)


def test_a_poll_of_an_unchanged_game(api, game, django_assert_num_queries):
    etag = api.get(f"/api/v1/games/{game.id}")["ETag"]
    with django_assert_num_queries(SIGNED_IN + 1):
        response = api.get(f"/api/v1/games/{game.id}", headers={"If-None-Match": etag})
    assert response.status_code == 304


def test_a_move_over_the_match_socket_reads_what_a_posts_does(
    api, player, make_user, django_assert_num_queries
):
    """Each message checks the socket's token as a request is checked (its session from
    the cache, the user), then the action alone. One that sends no card to a foundation
    leaves the seat's count as it was, with no query."""
    Profile.objects.filter(user=player).update(auto_foundation=False)
    match = sprint(player, make_user("bob"))
    seat = match.seats.get(player=player)
    engine = game_variant(seat.game)
    legal = [format_move(move) for move in engine.legal_moves(engine.load(seat.game.state))]
    move = next(move for move in legal if not move.endswith("-f"))
    message = json.dumps({"action": "move", "move": move, "revision": 0})
    with django_assert_num_queries(SIGNED_IN + ACTION) as captured:
        answer = socket_action(
            match_id=match.id,
            game_id=seat.game_id,
            shared_board=False,
            token=api.token,
            player=player,
            text=message,
        )
    assert answer.message["type"] == "answer"
    assert_one_locked_read_and_one_write(sql(captured), user_with_the_game=False)
    assert sum(pillar["count"] for pillar in answer.message["game"]["public"]["foundations"]) == 0
    seat.refresh_from_db()
    assert seat.foundation_cards == 0


def test_a_players_profile_reads_only_what_it_shows(api, player, django_assert_num_queries):
    """Statistics, badges, this month's challenge stars, the Codex campaign and the
    reigns: neither the page's charts, calendar, ratings nor matches. The player by
    name, their profile, the games they played, each game's figures and all games', the
    badges, the month's stars, the closed scenario games, the reigns."""
    with django_assert_num_queries(SIGNED_IN + 3 + len(game_specs()) + 2 + 3) as captured:
        response = api.get(f"/api/v1/players/{player.username}")
    assert response.status_code == 200
    assert not [query for query in sql(captured) if "matches_" in query or "daily" in query]
