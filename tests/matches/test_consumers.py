"""A match's socket (matches.consumers) through the real ASGI application: who may
listen, what each push carries and what it never carries.

The consumer is synchronous: it reads the seats in a thread of its own (channels'
database_sync_to_async), which sees only committed rows, hence `transactional_db`.
The channel layer is the settings' own: in memory on the embedded stack, Redis
where REDIS_URL is set."""

import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse

from config.asgi import application
from games import services as games
from games.engine import format_move, full_deck
from games.models import Game
from games.variants import game_variant
from matches import services
from matches.consumers import NOT_YOURS, SIGN_IN_FIRST
from matches.models import Match, PointsTable
from tests.games.helpers import leaked_cards
from tests.matches.helpers import games_of, sprint

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = "http://localhost"
PUSH_TIMEOUT = 5
"""Seconds a push may take to reach the socket (a loaded CI machine, Redis)."""


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def headers_of(*, user=None, origin: str | None = ORIGIN) -> list[tuple[bytes, bytes]]:
    """A browser's handshake headers: its origin and, signed in, its session cookie
    (made here, outside the event loop, as the ORM must be)."""
    headers = [(b"host", b"localhost")]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if user is not None:
        cookie = f"{settings.SESSION_COOKIE_NAME}={session_cookie(user)}"
        headers.append((b"cookie", cookie.encode()))
    return headers


def socket(match: Match, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/matches/{match.id}/", headers=headers)


def run(body: Callable[[], Awaitable[None]]) -> None:
    async_to_sync(body)()


def seat_html(html: str, game: Game) -> str:
    """A seat's part of a push (matches.live), keyed by the seat's game."""
    found = re.search(rf'<li class="match-seat" id="match-seat-{game.id}">(.*?)</li>', html, re.S)
    assert found, f"no seat of game {game.id} in {html}"
    return found.group(1)


def figure(html: str, name: str) -> int:
    found = re.search(rf"<dt>{name}</dt><dd[^>]*>(-?\d+)</dd>", html)
    assert found, f"no {name} in {html}"
    return int(found.group(1))


def first_legal_move(game: Game) -> str:
    variant = game_variant(game)
    return format_move(variant.legal_moves(variant.load(game.state))[0])


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def test_a_seated_player_hears_the_opponents_move_made_through_the_service(player, bob):
    match = sprint(player, bob)
    _, bobs_game = games_of(match)
    move = first_legal_move(bobs_game)

    headers = headers_of(user=player)

    async def body() -> None:
        listener = socket(match, headers)
        assert await listener.connect() == (True, None)
        outcome = await sync_to_async(games.game_move_play)(
            game_id=bobs_game.id, player=bob, move=move, revision=0
        )
        html = await listener.receive_from(timeout=PUSH_TIMEOUT)
        # After an action only the acting seat's part is pushed.
        assert html.lstrip().startswith(f'<li class="match-seat" id="match-seat-{bobs_game.id}"')
        bobs_seat = seat_html(html, bobs_game)
        assert "bob" in bobs_seat
        assert figure(bobs_seat, "Moves") == outcome.game.move_count >= 1
        assert figure(bobs_seat, "Score") == outcome.game.score
        await listener.disconnect()

    run(body)


def test_a_seated_player_hears_the_opponents_move_made_on_the_board(player, bob):
    match = sprint(player, bob)
    _, bobs_game = games_of(match)
    move = first_legal_move(bobs_game)
    bobs_browser = Client()
    bobs_browser.force_login(bob)

    headers = headers_of(user=player)

    async def body() -> None:
        listener = socket(match, headers)
        assert (await listener.connect())[0]
        response = await sync_to_async(bobs_browser.post)(
            f"/games/{bobs_game.id}/move/",
            {"move": move, "revision": 0},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200
        html = await listener.receive_from(timeout=PUSH_TIMEOUT)
        await sync_to_async(bobs_game.refresh_from_db)()
        assert figure(seat_html(html, bobs_game), "Moves") == bobs_game.move_count >= 1
        assert figure(seat_html(html, bobs_game), "Score") == bobs_game.score
        await listener.disconnect()

    run(body)


def closed_with(communicator: WebsocketCommunicator) -> int:
    """The close code a refused socket gets: accepted, then closed with it (closed
    before the accept, every refusal is the same HTTP 403 to a real client)."""

    async def body() -> int:
        connected, _ = await communicator.connect(timeout=PUSH_TIMEOUT)
        assert connected, "the handshake itself was refused"
        closing = await communicator.receive_output(timeout=PUSH_TIMEOUT)
        assert closing["type"] == "websocket.close"
        return int(closing["code"])

    return async_to_sync(body)()


def test_a_player_without_a_seat_is_told_of_no_match(player, bob, carol):
    match = sprint(player, bob)
    assert closed_with(socket(match, headers_of(user=carol))) == NOT_YOURS


def test_a_visitor_is_told_to_sign_in(player, bob):
    match = sprint(player, bob)
    assert closed_with(socket(match, headers_of())) == SIGN_IN_FIRST


def test_a_socket_of_a_match_that_does_not_exist_is_told_of_no_match(player, bob):
    match = sprint(player, bob)
    Match.objects.filter(id=match.id).delete()
    assert closed_with(socket(match, headers_of(user=player))) == NOT_YOURS


def refused(communicator: WebsocketCommunicator) -> tuple[bool, Any]:
    async def body() -> tuple[bool, Any]:
        return await communicator.connect(timeout=PUSH_TIMEOUT)

    return async_to_sync(body)()


@pytest.mark.parametrize("origin", ["http://evil.example", "null", None])
def test_a_socket_from_another_origin_is_refused_before_any_look_at_the_user(player, bob, origin):
    match = sprint(player, bob)
    connected, _code = refused(socket(match, headers_of(user=player, origin=origin)))
    # The origin validator's refusal: closed before the consumer is ever reached.
    assert connected is False


@pytest.fixture
def klondike_match(player, bob, make_user):
    staff = make_user("referee", is_staff=True)
    table = PointsTable.objects.create(
        version=1,
        points={"waste_to_tableau": 5, "tableau_to_foundation": 10, "flip": 5},
        note="A test table.",
    )
    services.points_table_publish(table_id=table.id, staff=staff)
    match = services.match_create(player=player, mode="klondike")
    services.match_join(player=bob, match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    return match


@pytest.mark.parametrize("mode", ["steps_sprint", "klondike"])
def test_no_push_carries_a_hidden_card_or_a_seed(request, player, bob, mode):
    match = request.getfixturevalue("klondike_match") if mode == "klondike" else sprint(player, bob)
    seats = [(player, games_of(match)[0]), (bob, games_of(match)[1])]
    chance = random.Random(f"{mode}-pushes")
    messages: list[str] = []

    headers = headers_of(user=player)

    async def body() -> None:
        listener = socket(match, headers)
        assert (await listener.connect())[0]
        for turn in range(24):
            who, game = seats[turn % 2]
            await sync_to_async(game.refresh_from_db)()
            variant = game_variant(game)
            moves = variant.legal_moves(variant.load(game.state))
            if not moves:
                continue
            await sync_to_async(games.game_move_play)(
                game_id=game.id,
                player=who,
                move=format_move(chance.choice(moves)),
                revision=game.revision,
            )
            html = await listener.receive_from(timeout=PUSH_TIMEOUT)
            await sync_to_async(check_push)(html)
            messages.append(html)
        await listener.disconnect()

    def check_push(html: str) -> None:
        # Each push is the acting seat's part: its figures, and no card at all (the
        # seats play one deal, so one seat's face-up card may be another's face-down
        # one; tests/matches/test_hidden_information.py searches every seat's).
        games_now = [Game.objects.get(id=game.id) for _, game in seats]
        pushed = [game for game in games_now if f'id="match-seat-{game.id}"' in html]
        assert len(pushed) == 1
        assert leaked_cards(html, set(full_deck())) == []
        for secret in {match.seed, *(game.seed for game in games_now)}:
            assert secret not in html

    run(body)
    assert len(messages) >= 12


def test_the_match_is_over_arrives_once_it_settles(player, bob):
    match = sprint(player, bob)
    players_game, bobs_game = games_of(match)

    headers = headers_of(user=bob)

    async def body() -> None:
        listener = socket(match, headers)
        assert (await listener.connect())[0]
        await sync_to_async(games.game_finish)(game_id=bobs_game.id, player=bob, revision=0)
        still_running = await listener.receive_from(timeout=PUSH_TIMEOUT)
        assert f'id="match-seat-{bobs_game.id}"' in still_running
        assert 'id="match-over"' not in still_running
        await sync_to_async(games.game_finish)(game_id=players_game.id, player=player, revision=0)
        html = await listener.receive_from(timeout=PUSH_TIMEOUT)
        while 'id="match-over"' not in html:
            html = await listener.receive_from(timeout=PUSH_TIMEOUT)
        assert 'data-state="finished"' in html
        assert "The match is over." in html
        assert re.search(r"place [12]", seat_html(html, players_game))
        await listener.disconnect()

    run(body)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def web_client_of(user) -> tuple[Client, list[tuple[bytes, bytes]]]:
    """A browser signed in as the user, and its socket's handshake headers."""
    browser = Client()
    browser.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    return browser, [
        (b"host", b"localhost"),
        (b"origin", ORIGIN.encode()),
        (b"cookie", cookie.encode()),
    ]


def signed_out(browser: Client, user) -> None:
    assert browser.post(reverse("account_logout")).status_code == 302


def password_changed(browser: Client, user) -> None:
    user.set_password("another-long-secret-42")
    user.save()


def disabled(browser: Client, user) -> None:
    user.is_active = False
    user.save()


@pytest.mark.parametrize("ending", [signed_out, password_changed, disabled])
def test_the_pages_socket_is_closed_when_its_session_ends(player, bob, ending):
    match = sprint(player, bob)
    browser, headers = web_client_of(player)
    _, other_headers = web_client_of(bob)

    async def body() -> None:
        mine = socket(match, headers)
        bobs = socket(match, other_headers)
        assert (await mine.connect(timeout=PUSH_TIMEOUT))[0]
        assert (await bobs.connect(timeout=PUSH_TIMEOUT))[0]
        await sync_to_async(ending)(browser, player)
        closing = await mine.receive_output(timeout=PUSH_TIMEOUT)
        assert closing == {"type": "websocket.close", "code": SIGN_IN_FIRST}
        # Bob's sign-in is his own: his socket stays and hears the match.
        game = (await sync_to_async(games_of)(match))[1]
        move = await sync_to_async(first_legal_move)(game)
        await sync_to_async(games.game_move_play)(
            game_id=game.id, player=bob, move=move, revision=0
        )
        assert await bobs.receive_from(timeout=PUSH_TIMEOUT)
        await bobs.disconnect()

    run(body)
