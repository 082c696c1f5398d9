"""Moving cards with JavaScript: picking on the client (one request a move), drag and
drop with a mouse and a finger, and the cards' animations, present or reduced."""

import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.models import Profile
from games.engine import get_variant
from games.models import Game
from tests.browser.helpers import sign_up
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KLONDIKE = get_variant("klondike")


def klondike_game(page, live_server, username):
    sign_up(page, live_server.url, username)
    player = get_user_model().objects.get(username=username)
    game = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    return player, game


def pile_to_pile(game):
    """A legal move from one tableau pile to another, and a pile that does not take
    that card."""
    state = KLONDIKE.load(game.state)
    legal = [m for m in KLONDIKE.legal_moves(state) if m.kind == "transfer"]
    move = next(m for m in legal if m.src.startswith("t") and m.dst.startswith("t"))
    takers = {m.dst for m in legal if m.src == move.src and m.count == move.count}
    refuser = next(f"t{n}" for n in range(1, 8) if f"t{n}" not in takers | {move.src})
    return move, refuser


def source_of(move):
    return f'a.card[data-tap-source="{move.src}"][data-tap-count="{move.count}"]'


def centre(page, selector, low=False):
    box = page.locator(selector).last.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + (box["height"] - 12 if low else 10)


def board_requests(page):
    seen = []
    page.on(
        "request",
        lambda request: (
            seen.append(f"{request.method} {request.url}")
            if request.resource_type in ("xhr", "fetch", "document")
            else None
        ),
    )
    return seen


def wait_until(page, expression, timeout=5.0):
    """Poll the page: Playwright's wait_for_function compiles its predicate with eval,
    which the site's CSP refuses."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true: {expression}"
        time.sleep(0.01)


def open_board(page, live_server, game):
    """The game's page, once the deal has landed (a card is measured where it rests)."""
    page.goto(f"{live_server.url}/games/{game.id}/")
    wait_until(page, "document.getAnimations().every((a) => a.playState === 'finished')")


def test_a_two_click_move_is_one_request(page, live_server):
    _, game = klondike_game(page, live_server, "twoclick")
    move, _ = pile_to_pile(game)
    open_board(page, live_server, game)
    requests = board_requests(page)
    page.locator(source_of(move)).click(position={"x": 8, "y": 6})
    expect(page.locator(f'.lit[data-pile="{move.dst}"]')).to_have_count(1)
    assert requests == []  # the pick itself asks the server nothing
    page.locator(f'.lit[data-pile="{move.dst}"]').click()
    expect(page.locator("#moves")).to_have_text("1")
    assert requests == [f"POST {live_server.url}/games/{game.id}/move/"]
    game.refresh_from_db()
    assert game.move_log == [
        f"{move.src}-{move.dst}" + ("" if move.count == 1 else f"/{move.count}")
    ]


def test_a_card_is_dragged_onto_its_pile_with_the_mouse(page, live_server):
    _, game = klondike_game(page, live_server, "dragger")
    move, _ = pile_to_pile(game)
    open_board(page, live_server, game)
    requests = board_requests(page)
    start = centre(page, source_of(move))
    end = centre(page, f'[data-pile="{move.dst}"]', low=True)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 20, start[1] + 20, steps=3)
    expect(page.locator(".card.dragging")).not_to_have_count(0)
    expect(page.locator(f'.lit[data-pile="{move.dst}"]')).to_have_count(1)
    page.mouse.move(*end, steps=8)
    page.mouse.up()
    expect(page.locator("#moves")).to_have_text("1")
    assert requests == [f"POST {live_server.url}/games/{game.id}/move/"]
    game.refresh_from_db()
    assert game.move_log[0].startswith(f"{move.src}-{move.dst}")


def touch(page, selector, kind, x, y):
    page.dispatch_event(
        selector,
        kind,
        {
            "pointerType": "touch",
            "pointerId": 7,
            "isPrimary": True,
            "clientX": x,
            "clientY": y,
            "button": 0,
        },
    )


def test_a_card_is_dragged_with_a_finger_and_a_short_touch_stays_a_tap(page, live_server):
    _, game = klondike_game(page, live_server, "toucher")
    move, _ = pile_to_pile(game)
    open_board(page, live_server, game)
    source = source_of(move)
    assert page.locator(source).evaluate("el => getComputedStyle(el).touchAction") == "none"
    start = centre(page, source)
    end = centre(page, f'[data-pile="{move.dst}"]', low=True)
    # A touch that moves less than the threshold is no drag.
    touch(page, source, "pointerdown", *start)
    touch(page, source, "pointermove", start[0] + 2, start[1] + 1)
    expect(page.locator(".card.dragging")).to_have_count(0)
    touch(page, source, "pointerup", start[0] + 2, start[1] + 1)
    touch(page, source, "pointerdown", *start)
    for step in range(1, 6):
        touch(
            page,
            source,
            "pointermove",
            start[0] + (end[0] - start[0]) * step / 5,
            start[1] + (end[1] - start[1]) * step / 5,
        )
    expect(page.locator(".card.dragging")).not_to_have_count(0)
    touch(page, source, "pointerup", *end)
    expect(page.locator("#moves")).to_have_text("1")
    game.refresh_from_db()
    assert game.move_log[0].startswith(f"{move.src}-{move.dst}")


def test_a_drop_where_the_card_cannot_go_glides_back_and_says_why(page, live_server):
    _, game = klondike_game(page, live_server, "misdropper")
    move, refuser = pile_to_pile(game)
    open_board(page, live_server, game)
    start = centre(page, source_of(move))
    end = centre(page, f'[data-pile="{refuser}"]', low=True)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    expect(page.locator(f'.lit[data-pile="{refuser}"]')).to_have_count(0)
    page.mouse.up()
    expect(page.locator("#board #refusal")).to_be_visible()
    expect(page.locator("#board #refusal")).not_to_be_empty()
    expect(page.locator("#moves")).to_have_text("0")
    expect(page.locator(f'[data-pile="{move.src}"] {source_of(move)}')).to_have_count(1)
    expect(page.locator(".card.dragging")).to_have_count(0)
    game.refresh_from_db()
    assert game.move_log == []


def animations_after_a_move(page, live_server, game, move):
    open_board(page, live_server, game)
    page.evaluate(
        "document.addEventListener('htmx:afterSwap', () =>"
        " { window.animationsAfterSwap = document.getAnimations()"
        ".filter((a) => a.playState !== 'finished').length; })"
    )
    page.locator(source_of(move)).click(position={"x": 8, "y": 6})
    page.locator(f'.lit[data-pile="{move.dst}"]').click()
    expect(page.locator("#moves")).to_have_text("1")
    return page.evaluate("window.animationsAfterSwap")


def test_a_moved_card_travels_to_its_new_place(page, live_server):
    _, game = klondike_game(page, live_server, "mover")
    move, _ = pile_to_pile(game)
    assert animations_after_a_move(page, live_server, game, move) >= 1


def test_no_animation_when_the_system_asks_for_reduced_motion(page, live_server):
    _, game = klondike_game(page, live_server, "stillsystem")
    move, _ = pile_to_pile(game)
    page.emulate_media(reduced_motion="reduce")
    assert animations_after_a_move(page, live_server, game, move) == 0


def test_no_animation_when_the_player_asks_for_reduced_motion(page, live_server):
    player, game = klondike_game(page, live_server, "stillplayer")
    move, _ = pile_to_pile(game)
    Profile.objects.update_or_create(user=player, defaults={"reduced_motion": True})
    assert animations_after_a_move(page, live_server, game, move) == 0


def test_single_tap_moves_a_card_with_one_place_to_go(page, live_server):
    player, game = klondike_game(page, live_server, "singletap")
    state = KLONDIKE.load(game.state)
    legal = [m for m in KLONDIKE.legal_moves(state) if m.kind == "transfer"]
    units = {(m.src, m.count) for m in legal if m.src.startswith("t")}
    src, count = next(u for u in units if sum((m.src, m.count) == u for m in legal) == 1)
    Profile.objects.update_or_create(user=player, defaults={"single_tap_moves": True})
    open_board(page, live_server, game)
    page.locator(f'a.card[data-tap-source="{src}"][data-tap-count="{count}"]').click(
        position={"x": 8, "y": 6}
    )
    expect(page.locator("#moves")).to_have_text("1")
    game.refresh_from_db()
    assert game.move_log[0].startswith(f"{src}-")


def test_a_second_click_on_the_picked_card_taps_it(page, live_server):
    _, game = klondike_game(page, live_server, "twicer")
    state = KLONDIKE.load(game.state)
    place = next(p for p in ("t1", "t2", "t3", "t4", "t5", "t6", "t7") if KLONDIKE.tap(state, p, 1))
    open_board(page, live_server, game)
    requests = board_requests(page)
    card = page.locator(f'a.card[data-tap-source="{place}"][data-tap-count="1"]')
    card.click()
    card.click()
    expect(page.locator("#moves")).to_have_text("1")
    assert requests == [f"POST {live_server.url}/games/{game.id}/tap/"]
    assert Game.objects.get(id=game.id).move_count == 1


def test_a_spike_card_is_dragged_onto_the_waste(page, live_server):
    sign_up(page, live_server.url, "spikedragger")
    player = get_user_model().objects.get(username="spikedragger")
    case = load_fixture("spike_win.json")
    game = start_with_deck(player, case["deck"], variant="spike", options=case["options"])
    play = case["moves"][0]
    open_board(page, live_server, game)
    requests = board_requests(page)
    start = centre(page, f'button.card:has([data-card="{play}"])')
    end = centre(page, '[data-pile="w"]')
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()
    expect(page.locator("#moves")).to_have_text("1")
    assert requests == [f"POST {live_server.url}/games/{game.id}/move/"]
    game.refresh_from_db()
    assert game.move_log == [play]
