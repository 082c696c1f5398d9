"""New deal and Restart take the player to the new game's board in the page they
are on (issue 30, item 19): the header, the navigation, the live region and the keys
dialog stay, with JavaScript and without it."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, CspWatch, require_chromium
from tests.browser.helpers import IDLE, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ASK_AND_CONFIRM = {
    "new deal": ("#new-deal", "#confirm-new-deal"),
    "restart": ("#restart", "#confirm-restart"),
}


def active_game(username: str) -> Game:
    return Game.objects.get(player__username=username, status=Game.Status.ACTIVE)


def assert_the_whole_page(page) -> None:
    expect(page.locator("header.site-header")).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.locator("#announce[aria-live=polite]")).to_have_count(1)
    expect(page.locator("dialog#keys-help")).to_have_count(1)
    expect(page.locator("body > header.site-header + main #board")).to_have_count(1)


def assert_the_board_of(page, game: Game) -> None:
    expect(page).to_have_url(f"{page.url.split('/games/')[0]}/games/{game.id}/")
    expect(page.locator("#board")).to_have_attribute("data-move-url", f"/games/{game.id}/move/")
    expect(page.locator("#moves")).to_have_text("0")


@pytest.mark.parametrize("action", ASK_AND_CONFIRM)
def test_the_new_game_comes_in_the_whole_page(page, live_server, action):
    username = action.replace(" ", "")
    sign_up(page, live_server.url, username)
    page.goto(f"{live_server.url}/play/klondike/")
    first = active_game(username)
    ask, confirm = ASK_AND_CONFIRM[action]
    page.wait_for_function(IDLE)
    page.click(ask)
    page.click(confirm)
    expect(page.locator(confirm)).to_have_count(0)
    page.wait_for_function(IDLE)
    second = active_game(username)
    assert second.id != first.id
    if action == "restart":
        assert second.restart_of_id == first.id
        expect(page.locator(".hud-title")).to_contain_text("restarted deal")
    assert_the_board_of(page, second)
    assert_the_whole_page(page)
    # Said as a new game, not as 52 cards that moved.
    expect(page.locator("#announce")).to_have_text(
        "New game: Klondike restarted deal." if action == "restart" else "New game: Klondike."
    )
    # The keys still work: `?` opens their dialog.
    page.locator("#board a.card").first.focus()
    page.keyboard.press("?")
    expect(page.locator("#keys-help")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#keys-help")).to_be_hidden()
    # The new game's board is a page of its own: leaving it and coming back shows it
    # whole again, never the board alone.
    page.get_by_role("link", name="History").click()
    expect(page.locator("#board")).to_have_count(0)
    page.go_back()
    assert_the_board_of(page, second)
    assert_the_whole_page(page)


@pytest.fixture
def page_without_javascript(live_server, monkeypatch):
    """A phone-sized page in a fresh browser that runs no script: every action is a
    plain form post."""
    from playwright.sync_api import sync_playwright

    require_chromium()
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    watch = CspWatch()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(
            viewport={"width": 412, "height": 915}, java_script_enabled=False
        )
        context.on("response", watch.record_response)
        page = context.new_page()
        page.set_default_timeout(10_000)
        try:
            yield page
            watch.check_protected()
        finally:
            context.close()
            browser.close()


@pytest.mark.parametrize("action", ASK_AND_CONFIRM)
def test_without_javascript_the_new_game_comes_as_a_page(
    page_without_javascript, live_server, action
):
    page = page_without_javascript
    username = "plain" + action.replace(" ", "")
    user = get_user_model().objects.create_user(username, password="a-long-secret-phrase-42")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", "a-long-secret-phrase-42")
    page.locator("form button[type=submit]").last.click()
    page.goto(f"{live_server.url}/play/klondike/")
    first = active_game(username)
    ask, confirm = ASK_AND_CONFIRM[action]
    page.click(ask)
    expect(page.locator(confirm)).to_be_visible()
    assert_the_whole_page(page)
    page.click(confirm)
    second = active_game(username)
    assert second.id != first.id
    assert_the_board_of(page, second)
    assert_the_whole_page(page)
