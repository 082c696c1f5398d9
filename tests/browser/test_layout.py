"""The board's looks in the browser: every page fits a 360 px phone, the board's
buttons and cards are tap-sized there, and a theme chosen on one device shows on
another after logging in."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from accounts.services import profile_update
from games import services
from games.engine import parse_move
from games.models import Game
from leaderboards.periods import today_utc
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, CspWatch, require_chromium
from tests.browser.helpers import sign_up
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
VARIANTS = ["klondike", "kingsley", "spiderette", "steps", "spike"]
PASSWORD = "a-long-secret-phrase-42"


def deal_half_played(player, variant: str) -> tuple[Game, str]:
    """A game of each variant halfway through its won fixture: long face-up runs,
    a waste fan (Steps' fixture draws three), foundations under way. Also the
    `?sel=` of the next card move the fixture makes from there."""
    case = load_fixture(f"{variant}_win.json")
    game = start_with_deck(player, case["deck"], variant=variant, options=case["options"])
    half = len(case["moves"]) // 2
    for revision, move in enumerate(case["moves"][:half]):
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)
    upcoming = (parse_move(move) for move in case["moves"][half:])
    transfer = next((move for move in upcoming if move.kind == "transfer"), None)
    selection = f"{transfer.src}/{transfer.count}" if transfer else ""
    return game, selection


@contextmanager
def browser_contexts(count: int, **options: Any) -> Iterator[list[tuple[Any, CspWatch]]]:
    """`count` separate browser contexts (two devices: no shared cookies), each at
    phone size (and Playwright's context `options`) and watched for CSP violations."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        pages = []
        try:
            for _ in range(count):
                context = browser.new_context(viewport=PHONE, **options)
                watch = CspWatch()
                watch.install(context)
                page = context.new_page()
                page.set_default_timeout(10_000)
                pages.append((page, watch))
            yield pages
            for page, watch in pages:
                watch.check(page)
        finally:
            browser.close()


@pytest.fixture
def phone(live_server, monkeypatch):
    require_chromium()
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with browser_contexts(1) as [(page, _watch)]:
        yield page


def overflow(page: Page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def test_no_page_scrolls_sideways_at_360_px(phone, live_server):
    visitor_pages = ["/", "/accounts/login/", "/accounts/signup/", "/play/klondike/"]
    visitor_pages += [f"/rules/{variant}/" for variant in VARIANTS]
    too_wide = {}
    for path in visitor_pages:
        phone.goto(live_server.url + path)
        if (width := overflow(phone)) > PHONE["width"]:
            too_wide[path] = width

    sign_up(phone, live_server.url, "narrow")
    player = get_user_model().objects.get(username="narrow")
    for variant in VARIANTS:
        deal_half_played(player, variant)
    player_pages = ["/", "/daily/", "/games/", "/settings/", "/players/narrow/"]
    player_pages += [f"/play/{variant}/" for variant in VARIANTS]
    player_pages += [f"/leaderboards/{variant}/" for variant in VARIANTS]
    player_pages += [f"/daily/{today_utc().isoformat()}/{variant}/" for variant in VARIANTS]
    for path in player_pages:
        response = phone.goto(live_server.url + path)
        assert response is not None, path
        assert response.ok, path
        if (width := overflow(phone)) > PHONE["width"]:
            too_wide[path] = width
    assert too_wide == {}


# Measured in the page: each interactive element's box, and for a card that the
# next card of its pile covers, the strip that stays visible (what a finger hits).
TAP_SIZES = """
() => [...document.querySelectorAll(
  '#board a[href], #board button, #board input:not([type=hidden]), #board select'
)].filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
 .map((el) => {
  const box = el.getBoundingClientRect();
  let height = box.height;
  const next = el.nextElementSibling;
  if (next && next.classList.contains('card') && el.parentElement.classList.contains('pile')) {
    height = next.getBoundingClientRect().top - box.top;
  }
  const fan = el.parentElement.classList.contains('fan') && next && next.classList.contains('card');
  const width = fan ? next.getBoundingClientRect().left - box.left : box.width;
  const name = el.id || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30);
  return {name, width: Math.round(width * 10) / 10, height: Math.round(height * 10) / 10};
 })
"""


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("state", ["playing", "picked", "finished"])
def test_every_tap_target_on_a_board_is_44_px_at_360_px(phone, live_server, variant, state):
    """On a board in play, with a card picked (its targets and the selection bar,
    as the page without JavaScript shows them) and finished (the summary's links)."""
    sign_up(phone, live_server.url, f"thumbs-{variant}")
    player = get_user_model().objects.get(username=f"thumbs-{variant}")
    game, selection = deal_half_played(player, variant)
    query = ""
    if state == "picked":
        # Spike's cards are played by a tap; picking its waste card lights them up.
        query = f"?sel={selection or 'w'}"
    if state == "finished":
        game.refresh_from_db()
        services.game_finish(game_id=game.id, player=player, revision=game.revision)
    phone.goto(f"{live_server.url}/games/{game.id}/{query}")
    expect(phone.locator("#board")).to_be_visible()
    if state == "picked":
        picked = "a.card.selected" if variant == "spike" else ".target-button"
        expect(phone.locator(f"#board {picked}").first).to_be_visible()
    sizes = phone.evaluate(TAP_SIZES)
    # The measure found the board's controls (not an empty list that passes).
    assert {"restart", "new-deal", "Rules"} <= {size["name"] for size in sizes}
    if state != "finished":
        assert len(sizes) > 8
    small = [size for size in sizes if size["width"] < 44 or size["height"] < 44]
    assert small == []


def test_a_covered_waste_card_shows_its_suit_and_whole_rank(phone, live_server):
    sign_up(phone, live_server.url, "fanned")
    player = get_user_model().objects.get(username="fanned")
    case = load_fixture("steps_win.json")
    game = start_with_deck(player, case["deck"], variant="steps", options=case["options"])
    for revision in range(3):
        services.game_move_play(game_id=game.id, player=player, move="draw", revision=revision)
    phone.goto(f"{live_server.url}/play/steps/")
    covered = phone.locator(".waste .card.covered")
    expect(covered).to_have_count(2)
    for index in range(2):
        card = covered.nth(index)
        next_left = card.evaluate("(el) => el.nextElementSibling.getBoundingClientRect().left")
        for part in (".rank", ".pip"):
            box = card.locator(part).bounding_box()
            assert box is not None
            assert box["width"] > 0
            # Whole, not cut by the card lying on it.
            assert box["x"] + box["width"] <= next_left, part


def test_a_theme_chosen_on_one_device_shows_on_another(live_server, monkeypatch):
    require_chromium()
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with browser_contexts(2) as [(phone_page, _), (laptop, _)]:
        sign_up(phone_page, live_server.url, "traveller")
        phone_page.goto(f"{live_server.url}/settings/")
        phone_page.select_option("select[name=felt]", "navy")
        phone_page.check("input[name=card_back][value=deco]")
        phone_page.check("input[name=card_size][value=large]")
        phone_page.check("input[name=colour_scheme][value=dark]")
        phone_page.check("input[name=four_colour_deck]")
        phone_page.check("input[name=sound]")
        phone_page.get_by_role("button", name="Save settings").click()
        expect(phone_page.get_by_text("Your settings are saved.")).to_be_visible()

        deal_half_played(get_user_model().objects.get(username="traveller"), "klondike")
        laptop.set_viewport_size({"width": 1400, "height": 900})
        laptop.goto(f"{live_server.url}/accounts/login/")
        laptop.fill("input[name=login]", "traveller")
        laptop.fill("input[name=password]", PASSWORD)
        laptop.locator("form button[type=submit]").last.click()
        expect(laptop.get_by_role("button", name="Log out")).to_be_visible()
        laptop.goto(f"{live_server.url}/play/klondike/")
        body = laptop.locator("body")
        expect(body).to_have_attribute("data-felt", "navy")
        expect(body).to_have_attribute("data-card-back", "deco")
        expect(body).to_have_attribute("data-card-size", "large")
        expect(body).to_have_attribute("data-four-colour", "on")
        expect(body).to_have_attribute("data-sound", "on")
        expect(laptop.locator("html")).to_have_attribute("data-colour-scheme", "dark")
        looks = laptop.evaluate(
            """() => ({
              board: getComputedStyle(document.querySelector('#board')).backgroundImage,
              back: getComputedStyle(document.querySelector('.card.back')).backgroundImage,
              page: getComputedStyle(document.body).backgroundColor,
              card: document.querySelector('.tableau .card').getBoundingClientRect().width,
            })"""
        )
        assert "rgb(31, 53, 102)" in looks["board"]  # royal navy
        assert "back-deco" in looks["back"]
        assert looks["page"] == "rgb(18, 23, 21)"  # the dark page
        # Large cards on a wide screen: the board uses the width it has.
        assert looks["card"] > 120


def test_the_board_grows_with_a_desktop_screen(phone, live_server):
    sign_up(phone, live_server.url, "wide")
    deal_half_played(get_user_model().objects.get(username="wide"), "klondike")
    phone.set_viewport_size({"width": 1600, "height": 1000})
    phone.goto(f"{live_server.url}/play/klondike/")
    widths = phone.evaluate(
        """() => ({
          board: document.querySelector('#board').getBoundingClientRect().width,
          tableau: document.querySelector('.tableau').getBoundingClientRect(),
          card: document.querySelector('.tableau .card').getBoundingClientRect().width,
        })"""
    )
    assert widths["board"] > 1300
    assert widths["card"] >= 100  # medium cards at their widest
    # The tableau sits in the middle of the felt, not left of empty felt.
    left = widths["tableau"]["left"]
    right = 1600 - widths["tableau"]["right"]
    assert abs(left - right) < 30


def page_background(page: Page) -> str:
    return page.evaluate("() => getComputedStyle(document.body).backgroundColor")


def test_dark_pages_follow_the_device_unless_the_setting_says_otherwise(live_server, monkeypatch):
    require_chromium()
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    light, dark = "rgb(238, 241, 236)", "rgb(18, 23, 21)"
    with browser_contexts(1, color_scheme="dark") as [(page, _)]:
        page.goto(f"{live_server.url}/")
        assert page_background(page) == dark  # a visitor: the device's scheme
        sign_up(page, live_server.url, "night-owl")
        player = get_user_model().objects.get(username="night-owl")
        profile_update(
            user=player,
            public=True,
            highlight_moves=False,
            reduced_motion=False,
            colour_scheme="light",
        )
        page.goto(f"{live_server.url}/games/")
        assert page_background(page) == light
    with browser_contexts(1, color_scheme="light") as [(page, _)]:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=login]", "night-owl")
        page.fill("input[name=password]", PASSWORD)
        page.locator("form button[type=submit]").last.click()
        expect(page.get_by_role("button", name="Log out")).to_be_visible()
        profile_update(
            user=player,
            public=True,
            highlight_moves=False,
            reduced_motion=False,
            colour_scheme="dark",
        )
        page.goto(f"{live_server.url}/games/")
        assert page_background(page) == dark
