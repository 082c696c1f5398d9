"""Playing by keyboard and by screen reader: arrows and Enter, the focus kept after a
move, the keys overlay, labelled places and targets, and what each move did said
aloud (the aria-live region)."""

import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.engine import card_name, get_variant
from games.models import Game
from tests.browser.helpers import sign_up
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KLONDIKE = get_variant("klondike")
ACTIVE_CARD = "(document.activeElement.querySelector('[data-card]') || {dataset: {}}).dataset.card"
ACTIVE_PLACE = (
    "(document.activeElement.closest('[data-pile], [data-spike], .stock, .wild-cell') || {})"
)


def wait_until(page, expression, timeout=5.0):
    """Poll the page (wait_for_function would need eval, which the CSP refuses)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true: {expression}"
        time.sleep(0.01)


def settle(page):
    """Let the cards land (and htmx take over the new board's forms)."""
    wait_until(page, "document.getAnimations().every((a) => a.playState === 'finished')")
    page.wait_for_timeout(50)


def player_with(page, live_server, username, fixture, variant="klondike"):
    sign_up(page, live_server.url, username)
    player = get_user_model().objects.get(username=username)
    case = load_fixture(fixture)
    game = start_with_deck(player, case["deck"], variant=variant, options=case.get("options"))
    page.goto(f"{live_server.url}/games/{game.id}/")
    settle(page)
    return game, case


def reveal_move(game):
    """A pile-to-pile move that leaves a face-down card to turn up."""
    state = KLONDIKE.load(game.state)
    return next(
        m
        for m in KLONDIKE.legal_moves(state)
        if m.kind == "transfer"
        and m.src.startswith("t")
        and m.dst.startswith("t")
        and state.tableau[int(m.src[1:]) - 1].down
    )


def walk_to(page, contains: str, key: str, limit: int = 30) -> None:
    """Press `key` until the focused element (or its place) holds `contains`."""
    for _ in range(limit):
        if page.evaluate(f"!!{ACTIVE_PLACE}.matches && {ACTIVE_PLACE}.matches({contains!r})"):
            return
        page.keyboard.press(key)
    raise AssertionError(f"the arrows never reached {contains}")


def test_a_whole_spike_game_is_won_by_keyboard_alone_and_the_focus_stays(page, live_server):
    game, case = player_with(page, live_server, "keyclimber", "spike_win.json", "spike")
    page.keyboard.press("ArrowRight")
    for number, move in enumerate(case["moves"], start=1):
        if move == "draw":
            page.keyboard.press("d")
        elif move == "wild":
            walk_to(page, ".wild-cell", "ArrowRight")
            page.keyboard.press("Enter")
        else:
            card = f'[data-card="{move}"]'
            for _ in range(40):
                if page.evaluate(
                    f"{ACTIVE_PLACE}.querySelector && !!{ACTIVE_PLACE}.querySelector('{card}')"
                ):
                    break
                page.keyboard.press("ArrowRight")
            for key in ("ArrowDown",) * 8 + ("ArrowUp",) * 16:
                if page.evaluate(f"{ACTIVE_CARD} === {move!r}"):
                    break
                page.keyboard.press(key)
            assert page.evaluate(f"{ACTIVE_CARD} === {move!r}"), f"no focus on {move}"
            page.keyboard.press("Enter")
        expect(page.locator("#moves")).to_have_text(str(number))
        # The player is still on the board, not thrown back to the top of the page.
        assert page.evaluate("document.getElementById('board').contains(document.activeElement)")
        if number < len(case["moves"]):
            settle(page)
    expect(page.locator("#summary")).to_contain_text("Won")
    # The summit: golden coins come down and a flag stands on every peak.
    expect(page.locator(".celebration .coin")).not_to_have_count(0)
    expect(page.locator("[data-spike] .peak-flag")).to_have_count(5)
    game.refresh_from_db()
    assert game.status == Game.Status.WON


def test_a_move_by_keys_keeps_the_focus_on_the_moved_card(page, live_server):
    game, _ = player_with(page, live_server, "keymover", "klondike_win.json")
    move = reveal_move(game)
    state = KLONDIKE.load(game.state)
    code = state.tableau[int(move.src[1:]) - 1].up[-move.count]
    page.focus(f'a.card[data-tap-source="{move.src}"][data-tap-count="{move.count}"]')
    page.keyboard.press("Enter")
    expect(page.locator(f'.lit[data-pile="{move.dst}"]')).to_have_count(1)
    walk_to(page, f'[data-pile="{move.dst}"]', "ArrowRight")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith(f"Move the {card_name(code)} onto the ")
    assert label.endswith(f", pile {move.dst[1:]}")
    page.keyboard.press("Enter")
    expect(page.locator("#moves")).to_have_text("1")
    assert page.evaluate(ACTIVE_CARD) == code
    assert page.evaluate(f"{ACTIVE_PLACE}.dataset.pile") == move.dst


def test_the_live_region_says_what_a_move_did(page, live_server):
    game, _ = player_with(page, live_server, "listener", "klondike_win.json")
    move = reveal_move(game)
    state = KLONDIKE.load(game.state)
    code = state.tableau[int(move.src[1:]) - 1].up[-move.count]
    page.locator(f'a.card[data-tap-source="{move.src}"][data-tap-count="{move.count}"]').click(
        position={"x": 8, "y": 6}
    )
    expect(page.locator("#announce")).to_contain_text(f"{card_name(code)} picked")
    page.locator(f'.lit[data-pile="{move.dst}"]').click()
    expect(page.locator("#announce")).to_contain_text(
        f"{card_name(code)} moved to pile {move.dst[1:]}"
    )
    game.refresh_from_db()
    revealed = KLONDIKE.load(game.state).tableau[int(move.src[1:]) - 1].up[-1]
    expect(page.locator("#announce")).to_contain_text(
        f"{card_name(revealed)} turned face up on pile {move.src[1:]}"
    )


def test_places_and_cards_are_named_with_where_they_are(page, live_server):
    game, _ = player_with(page, live_server, "reader", "klondike_win.json")
    move = reveal_move(game)
    expect(page.get_by_role("group", name="Pile 1: 0 face down, 1 face up")).to_have_count(1)
    expect(page.get_by_role("group", name="Foundations")).to_have_count(1)
    top = page.locator('[data-pile="t1"] a.card')
    assert top.get_attribute("aria-label").endswith(", pile 1, top card")
    # Without JavaScript the same words are on the target buttons of a picked card.
    page.goto(f"{live_server.url}/games/{game.id}/?sel={move.src}/{move.count}")
    state = KLONDIKE.load(game.state)
    code = state.tableau[int(move.src[1:]) - 1].up[-move.count]
    onto = state.tableau[int(move.dst[1:]) - 1].up[-1]
    expect(
        page.get_by_role(
            "button",
            name=f"Move the {card_name(code)} onto the {card_name(onto)}, pile {move.dst[1:]}",
        )
    ).to_have_count(1)


def test_question_mark_shows_the_keys_and_escape_closes_them(page, live_server):
    player_with(page, live_server, "helpseeker", "klondike_win.json")
    dialog = page.locator("#keys-help")
    expect(dialog).to_be_hidden()
    page.keyboard.press("?")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Enter")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.goto(f"{live_server.url}/rules/klondike/")
    expect(page.locator("#keys")).to_have_text("Keys")
