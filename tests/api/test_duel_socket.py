"""The API's match socket on a Duel (one shared board, docs/api.md#the-match-socket):
each seat is greeted with the board as it sees it, every move on the board is pushed
to both as the match, and the seat to move plays over the socket as by
POST /matches/{id}/duel/moves. Through the real ASGI application (transactional_db:
the consumer's thread sees committed rows only)."""

import json

import pytest
from asgiref.sync import sync_to_async

from games.engine import full_deck
from games.models import Game
from matches import services
from tests.api.conftest import ApiClient
from tests.api.test_match_socket import TIMEOUT, ask, opened, run, token_of
from tests.games.helpers import leaked_cards
from tests.matches.test_duel import shown_cards

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def duel(player, bob):
    """Alice made it (seat 0, to move), bob joined: it started as he sat down."""
    match = services.match_create(player=player, mode="steps_duel")
    services.match_join(player=bob, match_id=match.id)
    return match


def shared_board(duel) -> Game:
    return Game.objects.get(track=Game.Track.MATCH, track_ref=str(duel.id))


async def next_of_type(communicator, kind: str) -> dict:
    message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
    while message["type"] != kind:
        message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
    return message


def test_each_seat_is_greeted_with_the_board_as_it_sees_it(duel, player, bob):
    tokens = token_of(player), token_of(bob)
    # Two decks: a card face down in one place may lie face up in another.
    hidden = set(full_deck()) - shown_cards(shared_board(duel))

    async def body() -> None:
        alice_socket, alice_hello = await opened(duel.id, tokens[0])
        bob_socket, bob_hello = await opened(duel.id, tokens[1])
        for hello in (alice_hello, bob_hello):
            assert hello["match"]["shared_board"] is True
            assert hello["match"]["your_game_id"] is None
            assert hello["game"] is None
            assert hello["duel"]["match_id"] == str(duel.id)
            assert hello["duel"]["revision"] == 0
            assert leaked_cards(json.dumps(hello), hidden) == []
        assert alice_hello["duel"]["your_turn"] is True
        assert alice_hello["duel"]["legal_moves"]
        assert bob_hello["duel"]["your_turn"] is False
        assert bob_hello["duel"]["legal_moves"] == []
        await alice_socket.disconnect()
        await bob_socket.disconnect()

    run(body)


def test_a_move_posted_on_the_board_is_pushed_to_both_sockets_as_the_match(duel, player, bob):
    tokens = token_of(player), token_of(bob)
    app = ApiClient(tokens[0])

    async def body() -> None:
        alice_socket, hello = await opened(duel.id, tokens[0])
        bob_socket, _ = await opened(duel.id, tokens[1])
        move = hello["duel"]["legal_moves"][0]
        played = await sync_to_async(app.post)(
            f"/api/v1/matches/{duel.id}/duel/moves", {"move": move, "revision": 0}
        )
        assert played.status_code == 200
        for communicator, your_turn in ((alice_socket, False), (bob_socket, True)):
            pushed = await next_of_type(communicator, "match")
            assert pushed["duel"]["revision"] == 1
            assert pushed["duel"]["your_turn"] is your_turn
            assert pushed["match"]["state"] == "running"
        await alice_socket.disconnect()
        await bob_socket.disconnect()

    run(body)


def test_the_seat_to_move_plays_over_the_socket_and_the_other_is_refused(duel, player, bob):
    tokens = token_of(player), token_of(bob)

    async def body() -> None:
        alice_socket, hello = await opened(duel.id, tokens[0])
        bob_socket, _ = await opened(duel.id, tokens[1])
        out_of_turn = await ask(bob_socket, {"id": "b", "action": "move", "move": "pass"})
        assert out_of_turn["type"] == "refusal"
        assert out_of_turn["id"] == "b"
        assert [error["code"] for error in out_of_turn["errors"]] == ["malformed"]
        out_of_turn = await ask(
            bob_socket, {"id": "b", "action": "move", "move": "pass", "revision": 0}
        )
        assert out_of_turn["id"] == "b"
        assert [error["code"] for error in out_of_turn["errors"]] == ["illegal_move"]
        assert "turn" in out_of_turn["errors"][0]["message"]
        undo = await ask(bob_socket, {"id": "u", "action": "undo", "revision": 0})
        assert [error["code"] for error in undo["errors"]] == ["malformed"]
        move = hello["duel"]["legal_moves"][0]
        answer = await ask(alice_socket, {"id": 1, "action": "move", "move": move, "revision": 0})
        assert answer["type"] == "answer"
        assert answer["id"] == 1
        assert answer["duel"]["revision"] == 1
        assert answer["duel"]["your_turn"] is False
        pushed = await next_of_type(bob_socket, "match")
        assert pushed["duel"]["your_turn"] is True
        await alice_socket.disconnect()
        await bob_socket.disconnect()

    run(body)
    board = shared_board(duel)
    assert board.revision == 1
    assert len(board.move_log) == 1
