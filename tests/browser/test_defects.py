"""Issue 13's visual defects, seen in the browser: what a player or a reviewer
could not see (or saw move) before."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests.reviews.helpers import finished_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _log_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )


def test_the_header_sign_up_button_text_differs_from_its_background(page, live_server):
    page.goto(live_server.url + "/")
    button = page.locator(".site-header a.button", has_text="Sign up")
    expect(button).to_be_visible()
    colours = button.evaluate(
        "(el) => { const s = getComputedStyle(el); return [s.color, s.backgroundColor]; }"
    )
    assert colours[0] != colours[1], colours


def test_the_replay_viewer_shows_the_face_down_cards(page, live_server, make_user):
    game = finished_game(make_user("player"), moves=10)
    _log_in(page, live_server, make_user("chief", is_staff=True, is_superuser=True))
    page.goto(live_server.url + reverse("admin:games_game_replay", args=[game.pk]) + "?step=0")
    expect(page.locator("#replay-step")).to_have_text("Step 0 of 10")
    cards = page.locator(".replay-section .replay-card")
    # Every card of the deck is shown: the 21 face down on the piles and the stock's
    # 24 among them, each marked as unseen by the player, none hidden from the reviewer.
    assert cards.count() >= 52
    invisible = cards.evaluate_all(
        "(cards) => cards.filter((card) => card.offsetParent === null).map((c) => c.textContent)"
    )
    assert invisible == []


def test_a_refusal_shows_without_moving_the_cards(page, live_server, make_user):
    from games import services
    from tests.games.helpers import load_fixture, start_with_deck

    player = make_user("player")
    game = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    _log_in(page, live_server, player)
    page.goto(live_server.url + reverse("games:detail", args=[game.id]))
    table = page.locator("#board .table")
    before = table.bounding_box()
    page.evaluate(
        """([url]) => htmx.ajax("POST", url, {target: "#board", swap: "outerHTML", values: {
            move: "t1-t2", revision: document.querySelector("#board").dataset.revision}})""",
        [reverse("games:move", args=[game.id])],
    )
    refusal = page.locator("#board #refusal")
    expect(refusal).to_be_visible()
    after = page.locator("#board .table").bounding_box()
    assert (after["x"], after["y"]) == (before["x"], before["y"])
