"""A refused move on the board (issue 30, item 20): its reason is shown without covering
the HUD and said in the live region, it goes when the player acts again (a legal
move, a drop on the felt, another refusal), and the browser logs no error for it."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_board_moves import (
    centre,
    klondike_game,
    open_board,
    pile_to_pile,
    source_of,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REFUSAL = "#board #refusal"


def console_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    return errors


def drag(page, start, end) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def refused_drop(page, move, refuser) -> str:
    """Drop the move's card on a pile that does not take it; the reason shown."""
    drag(page, centre(page, source_of(move)), centre(page, f'[data-pile="{refuser}"]', low=True))
    expect(page.locator(REFUSAL)).to_be_visible()
    expect(page.locator(".card.dragging")).to_have_count(0)
    return page.locator(REFUSAL).inner_text()


def overlaps(one, other) -> bool:
    return not (
        one["x"] + one["width"] <= other["x"]
        or other["x"] + other["width"] <= one["x"]
        or one["y"] + one["height"] <= other["y"]
        or other["y"] + other["height"] <= one["y"]
    )


def test_a_refusal_logs_no_error_in_the_console(page, live_server):
    _, game = klondike_game(page, live_server, "refusedquietly")
    move, refuser = pile_to_pile(game)
    open_board(page, live_server, game)
    errors = console_errors(page)
    refused_drop(page, move, refuser)
    page.wait_for_timeout(100)
    assert errors == []


def test_a_refusal_shows_beside_the_hud_and_is_said(page, live_server):
    _, game = klondike_game(page, live_server, "refused")
    move, refuser = pile_to_pile(game)
    open_board(page, live_server, game)
    reason = refused_drop(page, move, refuser)
    assert reason
    refusal = page.locator(REFUSAL)
    expect(refusal).to_be_in_viewport()
    shown = refusal.bounding_box()
    for part in ("#board .hud-title", "#board .hud-figures", "#board .hud-figures dd"):
        for box in (element.bounding_box() for element in page.locator(part).all()):
            assert not overlaps(shown, box), f"the refusal covers {part}"
    expect(page.locator("#announce")).to_have_text(reason)
    expect(page.locator("#moves")).to_have_text("0")


def test_a_legal_move_after_a_refusal_takes_the_reason_away(page, live_server):
    _, game = klondike_game(page, live_server, "refusedthenplayed")
    move, refuser = pile_to_pile(game)
    open_board(page, live_server, game)
    refused_drop(page, move, refuser)
    page.locator(source_of(move)).click(position={"x": 8, "y": 6})
    page.locator(f'.lit[data-pile="{move.dst}"]').click()
    expect(page.locator("#moves")).to_have_text("1")
    expect(page.locator(REFUSAL)).to_have_count(0)


def test_a_drop_on_the_felt_after_a_refusal_leaves_no_old_reason(page, live_server):
    _, game = klondike_game(page, live_server, "refusedthenfelt")
    move, refuser = pile_to_pile(game)
    open_board(page, live_server, game)
    refused_drop(page, move, refuser)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    # Onto the felt between the top row and the piles: no place, so nothing is asked.
    board = page.locator("#board").bounding_box()
    tableau = page.locator("#board .tableau").bounding_box()
    drag(page, centre(page, source_of(move)), (board["x"] + 3, tableau["y"] - 4))
    expect(page.locator(".card.dragging")).to_have_count(0)
    expect(page.locator(REFUSAL)).to_have_count(0)
    assert requests == []


def test_another_refusal_replaces_the_reason(page, live_server):
    _, game = klondike_game(page, live_server, "refusedtwice")
    move, refuser = pile_to_pile(game)
    open_board(page, live_server, game)
    first = refused_drop(page, move, refuser)
    # A move from the waste, empty at the deal, is refused for another reason.
    page.evaluate(
        """() => htmx.ajax("POST", document.querySelector("#board").dataset.moveUrl, {
            target: "#board", swap: "outerHTML",
            values: {move: "w-t1", revision: document.querySelector("#board").dataset.revision}})"""
    )
    expect(page.locator(REFUSAL)).not_to_have_text(first)
    expect(page.locator(REFUSAL)).to_have_count(1)
    expect(page.locator("#announce")).to_have_text(page.locator(REFUSAL).inner_text())
