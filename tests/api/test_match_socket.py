"""The API's match socket (api.consumers), through the real ASGI application: who may
open it, what it sends, and every action it answers as POST /games/{id}/... does.

The consumer works in a database thread of its own, which sees only committed rows,
hence `transactional_db`. The channel layer is the settings' own."""

import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from api.consumers import NOT_YOURS, SIGN_IN_FIRST
from api.throttles import MoveRateThrottle
from config.asgi import application
from core.sockets import NESTED_TOO_DEEP
from games.engine import full_deck
from games.models import Game
from matches import services
from tests.api.conftest import ApiClient, error_codes
from tests.games.helpers import hidden_cards, leaked_cards
from tests.matches.helpers import games_of, run_out_the_clock, sprint
from tests.matches.test_consumers import first_legal_move, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 5
"""Seconds a message may take (a loaded CI machine, Redis)."""


def token_of(user) -> str:
    app = ApiClient()
    assert app.log_in(user.username).status_code == 200
    assert app.token
    return app.token


def socket(match_id, *, token: str | None = None, cookie: str | None = None):
    headers = [(b"host", b"localhost")]
    if token is not None:
        headers.append((b"x-session-token", token.encode()))
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, f"/api/v1/matches/{match_id}/socket", headers=headers)


async def opened(match_id, token: str) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    communicator = socket(match_id, token=token)
    connected, _ = await communicator.connect()
    assert connected
    hello = json.loads(await communicator.receive_from(timeout=TIMEOUT))
    assert hello["type"] == "hello"
    return communicator, hello


async def ask(communicator: WebsocketCommunicator, message: dict[str, Any]) -> dict[str, Any]:
    await communicator.send_to(text_data=json.dumps(message))
    return json.loads(await communicator.receive_from(timeout=TIMEOUT))


def run(body: Callable[[], Awaitable[None]]) -> None:
    async_to_sync(body)()


def stored(game: Game) -> Game:
    return Game.objects.get(id=game.id)


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def match(player, bob):
    return sprint(player, bob)


async def closed_with(communicator: WebsocketCommunicator) -> int:
    """The close code of a refused socket: accepted, then closed with it (a close
    before the accept is the same HTTP 403 to a real client, whatever the reason)."""
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected, "the handshake itself was refused"
    closing = await communicator.receive_output(timeout=TIMEOUT)
    assert closing["type"] == "websocket.close"
    return int(closing["code"])


def test_without_a_live_session_token_the_socket_is_told_to_sign_in(match, player):
    cookie = session_cookie(player)
    signed_out = token_of(player)
    ApiClient(signed_out).delete("/api/v1/auth/session")

    async def body() -> None:
        for communicator in (
            socket(match.id),
            socket(match.id, token="not-a-token"),
            socket(match.id, token=signed_out),
            # A browser's cookie is the web page's socket's, never this one's.
            socket(match.id, cookie=cookie),
        ):
            assert await closed_with(communicator) == SIGN_IN_FIRST

    run(body)


def test_a_player_without_a_seat_and_a_match_that_is_none_are_told_of_no_match(
    match, make_user, player
):
    carol = token_of(make_user("carol"))
    alice = token_of(player)

    async def body() -> None:
        assert await closed_with(socket(match.id, token=carol)) == NOT_YOURS
        unknown = "00000000-0000-0000-0000-000000000000"
        assert await closed_with(socket(unknown, token=alice)) == NOT_YOURS

    run(body)


def test_the_first_message_is_the_match_and_the_players_own_game_with_nothing_hidden(match, player):
    token = token_of(player)
    mine, bobs = games_of(match)

    async def body() -> None:
        communicator, hello = await opened(match.id, token)
        assert hello["match"]["id"] == str(match.id)
        assert hello["match"]["your_game_id"] == str(mine.id)
        assert hello["game"]["id"] == str(mine.id)
        assert hello["game"]["revision"] == 0
        assert hello["match"]["remaining_seconds"] > 0
        text = json.dumps(hello)
        for game in (mine, bobs):
            assert leaked_cards(text, hidden_cards(game)) == []
        await communicator.disconnect()

    run(body)


def test_a_move_over_the_socket_is_answered_stored_and_heard_by_the_opponent(match, player, bob):
    tokens = token_of(player), token_of(bob)
    mine, bobs = games_of(match)
    move = first_legal_move(mine)

    async def body() -> None:
        alice_socket, _ = await opened(match.id, tokens[0])
        bob_socket, _ = await opened(match.id, tokens[1])
        answer = await ask(alice_socket, {"id": 7, "action": "move", "move": move, "revision": 0})
        assert answer["type"] == "answer"
        assert answer["id"] == 7
        assert answer["game"]["revision"] == 1
        assert answer["game"]["move_count"] == 1
        assert "moves" not in answer["game"]
        heard = json.loads(await bob_socket.receive_from(timeout=TIMEOUT))
        assert heard["type"] == "seat"
        assert heard["seat"]["game_id"] == str(mine.id)
        assert heard["seat"]["username"] == player.username
        assert heard["seat"]["move_count"] == 1
        # Both seats play one deal: the listener's own hidden cards are what the mover's
        # table may show. While the match runs no card is sent at all.
        hidden = await sync_to_async(hidden_cards)(await sync_to_async(stored)(bobs))
        assert leaked_cards(json.dumps(heard), hidden) == []
        assert leaked_cards(json.dumps(heard), set(full_deck())) == []
        # The mover's own progress is in the answer, not pushed back to it.
        assert await alice_socket.receive_nothing(timeout=0.3)
        await alice_socket.disconnect()
        await bob_socket.disconnect()

    run(body)
    assert stored(mine).move_log == [move]
    assert stored(bobs).move_log == []


def test_every_action_of_the_api_works_over_the_socket(match, player):
    token = token_of(player)
    mine, _ = games_of(match)
    move = first_legal_move(mine)

    async def body() -> None:
        communicator, _ = await opened(match.id, token)
        played = await ask(communicator, {"action": "move", "move": move, "revision": 0})
        undone = await ask(communicator, {"action": "undo", "revision": 1})
        assert undone["type"] == "answer"
        assert undone["game"]["move_count"] == 0
        asked = await ask(communicator, {"action": "finish", "revision": 2})
        assert asked["type"] == "refusal"
        assert [error["code"] for error in asked["errors"]] == ["confirmation_required"]
        finished = await ask(communicator, {"action": "finish", "revision": 2, "confirm": True})
        assert finished["type"] == "answer"
        assert finished["game"]["state"] == "finished"
        assert played["game"]["revision"] == 1
        await communicator.disconnect()

    run(body)
    assert stored(mine).status == Game.Status.FINISHED


@pytest.mark.parametrize(
    ("message", "code", "status"),
    [
        ({"action": "move", "move": "t1-f", "revision": 5}, "stale_revision", 409),
        ({"action": "move", "move": "nonsense", "revision": 0}, "illegal_move", 422),
        ({"action": "move", "revision": 0}, "malformed", 400),
        ({"action": "fly", "revision": 0}, "malformed", 400),
        ({"action": "move", "move": "draw", "revision": -1}, "malformed", 400),
    ],
)
def test_a_refused_action_says_why_and_changes_nothing(match, player, message, code, status):
    token = token_of(player)
    mine, _ = games_of(match)
    before = stored(mine)

    async def body() -> None:
        communicator, _ = await opened(match.id, token)
        refusal = await ask(communicator, {"id": "x", **message})
        assert refusal["type"] == "refusal"
        assert refusal["id"] == "x"
        assert refusal["status"] == status
        assert [error["code"] for error in refusal["errors"]] == [code]
        assert refusal["errors"][0]["message"]
        if code in ("stale_revision", "illegal_move"):
            assert refusal["game"]["revision"] == 0
        await communicator.disconnect()

    run(body)
    after = stored(mine)
    assert (after.state, after.revision, after.move_log) == (
        before.state,
        before.revision,
        before.move_log,
    )


def test_a_message_that_is_not_json_is_refused(match, player):
    token = token_of(player)

    async def body() -> None:
        communicator, _ = await opened(match.id, token)
        for text in ("{", "[1, 2]", "x" * 3000):
            await communicator.send_to(text_data=text)
            refusal = json.loads(await communicator.receive_from(timeout=TIMEOUT))
            assert refusal["type"] == "refusal"
            assert [error["code"] for error in refusal["errors"]] == ["malformed"]
        await communicator.disconnect()

    run(body)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 999 + "]" * 999,
        '{"id": 1, "action": "move", "revision": 0, "move": %s}' % ("[" * 40 + "]" * 40),
    ],
)
def test_a_message_nested_too_deep_closes_the_socket_and_changes_nothing(match, player, text):
    token = token_of(player)
    mine, _ = games_of(match)
    before = stored(mine)

    async def body() -> None:
        communicator, _ = await opened(match.id, token)
        await communicator.send_to(text_data=text)
        closed = await communicator.receive_output(timeout=TIMEOUT)
        assert closed == {"type": "websocket.close", "code": NESTED_TOO_DEEP}

    run(body)
    assert stored(mine).revision == before.revision


def test_an_action_after_the_clock_ran_out_is_refused(match, player):
    token = token_of(player)
    mine, _ = games_of(match)
    move = first_legal_move(mine)
    run_out_the_clock(match)

    async def body() -> None:
        communicator, _ = await opened(match.id, token)
        refusal = await ask(communicator, {"action": "move", "move": move, "revision": 0})
        assert [error["code"] for error in refusal["errors"]] == ["game_closed"]
        assert "Time is up" in refusal["errors"][0]["message"]
        await communicator.disconnect()

    run(body)
    assert stored(mine).move_log == []


def test_actions_over_the_socket_keep_to_the_apis_rate(match, player, monkeypatch):
    monkeypatch.setattr(MoveRateThrottle, "THROTTLE_RATES", {"moves": "3/min"})
    token = token_of(player)
    mine, _ = games_of(match)
    move = first_legal_move(mine)
    # One budget: an action by POST spends it as one over the socket does.
    assert ApiClient(token).post(f"/api/v1/games/{mine.id}/undo", {"revision": 0}).status_code
    assert cache.get(f"throttle_moves_{player.pk}") is not None  # kept in the cache

    async def body() -> None:
        communicator, _ = await opened(match.id, token)
        first = await ask(communicator, {"id": 1, "action": "move", "move": move, "revision": 0})
        second = await ask(communicator, {"id": 2, "action": "undo", "revision": 1})
        third = await ask(communicator, {"id": 3, "action": "move", "move": move, "revision": 2})
        assert [first["type"], second["type"], third["type"]] == ["answer", "answer", "refusal"]
        assert third["id"] == 3
        assert third["status"] == 429
        assert [error["code"] for error in third["errors"]] == ["throttled"]
        # As every refused action on the seat's game, with the game as it now is.
        assert (third["game"]["id"], third["game"]["revision"]) == (str(mine.id), 2)
        await communicator.disconnect()

    run(body)
    assert stored(mine).revision == 2


BURST = 420


def test_a_burst_spends_the_players_one_budget_for_the_api_and_every_socket(match, player):
    """420 actions in a burst on one socket, at the real rate (API_MOVE_RATE, 300 a
    minute): 300 are served and 120 refused, each refusal with its action's id; then a
    POST and a second socket are refused too."""
    token = token_of(player)
    mine, _ = games_of(match)
    move = first_legal_move(mine)
    rate = MoveRateThrottle().num_requests
    answered: list[Any] = []
    throttled: list[Any] = []

    async def body() -> None:
        communicator, _ = await opened(match.id, token)
        for number in range(BURST):
            # A move and its undo, over and over: every one a real action on the game.
            revision = number
            message = (
                {"action": "move", "move": move, "revision": revision}
                if number % 2 == 0
                else {"action": "undo", "revision": revision}
            )
            reply = await ask(communicator, {"id": number, **message})
            if reply["type"] == "answer":
                answered.append(reply["id"])
            else:
                assert [error["code"] for error in reply["errors"]] == ["throttled"]
                assert reply["status"] == 429
                throttled.append(reply["id"])
                break
        # The rest of the burst, each refused as its own.
        for number in range(len(answered) + 1, BURST):
            reply = await ask(communicator, {"id": number, "action": "undo", "revision": 0})
            assert [error["code"] for error in reply["errors"]] == ["throttled"]
            throttled.append(reply["id"])
        second, _ = await opened(match.id, token)
        refused = await ask(second, {"id": "again", "action": "undo", "revision": 0})
        assert refused["id"] == "again"
        assert [error["code"] for error in refused["errors"]] == ["throttled"]
        await communicator.disconnect()
        await second.disconnect()

    run(body)
    print(f"\n{BURST} socket actions in a burst: {len(answered)} served, {len(throttled)} refused")
    assert answered == list(range(rate))
    assert throttled == list(range(rate, BURST))
    assert stored(mine).revision == rate
    posted = ApiClient(token).post(f"/api/v1/games/{mine.id}/undo", {"revision": rate})
    assert posted.status_code == 429
    assert error_codes(posted) == ["throttled"]
    assert int(posted["Retry-After"]) > 0


def test_when_the_match_settles_each_socket_is_sent_the_match_as_its_player_sees_it(
    match, player, bob
):
    tokens = token_of(player), token_of(bob)
    own_games = [str(game.id) for game in games_of(match)]

    async def body() -> None:
        alice_socket, _ = await opened(match.id, tokens[0])
        bob_socket, _ = await opened(match.id, tokens[1])
        await sync_to_async(run_out_the_clock)(match)
        await sync_to_async(services.match_close_if_time_up)(match_id=match.id)
        for communicator, own_game in zip((alice_socket, bob_socket), own_games, strict=True):
            message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
            while message["type"] != "match":
                message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
            assert message["match"]["state"] == "finished"
            assert message["game"]["id"] == message["match"]["your_game_id"] == own_game
            assert message["game"]["state"] != "active"
            assert [seat["username"] for seat in message["match"]["seats"]] == ["alice", "bob"]
            await communicator.disconnect()

    run(body)


def test_before_the_start_there_is_no_game_and_an_action_is_refused(player, bob):
    waiting = sprint(player, bob, start=False)
    token = token_of(player)

    async def body() -> None:
        communicator, hello = await opened(waiting.id, token)
        assert hello["game"] is None
        assert hello["match"]["state"] == "open"
        refusal = await ask(communicator, {"action": "move", "move": "draw", "revision": 0})
        assert refusal["status"] == 409
        assert [error["code"] for error in refusal["errors"]] == ["match_refused"]
        await communicator.disconnect()

    run(body)


async def next_of_type(communicator: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
    while message["type"] != kind:
        message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
    return message


def test_a_socket_opened_early_hears_the_start_and_only_the_others_progress(player, bob):
    waiting = sprint(player, bob, start=False)
    tokens = token_of(player), token_of(bob)

    async def body() -> None:
        alice_socket, _ = await opened(waiting.id, tokens[0])
        bob_socket, _ = await opened(waiting.id, tokens[1])
        started = await sync_to_async(ApiClient(tokens[0]).post)(
            f"/api/v1/matches/{waiting.id}/start"
        )
        assert started.status_code == 200
        own_games = {}
        for name, communicator in (("alice", alice_socket), ("bob", bob_socket)):
            told = await next_of_type(communicator, "match")
            assert told["match"]["state"] == "running"
            assert told["game"]["id"] == told["match"]["your_game_id"]
            own_games[name] = told["game"]["id"]
        mine = await sync_to_async(Game.objects.get)(id=own_games["alice"])
        move = await sync_to_async(first_legal_move)(mine)
        # Over the socket, then by POST: alice hears neither, bob hears both.
        answer = await ask(alice_socket, {"id": 1, "action": "move", "move": move, "revision": 0})
        assert answer["type"] == "answer"
        undone = await sync_to_async(ApiClient(tokens[0]).post)(
            f"/api/v1/games/{mine.id}/undo", {"revision": 1}
        )
        assert undone.status_code == 200
        for move_count in (1, 0):
            heard = await next_of_type(bob_socket, "seat")
            assert heard["seat"]["game_id"] == own_games["alice"]
            assert heard["seat"]["move_count"] == move_count
        assert await alice_socket.receive_nothing(timeout=0.5)
        await alice_socket.disconnect()
        await bob_socket.disconnect()

    run(body)
