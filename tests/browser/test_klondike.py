"""What a person does: sign up, play Klondike by clicking, undo, finish, resume."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.engine import format_move, get_variant
from games.models import Game
from tests.browser.helpers import sign_up, target_of
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KLONDIKE = get_variant("klondike")


def first_tableau_transfer(game: Game):
    game.refresh_from_db()
    state = KLONDIKE.load(game.state)
    transfers = [
        m for m in KLONDIKE.legal_moves(state) if m.kind == "transfer" and m.src.startswith("t")
    ]
    return next((m for m in transfers if m.dst.startswith("t")), transfers[0])


def test_sign_up_play_by_clicking_undo_finish_and_resume(page, live_server):
    sign_up(page, live_server.url, "clicker")
    player = get_user_model().objects.get(username="clicker")
    case = load_fixture("klondike_win.json")
    game = start_with_deck(player, case["deck"])

    page.goto(f"{live_server.url}/play/klondike/")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#moves")).to_have_text("0")

    page.click("#stock")
    expect(page.locator("#moves")).to_have_text("1")
    expect(page.locator(".waste .card.up")).not_to_have_count(0)

    move = first_tableau_transfer(game)
    source = page.locator(f'a.card[data-tap-source="{move.src}"][data-tap-count="{move.count}"]')
    source.click()
    expect(page.locator("a.card.selected")).to_have_count(1)
    page.locator(target_of(move.dst)).click()
    expect(page.locator("#moves")).to_have_text("2")
    game.refresh_from_db()
    assert game.move_log[-1].startswith(f"{move.src}-{move.dst}")

    page.keyboard.press("u")
    expect(page.locator("#moves")).to_have_text("1")
    game.refresh_from_db()
    assert game.move_log == ["draw"]

    # Close the tab and come back: the same game, cards and moves.
    page.goto(f"{live_server.url}/")
    page.goto(f"{live_server.url}/play/klondike/")
    expect(page.locator("#moves")).to_have_text("1")
    assert page.url.endswith(f"/games/{game.id}/")

    page.click("#finish")
    expect(page.get_by_text("Finish this game?")).to_be_visible()
    page.click("#confirm-finish")
    expect(page.locator("#summary")).to_contain_text("Finished")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    expect(page.locator("#undo")).to_have_count(0)

    page.goto(f"{live_server.url}/games/")
    expect(page.locator("table.history tbody tr")).to_have_count(1)


def test_double_click_taps_a_card_to_where_it_goes(page, live_server):
    sign_up(page, live_server.url, "tapper")
    player = get_user_model().objects.get(username="tapper")
    case = load_fixture("klondike_win.json")
    game = start_with_deck(player, case["deck"])
    state = KLONDIKE.load(game.state)
    place = next(p for p in ("t1", "t2", "t3", "t4", "t5", "t6", "t7") if KLONDIKE.tap(state, p, 1))

    page.goto(f"{live_server.url}/games/{game.id}/")
    page.locator(f'a.card[data-tap-source="{place}"][data-tap-count="1"]').dblclick()
    expect(page.locator("#moves")).to_have_text("1")
    game.refresh_from_db()
    assert game.move_log == [format_move(KLONDIKE.tap(state, place, 1))]
