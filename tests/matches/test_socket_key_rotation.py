"""The page's match socket reads its web session's user as Django's get_user reads a
request's, through a rotation of SECRET_KEY too: a session signed in under the old key,
which the pages still accept while it is in SECRET_KEY_FALLBACKS, opens the socket and
keeps it through an account change, and the page stays signed in. Once the old key
leaves the fallbacks, socket and page are both signed out, as Django signs the page
out. Through the real ASGI application and the settings' channel layer."""

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from games import services as games
from matches.consumers import SIGN_IN_FIRST
from tests.matches.helpers import games_of, sprint
from tests.matches.test_consumers import (
    PUSH_TIMEOUT,
    first_legal_move,
    run,
    seat_html,
    socket,
    web_client_of,
)

pytestmark = pytest.mark.django_db(transaction=True)

KEY_BEFORE = "the-secret-key-before-the-rotation-" + "a" * 20
KEY_AFTER = "the-secret-key-after-the-rotation-" + "b" * 20
ROTATED = {"SECRET_KEY": KEY_AFTER, "SECRET_KEY_FALLBACKS": [KEY_BEFORE]}
RETIRED = {"SECRET_KEY": KEY_AFTER, "SECRET_KEY_FALLBACKS": []}


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def page_signed_in(browser: Client) -> bool:
    return browser.get(reverse("games:history")).status_code == 200


def test_the_pages_socket_is_signed_in_through_a_key_rotation(player, bob):
    match = sprint(player, bob)
    with override_settings(SECRET_KEY=KEY_BEFORE):
        browser, headers = web_client_of(player)
        other_browser, _ = web_client_of(player)  # the player's other device
    key = browser.cookies[settings.SESSION_COOKIE_NAME].value
    _, bobs_game = games_of(match)
    move = first_legal_move(bobs_game)

    with override_settings(**ROTATED):

        async def body() -> None:
            listener = socket(match, headers)
            assert (await listener.connect(timeout=PUSH_TIMEOUT))[0]
            # The other device signs out: every socket of the player checks its own
            # sign-in again, and this one is still signed in.
            assert (
                await sync_to_async(other_browser.post)(reverse("account_logout"))
            ).status_code == 302
            await sync_to_async(games.game_move_play)(
                game_id=bobs_game.id, player=bob, move=move, revision=0
            )
            heard = await listener.receive_output(timeout=PUSH_TIMEOUT)
            assert heard["type"] == "websocket.send", heard
            assert seat_html(heard["text"], bobs_game)
            await listener.disconnect()

        run(body)
        # The page's session was neither ended nor given a key its browser lacks.
        assert page_signed_in(browser)
        assert browser.cookies[settings.SESSION_COOKIE_NAME].value == key


def test_a_session_of_a_retired_key_signs_out_the_socket_as_it_does_the_page(player, bob):
    match = sprint(player, bob)
    with override_settings(SECRET_KEY=KEY_BEFORE):
        browser, headers = web_client_of(player)

    with override_settings(**RETIRED):

        async def body() -> None:
            listener = socket(match, headers)
            assert (await listener.connect(timeout=PUSH_TIMEOUT))[0]
            closing = await listener.receive_output(timeout=PUSH_TIMEOUT)
            assert closing == {"type": "websocket.close", "code": SIGN_IN_FIRST}

        run(body)
        assert not page_signed_in(browser)
