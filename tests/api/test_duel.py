"""The Head-to-Head Duel through the API: its shared board for each of its players and
moves on it, on one's own turn only."""

import pytest

from matches import services
from tests.api.conftest import ApiClient, error_codes

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(player, make_user):
    bob = make_user("bob")
    match = services.match_create(player=player, mode="steps_duel")
    services.match_join(player=bob, match_id=match.id)
    return match


@pytest.fixture
def bob_api(duel):
    client = ApiClient()
    assert client.log_in("bob").status_code == 200
    return client


def test_each_player_sees_the_shared_board_and_whose_turn_it_is(api, bob_api, duel):
    mine = api.get(f"/api/v1/matches/{duel.id}/duel")
    theirs = bob_api.get(f"/api/v1/matches/{duel.id}/duel")
    assert mine.status_code == theirs.status_code == 200
    assert mine.json()["public"] == theirs.json()["public"]
    assert mine.json()["your_turn"] is True
    assert theirs.json()["your_turn"] is False
    assert "pass" in mine.json()["legal_moves"]
    assert theirs.json()["legal_moves"] == []
    assert duel.seed not in mine.content.decode()


def test_a_move_on_ones_turn_and_a_refusal_off_it(api, bob_api, duel):
    board = api.get(f"/api/v1/matches/{duel.id}/duel").json()
    out_of_turn = bob_api.post(
        f"/api/v1/matches/{duel.id}/duel/moves", {"move": "pass", "revision": board["revision"]}
    )
    assert out_of_turn.status_code == 422
    assert error_codes(out_of_turn) == ["illegal_move"]
    stale = api.post(f"/api/v1/matches/{duel.id}/duel/moves", {"move": "pass", "revision": 99})
    assert error_codes(stale) == ["stale_revision"]
    move = board["legal_moves"][0]
    played = api.post(
        f"/api/v1/matches/{duel.id}/duel/moves", {"move": move, "revision": board["revision"]}
    )
    assert played.status_code == 200
    assert played.json()["revision"] == board["revision"] + 1
    assert played.json()["your_turn"] is False
    assert bob_api.get(f"/api/v1/matches/{duel.id}/duel").json()["your_turn"] is True


def test_a_stranger_and_a_visitor_see_no_duel(duel, make_user, anonymous_api):
    make_user("eve")
    eve = ApiClient()
    eve.log_in("eve")
    assert eve.get(f"/api/v1/matches/{duel.id}/duel").status_code == 404
    refused = eve.post(f"/api/v1/matches/{duel.id}/duel/moves", {"move": "pass", "revision": 0})
    assert refused.status_code == 404
    assert anonymous_api.get(f"/api/v1/matches/{duel.id}/duel").status_code == 401


def test_the_duels_seats_name_no_game_of_the_site_but_the_matchs_board(api, bob_api, duel):
    """A seat's game_id is a game the client plays at /games/{id}: the Duel's shared
    board is none (a 404 there), so its seats name none, and the match says that its
    board is the shared one, at /matches/{id}/duel."""
    for client in (api, bob_api):
        match = client.get(f"/api/v1/matches/{duel.id}").json()
        assert match["shared_board"] is True
        assert match["your_game_id"] is None
        assert [seat["game_id"] for seat in match["seats"]] == [None, None]
        assert client.get(f"/api/v1/matches/{duel.id}/duel").status_code == 200
    board = duel.seats.get(number=0).game
    assert api.get(f"/api/v1/games/{board.id}").status_code == 404
