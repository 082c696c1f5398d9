"""Two players find each other in the lobby and play Duel turns on the shared board in
their own browsers, on a real ASGI server: the seat to move taps a card and then a lit
place (or drags it there), taps the stock, or passes; the other seat's board, read-only,
shows each move arrive through the match's socket without a reload. And axe-core finds
no serious violation on the board, a card picked or not."""

import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games.engine import format_move, get_variant
from games.models import Game
from matches import services
from matches.models import Match
from tests.browser.asgi_server import asgi_live_server  # noqa: F401  # a fixture
from tests.browser.axe import axe_violations, describe, require_axe
from tests.browser.helpers import IDLE, sign_up
from tests.browser.test_matches import SOCKET_SECONDS, find_each_other, players  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DUEL = get_variant("steps_duel")


def shared_board() -> Game:
    return Game.objects.get(track=Game.Track.MATCH, variant="steps_duel")


def on_the_duel_with_the_socket_open(page: Page) -> None:
    expect(page.locator("#duel-board")).to_be_visible(timeout=SOCKET_SECONDS)
    expect(page.locator("#match-live")).to_be_visible()
    page.wait_for_function("() => window.arenaSocketOpen === true", timeout=SOCKET_SECONDS)


def join_on_a_server_thread(*, player: Any, match: Match) -> None:
    """Take the match's second seat, which starts it. The start is pushed to the match's
    sockets through async_to_sync, which cannot run on the thread of Playwright's event
    loop: as a server would, on a thread of its own."""
    with ThreadPoolExecutor(max_workers=1) as server:
        server.submit(services.match_join, player=player, match_id=match.id).result()


def move_map(page: Page) -> dict[str, dict[str, str]]:
    """The board's map of the places each unit may go (the server's legal moves)."""
    return json.loads(page.locator("#duel-board").get_attribute("data-legal-moves") or "{}")


def unit_of(notation: str) -> str:
    """`t3-t5/2` moves the unit `t3/2`."""
    src, _, rest = notation.partition("-")
    return f"{src}/{rest.partition('/')[2] or '1'}"


def place_for(page: Page, notation: str) -> str:
    """The place the board lights for the move."""
    targets = move_map(page)[unit_of(notation)]
    return next(place for place, text in targets.items() if text == notation)


def card_of(unit: str) -> str:
    """The card link that picks the unit `t3/2` (the boards' parts mark it so)."""
    source, count = unit.split("/")
    return f'#duel-board a.card[data-tap-source="{source}"][data-tap-count="{count}"]'


def tap_move(page: Page, notation: str) -> None:
    """A card, then the lit place it goes to, as a person taps them."""
    page.wait_for_function(IDLE)
    unit = unit_of(notation)
    page.locator(card_of(unit)).click(position={"x": 8, "y": 6})
    expect(page.locator("#duel-board a.card.selected")).to_have_count(int(unit.split("/")[1]))
    page.locator(f'#duel-board .lit[data-pile="{place_for(page, notation)}"]').click()


# What the live panel does now and then: fetch the board again (the same one).
REFETCH = """() => htmx.ajax("GET", document.getElementById("duel-board").dataset.boardUrl,
    {target: "#duel-board", swap: "outerHTML", select: "#duel-board"})"""


def drag(page: Page, unit: str, place: str, *, refetched: bool = False) -> None:
    """The unit's card dragged by its top strip onto the place's lowest card; with
    `refetched`, the same board arrives again while the card is in the air."""
    page.wait_for_function(IDLE)
    card = page.locator(card_of(unit)).bounding_box()
    box = page.locator(f'#duel-board [data-pile="{place}"]').bounding_box()
    assert card
    assert box
    page.mouse.move(card["x"] + 8, card["y"] + 6)
    page.mouse.down()
    page.mouse.move(card["x"] + 20, card["y"] + 20, steps=3)
    if refetched:
        page.evaluate(REFETCH)
        page.wait_for_function(IDLE)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 10, steps=8)
    page.mouse.up()


def a_transfer(*, avoid_slots: bool) -> str:
    """A legal transfer on the shared board now (a pile or a pillar before a slot)."""
    state = DUEL.load(shared_board().state)
    transfers = [m for m in DUEL.legal_moves(state) if m.kind == "transfer"]
    preferred = [m for m in transfers if not str(m.dst).startswith("r")] if avoid_slots else []
    return format_move((preferred or transfers)[0])


def turn_passes(mover: Page, watcher: Page, mover_name: str, watcher_name: str) -> None:
    """The move has reached the database and both boards: the watcher's turn now."""
    expect(mover.locator("#duel-turn")).to_contain_text(f"Waiting for {watcher_name}.")
    expect(watcher.locator("#duel-turn")).to_contain_text("Your turn.", timeout=SOCKET_SECONDS)
    # Said as well as shown (a polite live region).
    expect(mover.locator("#duel-announce")).to_have_text(f"Waiting for {watcher_name}.")
    expect(watcher.locator("#duel-announce")).to_have_text("Your turn.")
    game = shared_board()
    points = DUEL.seat_scores(DUEL.load(game.state))
    for page in (mover, watcher):
        for seat, score in enumerate(points):
            expect(page.locator(f"#duel-seat-{seat} .duel-points")).to_have_text(str(score))
    revision = str(game.revision)
    for page in (mover, watcher):
        expect(page.locator("#duel-board")).to_have_attribute("data-revision", revision)
    # The waiting seat's board is read-only: nothing to pick, nothing to press.
    expect(mover.locator("#duel-board a.card[data-tap-source]")).to_have_count(0)
    expect(mover.locator("#duel-board form")).to_have_count(0)
    assert watcher.locator("#duel-board a.card[data-tap-source]").count() > 0


def test_two_players_play_duel_turns_by_tapping(players, asgi_live_server):  # noqa: F811
    maker, joiner = players
    base_url = asgi_live_server.url
    sign_up(maker, base_url, "maker")
    sign_up(joiner, base_url, "joiner")
    find_each_other(maker, joiner, base_url, mode="steps_duel")
    on_the_duel_with_the_socket_open(joiner)
    on_the_duel_with_the_socket_open(maker)  # the waiting page's look takes it there
    loaded = {page: page.evaluate("() => window.arenaLoadedOnce") for page in players}
    seats = {seat.number: seat.player.username for seat in Match.objects.get().seats.all()}
    pages = {"maker": maker, "joiner": joiner}
    first, second = pages[seats[0]], pages[seats[1]]
    played: list[str] = []

    # Seat 0 taps a card and a lit place.
    move = a_transfer(avoid_slots=True)
    tap_move(first, move)
    played.append(move)
    turn_passes(first, second, seats[0], seats[1])

    # Seat 1 picks a card, changes its mind (a second tap puts it back), taps the stock.
    unit = unit_of(a_transfer(avoid_slots=True))
    second.wait_for_function(IDLE)
    card = second.locator(card_of(unit))
    card.click(position={"x": 8, "y": 6})
    expect(second.locator("#duel-board .lit").first).to_be_visible()
    card.click(position={"x": 8, "y": 6})
    expect(second.locator("#duel-board .lit")).to_have_count(0)
    second.click("#duel-draw")
    played.append("draw")
    turn_passes(second, first, seats[1], seats[0])
    expect(first.locator("#duel-board .waste [data-card]")).to_have_count(1)

    # Seat 0 drags a card to its place, though the board is fetched again meanwhile.
    move = a_transfer(avoid_slots=False)
    drag(first, unit_of(move), place_for(first, move), refetched=True)
    played.append(move)
    turn_passes(first, second, seats[0], seats[1])

    # Seat 1 drops a card on a pile the board did not light: the server says why, and
    # nothing changes (the turn is still seat 1's).
    second.wait_for_function(IDLE)
    before = shared_board().revision
    unit, targets = next(iter(move_map(second).items()))
    home = unit.partition("/")[0]
    unlit = next(f"t{n}" for n in range(1, 8) if f"t{n}" not in targets and f"t{n}" != home)
    drag(second, unit, unlit)
    expect(second.locator("#duel-error")).to_be_visible()
    expect(second.locator("#duel-error")).not_to_be_empty()
    assert shared_board().revision == before
    expect(second.locator("#duel-turn")).to_contain_text("Your turn.")

    # Seat 1 passes.
    second.click("#duel-pass")
    played.append("pass")
    turn_passes(second, first, seats[1], seats[0])

    assert shared_board().move_log == played
    assert shared_board().revision == before + 1
    for page, mark in loaded.items():
        assert page.evaluate("() => window.arenaLoadedOnce") == mark, "the page was reloaded"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_duel_board_has_no_serious_accessibility_violation(page, live_server, scheme):
    """axe-core on the board of the seat to move: as it comes, with a card picked from
    the keyboard (its places lit), with a card picked without JavaScript (its places'
    forms), and on the waiting seat's read-only board once a lit place took the card
    from the keyboard too."""
    require_axe()
    page.emulate_media(color_scheme=scheme)
    sign_up(page, live_server.url, "auditor")
    auditor = get_user_model().objects.get(username="auditor")
    other = get_user_model().objects.create_user(username="other", password="x-long-secret-42")
    match = services.match_create(player=auditor, mode="steps_duel")
    join_on_a_server_thread(player=other, match=match)
    url = f"{live_server.url}/matches/{match.id}/duel/"
    found = {}
    page.goto(url)
    found["the board"] = axe_violations(page)
    unit, targets = next(iter(move_map(page).items()))
    page.wait_for_function(IDLE)
    page.locator(card_of(unit)).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#duel-board a.card.selected")).to_have_count(1)
    expect(page.locator("#duel-board .lit")).to_have_count(len(targets))
    found["a card picked"] = axe_violations(page)
    page.keyboard.press("Escape")
    expect(page.locator("#duel-board .lit")).to_have_count(0)
    # The no-JS page of a pick, htmx kept away (with it, duel.js fetches the board
    # alone again and lights the same pick).
    page.route("**/htmx*.js", lambda route: route.abort())
    page.goto(f"{url}?sel={unit}")
    expect(page.locator("#duel-board .target-button").first).to_be_attached()
    found["a card picked without JavaScript"] = axe_violations(page)
    page.unroute("**/htmx*.js")
    page.goto(f"{url}?sel={unit}")
    expect(page.locator("#duel-board .lit").first).to_be_visible()
    expect(page.locator("#duel-board .target-button")).to_have_count(0)  # the board came again
    place, move = next(iter(targets.items()))
    page.locator(f'#duel-board .lit[data-pile="{place}"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#duel-turn")).to_contain_text("Waiting for other.")
    assert shared_board().move_log == [move]
    found["the waiting seat's board"] = axe_violations(page)
    found = {where: violations for where, violations in found.items() if violations}
    assert found == {}, "axe-core violations:\n" + describe(found)


def seconds_shown(text: str | None) -> int:
    minutes, seconds = (text or "").strip().split(":")
    return int(minutes) * 60 + int(seconds)


def test_the_duel_is_drawn_as_every_board_with_its_turn_clock_ticking(page, live_server):
    """The shared board is a board like the others (the felt, the figures, the parts'
    cards), its pillars the foundations' slots with a suit's pip (no letters), and its
    turn clock one figure of its own that ticks down, as the match clock does."""
    sign_up(page, live_server.url, "mover")
    mover = get_user_model().objects.get(username="mover")
    other = get_user_model().objects.create_user(username="other", password="x-long-secret-42")
    match = services.match_create(player=mover, mode="steps_duel")
    join_on_a_server_thread(player=other, match=match)
    page.goto(f"{live_server.url}/matches/{match.id}/duel/")
    board = page.locator("#duel-board")
    expect(board).to_have_class(re.compile(r"(^| )board( |$)"))
    expect(board.locator(".hud .hud-title")).to_have_text("Steps: Head-to-Head Duel")
    turn_clock = board.locator(".hud-figures .turn-clock")
    expect(turn_clock.locator("dt")).to_have_text("Turn clock")
    expect(board.locator("#duel-turn")).not_to_contain_text("clock")
    for clock in ("#duel-turn-clock", "#duel-match-clock"):
        shown = seconds_shown(board.locator(clock).text_content())
        page.wait_for_timeout(2_200)
        assert seconds_shown(board.locator(clock).text_content()) <= shown - 2, clock
    pillars = board.locator(".pillars .foundation")
    expect(pillars).to_have_count(8)
    expect(pillars.locator(".card.slot .slot-pip")).to_have_count(8)
    assert not re.search(r"[SHDC][12]", board.locator(".pillars").inner_text())
    # The tableau is the boards' own part: each pile its backs, then its faces.
    state = DUEL.load(shared_board().state)
    for number, pile in enumerate(state.tableau, start=1):
        place = board.locator(f'.tableau .pile[data-pile="t{number}"]')
        expect(place.locator(".card.back")).to_have_count(len(pile.down))
        expect(place.locator("a.card.up .card-face[data-card]")).to_have_count(len(pile.up))


def test_a_refused_duel_move_shows_the_reason_and_logs_no_console_error(
    players,  # noqa: F811
    asgi_live_server,  # noqa: F811
):
    """A drop on a pile the board did not light is refused by the server: its reason is
    on the board, its code comes with the answer's `refused` event, and, answered as an
    answer (not a 4xx), it writes no error into the console."""
    page, _ = players
    base_url = asgi_live_server.url
    sign_up(page, base_url, "mover")
    mover = get_user_model().objects.get(username="mover")
    other = get_user_model().objects.create_user(username="other", password="x-long-secret-42")
    match = services.match_create(player=mover, mode="steps_duel")
    join_on_a_server_thread(player=other, match=match)
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(f"{base_url}/matches/{match.id}/duel/")
    on_the_duel_with_the_socket_open(page)
    page.evaluate(
        """() => document.addEventListener("refused", (event) => {
            window.arenaRefusals = (window.arenaRefusals || []).concat(event.detail.code); })"""
    )
    before = shared_board().revision
    unit, targets = next(iter(move_map(page).items()))
    home = unit.partition("/")[0]
    unlit = next(f"t{n}" for n in range(1, 8) if f"t{n}" not in targets and f"t{n}" != home)
    drag(page, unit, unlit)
    expect(page.locator("#duel-error")).to_be_visible()
    expect(page.locator("#duel-error")).not_to_be_empty()
    expect(page.locator("#duel-turn")).to_contain_text("Your turn.")
    page.wait_for_timeout(200)
    assert errors == []
    assert page.evaluate("() => window.arenaRefusals") == ["illegal_move"]
    assert shared_board().revision == before


DUPLICATE_IDS = """() => {
    const seen = {};
    document.querySelectorAll("[id]").forEach((el) => { seen[el.id] = (seen[el.id] || 0) + 1; });
    return Object.keys(seen).filter((id) => seen[id] > 1);
}"""


def test_the_duel_pages_have_no_duplicate_ids_as_the_duel_is_played(
    players,  # noqa: F811
    asgi_live_server,  # noqa: F811
):
    """Both seats share the board's game: nothing on either page (the board, the live
    panel, what its pushes swap in) may take its id from the game alone. Checked as the
    pages come, after each seat's move has been pushed to the other, and once the duel
    is over (two passes in a row) and its end pushed."""
    maker, joiner = players
    base_url = asgi_live_server.url
    sign_up(maker, base_url, "maker")
    sign_up(joiner, base_url, "joiner")
    find_each_other(maker, joiner, base_url, mode="steps_duel")
    on_the_duel_with_the_socket_open(joiner)
    on_the_duel_with_the_socket_open(maker)
    seats = {seat.number: seat.player.username for seat in Match.objects.get().seats.all()}
    pages = {"maker": maker, "joiner": joiner}
    first, second = pages[seats[0]], pages[seats[1]]
    duplicates = {}
    for page in (first, second):
        duplicates[f"{page} as it came"] = page.evaluate(DUPLICATE_IDS)
    tap_move(first, a_transfer(avoid_slots=True))
    turn_passes(first, second, seats[0], seats[1])
    second.click("#duel-pass")
    turn_passes(second, first, seats[1], seats[0])
    for page in (first, second):
        duplicates[f"{page} after two moves"] = page.evaluate(DUPLICATE_IDS)
    first.click("#duel-pass")  # a second pass in a row: the duel is over
    for page in (first, second):
        expect(page.locator("#duel-over")).to_be_visible(timeout=SOCKET_SECONDS)
        expect(page.locator("#match-over")).to_be_visible(timeout=SOCKET_SECONDS)
        page.wait_for_function(IDLE)
        duplicates[f"{page} once over"] = page.evaluate(DUPLICATE_IDS)
    assert {where: ids for where, ids in duplicates.items() if ids} == {}
