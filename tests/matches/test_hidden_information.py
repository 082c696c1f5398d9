"""While a same-deal match runs, nothing a seat is sent names a card hidden in its own
game, and nothing anybody is sent names a seed.

Every seat plays the same deal, so a card face up on another seat's table may be face
down or in the stock of yours: the walk searches every answer and every push a seat
receives for every card hidden in *that seat's* game at that moment (face down, in the
stock, anything its table does not show), in every form a card is printed
(tests.games.helpers: code, name and aria-label, the printed face). A Klondike
head-to-head (a test points table published) and Steps Sprints of two to four seats are
played by random moves, each seat in turn through the web (the board's actions), the API
(POST /games/{id}/...) and the API's match socket; every seat listens on both sockets
(the page's `ws/matches/<id>/` and the API's `/api/v1/matches/<id>/socket`) and now and
then looks at everything it may: the board page, the match page, the live panel's poll,
GET /matches/{id}, the lobby's current match and its own game. Once the match is over,
the tables are shown (docs/decisions.md)."""

import json
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from api.serializers.public import public_view
from config.asgi import application
from games.engine import format_move
from games.models import Game
from games.variants import game_variant
from matches import services
from matches.models import Match, PointsTable
from tests.api.conftest import ApiClient
from tests.api.test_hidden_information import (
    SECRET_KEYS,
    face_down_or_stock,
    keys_of,
    without_move_logs,
)
from tests.games.helpers import hidden_cards, leaked_cards
from tests.matches.helpers import games_of, sprint
from tests.matches.test_consumers import headers_of

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 5
"""Seconds a push may take (a loaded CI machine, Redis)."""
HX = {"HTTP_HX_REQUEST": "true"}
STEPS = 36
"""Actions a walk plays: enough for every seat to turn up cards the others have not."""
USERNAMES = ("p21", "p22", "p23", "p24")


@dataclass
class Seat:
    """A seated player with everything it listens on and looks through."""

    user: Any
    game: Game
    browser: Client
    app: ApiClient
    page_socket: WebsocketCommunicator
    app_socket: WebsocketCommunicator
    searched: list[str] = field(default_factory=list)
    """Where each answer and push this seat received came from, once searched."""


@dataclass
class Walk:
    match: Match
    seats: list[Seat]

    def secrets(self) -> set[str]:
        return {self.match.seed, *(Game.objects.get(id=s.game.id).seed for s in self.seats)}

    def search_html(self, html: str, seat: Seat, where: str) -> None:
        """An answer or push to `seat` as HTML: no card hidden in its own game."""
        seat.game.refresh_from_db()
        assert leaked_cards(html, hidden_cards(seat.game)) == [], (
            f"{where} to {seat.user.username} names its hidden cards"
        )
        assert not [secret for secret in self.secrets() if secret in html], where
        seat.searched.append(where)

    def search_json(self, text: str, seat: Seat, where: str) -> None:
        """An answer or push to `seat` as JSON: no card hidden in its own game. Its own
        move log is the one part set aside (a Klondike or Steps move names no card; the
        log is checked to be the seat's own, naming nothing face down or in the stock)."""
        seat.game.refresh_from_db()
        body = json.loads(text)
        logs: list[list[str]] = []
        rest = json.dumps(without_move_logs(body, logs))
        assert leaked_cards(rest, hidden_cards(seat.game)) == [], (
            f"{where} to {seat.user.username} names its hidden cards: {rest}"
        )
        assert not keys_of(body) & SECRET_KEYS, where
        assert not [secret for secret in self.secrets() if secret in text], where
        for log in logs:
            assert log == seat.game.move_log, where
            assert leaked_cards(json.dumps(log), face_down_or_stock(seat.game)) == []
        seat.searched.append(where)


def run(body: Callable[[], Awaitable[None]]) -> None:
    async_to_sync(body)()


def token_of(username: str) -> ApiClient:
    app = ApiClient()
    assert app.log_in(username).status_code == 200
    return app


def klondike_match(players) -> Match:
    referee = type(players[0]).objects.create_user(username="referee", is_staff=True)
    table = PointsTable.objects.create(
        version=1,
        points={"waste_to_tableau": 5, "tableau_to_foundation": 10, "flip": 5},
        note="A test table.",
    )
    services.points_table_publish(table_id=table.id, staff=referee)
    match = services.match_create(player=players[0], mode="klondike")
    services.match_join(player=players[1], match_id=match.id)
    match.refresh_from_db()
    return match


def a_move(seat: Seat, rng: random.Random) -> tuple[str, Any] | None:
    seat.game.refresh_from_db()
    if not seat.game.is_active:
        return None
    variant = game_variant(seat.game)
    moves = variant.legal_moves(variant.load(seat.game.state))
    if not moves:
        return None
    move = rng.choice(moves)
    return format_move(move), move


def web_action(seat: Seat, move: Any, notation: str, *, tap: bool) -> tuple[int, str]:
    """The board's form, as htmx posts it: the board's answer."""
    game = seat.game
    if tap:
        url = reverse("games:tap", kwargs={"game_id": game.id})
        data = {"source": move.src, "count": move.count, "revision": game.revision}
    else:
        url = reverse("games:move", kwargs={"game_id": game.id})
        data = {"move": notation, "revision": game.revision}
    response = seat.browser.post(url, data, **HX)
    return response.status_code, response.content.decode()


def api_action(seat: Seat, notation: str) -> tuple[int, str]:
    response = seat.app.post(
        f"/api/v1/games/{seat.game.id}/moves", {"move": notation, "revision": seat.game.revision}
    )
    return response.status_code, response.content.decode()


def revision_of(seat: Seat) -> int:
    return Game.objects.get(id=seat.game.id).revision


def look_around(walk: Walk, seat: Seat) -> None:
    """Everything the seat may look at while the match runs, searched."""
    match_id = walk.match.id
    board = seat.browser.get(reverse("games:detail", kwargs={"game_id": seat.game.id}))
    walk.search_html(board.content.decode(), seat, "the board page")
    detail = reverse("matches:detail", kwargs={"match_id": match_id})
    page = seat.browser.get(detail, follow=True)
    assert page.redirect_chain, "a running match's page takes its player to the board"
    walk.search_html(page.content.decode(), seat, "the match page")
    walk.search_html(seat.browser.get(detail, **HX).content.decode(), seat, "the match poll")
    live = seat.browser.get(reverse("matches:live", kwargs={"match_id": match_id}), **HX)
    assert live.status_code == 200
    walk.search_html(live.content.decode(), seat, "the live panel's poll")
    for path, where in (
        (f"/api/v1/matches/{match_id}", "GET /matches/{id}"),
        ("/api/v1/matches", "the lobby's current match"),
        (f"/api/v1/games/{seat.game.id}", "GET /games/{id}"),
    ):
        answer = seat.app.get(path)
        assert answer.status_code == 200, (where, answer.content)
        walk.search_json(answer.content.decode(), seat, where)


async def pushes_after_an_action(walk: Walk, actor: Seat) -> None:
    """One action pushes the actor's progress once to every page socket of the match,
    and to the API socket of every other seat (its own progress is in its answers)."""
    for seat in walk.seats:
        html = await seat.page_socket.receive_from(timeout=TIMEOUT)
        await sync_to_async(walk.search_html)(html, seat, "a page socket's push")
        if seat is not actor:
            message = await seat.app_socket.receive_from(timeout=TIMEOUT)
            assert json.loads(message)["type"] == "seat"
            await sync_to_async(walk.search_json)(message, seat, "an API socket's seat push")


async def act(walk: Walk, actor: Seat, step: int, rng: random.Random) -> None:
    """One random action of the seat's, through the web, the API or its socket in turn
    (now and then an undo, or a refused move), its answer searched, then its pushes."""
    picked = await sync_to_async(a_move)(actor, rng)
    if picked is None:
        return
    notation, move = picked
    before = await sync_to_async(revision_of)(actor)
    channel = step % 3
    if rng.random() < 0.1:  # refused: it changes nothing and pushes nothing
        notation = "t1-t1"
    if channel == 0:
        tap = move.kind == "transfer" and move.src == "w" and rng.random() < 0.5
        status, text = await sync_to_async(web_action)(actor, move, notation, tap=tap)
        await sync_to_async(walk.search_html)(text, actor, "the board's answer")
    elif channel == 1:
        status, text = await sync_to_async(api_action)(actor, notation)
        await sync_to_async(walk.search_json)(text, actor, "an API action's answer")
    else:
        message = {"id": step, "action": "move", "move": notation, "revision": before}
        await actor.app_socket.send_to(text_data=json.dumps(message))
        text = await actor.app_socket.receive_from(timeout=TIMEOUT)
        status = 200 if json.loads(text)["type"] == "answer" else 422
        await sync_to_async(walk.search_json)(text, actor, "an API socket's answer")
    assert status in (200, 422), text
    if await sync_to_async(revision_of)(actor) != before:
        await pushes_after_an_action(walk, actor)
    if rng.random() < 0.15 and await sync_to_async(revision_of)(actor) != before:
        undo = await sync_to_async(actor.app.post)(
            f"/api/v1/games/{actor.game.id}/undo", {"revision": before + 1}
        )
        await sync_to_async(walk.search_json)(undo.content.decode(), actor, "an undo's answer")
        await pushes_after_an_action(walk, actor)


async def opened(walk: Walk, seat: Seat) -> None:
    connected, _ = await seat.page_socket.connect()
    assert connected
    connected, _ = await seat.app_socket.connect()
    assert connected
    hello = await seat.app_socket.receive_from(timeout=TIMEOUT)
    await sync_to_async(walk.search_json)(hello, seat, "the API socket's hello")


def seated(match: Match, players) -> list[Seat]:
    seats = []
    for user, game in zip(players, games_of(match), strict=True):
        browser = Client()
        browser.force_login(user)
        app = token_of(user.username)
        assert app.token
        seats.append(
            Seat(
                user=user,
                game=game,
                browser=browser,
                app=app,
                page_socket=WebsocketCommunicator(
                    application, f"/ws/matches/{match.id}/", headers=headers_of(user=user)
                ),
                app_socket=WebsocketCommunicator(
                    application,
                    f"/api/v1/matches/{match.id}/socket",
                    headers=[(b"host", b"localhost"), (b"x-session-token", app.token.encode())],
                ),
            )
        )
    return seats


def finished_tables(walk: Walk) -> None:
    """Once the match is over, each seat's table is shown: the engine's public view (in
    the API's names, api.serializers.public)."""
    walk.match.refresh_from_db()
    assert walk.match.status == Match.Status.FINISHED
    shown = walk.seats[0].app.get(f"/api/v1/matches/{walk.match.id}").json()
    for seat, row in zip(walk.seats, shown["seats"], strict=True):
        seat.game.refresh_from_db()
        variant = game_variant(seat.game)
        public = variant.public_view(variant.load(seat.game.state))
        assert row["public"] == json.loads(json.dumps(public_view(public)))


@pytest.mark.parametrize(
    ("mode", "players"),
    [("klondike", 2), ("steps_sprint", 2), ("steps_sprint", 3), ("steps_sprint", 4)],
)
def test_no_seat_is_ever_sent_a_card_hidden_in_its_own_game(make_user, mode, players):
    users = [make_user(name) for name in USERNAMES[:players]]
    match = klondike_match(users) if mode == "klondike" else sprint(*users)
    assert match.status == Match.Status.RUNNING
    walk = Walk(match=match, seats=seated(match, users))
    # One seat races ahead, so its table turns up what is still hidden in the others'.
    rng = random.Random(f"{mode}-{players}")
    weights = [3, *([1] * (players - 1))]

    async def body() -> None:
        for seat in walk.seats:
            await opened(walk, seat)
        for step in range(STEPS):
            actor = rng.choices(walk.seats, weights)[0]
            await act(walk, actor, step, rng)
            if step % 6 == 5:
                await sync_to_async(look_around)(walk, walk.seats[step % players])
        for seat in walk.seats:
            await sync_to_async(look_around)(walk, seat)
        for seat in walk.seats:
            for socket in (seat.page_socket, seat.app_socket):
                assert await socket.receive_nothing(timeout=0.2)
        # Every seat finishes; the last finish settles the match, after which the
        # tables may be shown.
        for number, seat in enumerate(walk.seats, start=1):
            revision = await sync_to_async(revision_of)(seat)
            finished = await sync_to_async(seat.app.post)(
                f"/api/v1/games/{seat.game.id}/finish", {"revision": revision, "confirm": True}
            )
            assert finished.status_code == 200, finished.content
            if number < players:
                text = finished.content.decode()
                await sync_to_async(walk.search_json)(text, seat, "a finish's answer")
                await pushes_after_an_action(walk, seat)
        for seat in walk.seats:
            await seat.page_socket.disconnect()
            await seat.app_socket.disconnect()

    run(body)
    for seat in walk.seats:
        assert len(seat.searched) >= 10, seat.searched
    finished_tables(walk)
