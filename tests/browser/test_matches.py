"""Two players find each other in the lobby, play a match live on a real ASGI server,
and each sees the other's progress arrive in the live panel beside the board through
the match's socket, without reloading (the panel's poll is 15 s: every expectation
here is met well before it)."""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.engine import card_name
from games.models import Game
from matches import services
from matches.models import Match, PointsTable
from tests.browser.asgi_server import asgi_live_server  # noqa: F401  # a fixture
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, CspWatch, require_chromium
from tests.browser.helpers import IDLE, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOCKET_SECONDS = 5_000
"""How long (ms) a pushed update may take to show: a third of the panel's poll."""

# Runs in every document: marks the page (a reload would lose the mark) and notes
# when the match's socket opens (htmx's ws extension).
WATCH_SOCKET = """
window.arenaLoadedOnce = window.arenaLoadedOnce || Date.now();
document.addEventListener("htmx:wsOpen", () => { window.arenaSocketOpen = true; });
"""


PHONE = {"width": 412, "height": 915}
DESKTOP = {"width": 1280, "height": 800}


@contextmanager
def two_players(monkeypatch, viewport: dict[str, int]) -> Iterator[tuple[Page, Page]]:
    """Two players' pages of the viewport's size in one browser, each context its own
    (cookies, sessions), each failing the test at teardown on a CSP violation."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    watches = [CspWatch(), CspWatch()]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        contexts: list[Any] = []
        pages: list[Page] = []
        for watch in watches:
            context = browser.new_context(viewport=viewport)
            watch.install(context)
            context.add_init_script(WATCH_SOCKET)
            page = context.new_page()
            page.set_default_timeout(10_000)
            contexts.append(context)
            pages.append(page)
        try:
            yield pages[0], pages[1]
            for watch, page in zip(watches, pages, strict=True):
                watch.check(page)
        finally:
            for context in contexts:
                context.close()
            browser.close()


@pytest.fixture
def players(asgi_live_server, monkeypatch) -> Iterator[tuple[Page, Page]]:  # noqa: F811
    """Two players on phones."""
    with two_players(monkeypatch, PHONE) as pages:
        yield pages


@pytest.fixture
def desktop_players(asgi_live_server, monkeypatch) -> Iterator[tuple[Page, Page]]:  # noqa: F811
    """Two players on 1280x800 desktops."""
    with two_players(monkeypatch, DESKTOP) as pages:
        yield pages


def seat_moves(page: Page, game: Game):
    return (
        page.locator(f"#match-seat-{game.id} .hud-figures div")
        .filter(has_text="Moves")
        .locator("dd")
    )


def seat_score(page: Page, game: Game):
    return (
        page.locator(f"#match-seat-{game.id} .hud-figures div")
        .filter(has_text="Score")
        .locator("dd")
    )


def find_each_other(maker: Page, joiner: Page, base_url: str, *, mode: str) -> None:
    """The maker makes a match in the lobby; the joiner joins it from the open matches."""
    maker.goto(f"{base_url}/matches/")
    maker.click(f"#create-{mode}")
    expect(maker.locator("#match-status")).to_have_text("Waiting for players")
    joiner.goto(f"{base_url}/matches/")
    row = joiner.locator("#open-matches tbody tr").filter(has_text="maker")
    row.get_by_role("link", name="Join").click()
    joiner.click("#join-match")


def to_the_board_once_started(page: Page) -> None:
    """A player left on the match's waiting page is taken to the board by its 3 s look."""
    expect(page.locator("#board")).to_be_visible(timeout=SOCKET_SECONDS)


def on_the_board_with_the_socket_open(page: Page) -> None:
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#match-live")).to_be_visible()
    page.wait_for_function("() => window.arenaSocketOpen === true", timeout=SOCKET_SECONDS)


def play_the_stock(page: Page) -> None:
    page.wait_for_function(IDLE)
    page.click("#stock")


def game_of(username: str) -> Game:
    return Game.objects.get(player__username=username, track=Game.Track.MATCH)


def race(maker: Page, joiner: Page, *, turns: int) -> None:
    """Each player in turn plays the stock; the other's panel shows the new move count
    and score (as the database has them) without a reload."""
    for turn in range(1, turns + 1):
        for mover, mover_name, watcher in ((maker, "maker", joiner), (joiner, "joiner", maker)):
            play_the_stock(mover)
            expect(mover.locator("#moves")).to_have_text(str(turn))
            seat = game_of(mover_name)
            expect(seat_moves(watcher, seat)).to_have_text(str(turn), timeout=SOCKET_SECONDS)
            expect(seat_score(watcher, seat)).to_have_text(str(seat.score), timeout=SOCKET_SECONDS)


def test_two_players_race_a_sprint_and_see_each_other_live(players, asgi_live_server):  # noqa: F811
    maker, joiner = players
    base_url = asgi_live_server.url
    sign_up(maker, base_url, "maker")
    sign_up(joiner, base_url, "joiner")
    find_each_other(maker, joiner, base_url, mode="steps_sprint")
    # A Sprint seats up to four: its maker starts it once the joiner is in (the page
    # looks again every 3 s).
    expect(maker.locator("#match-seats tbody tr")).to_have_count(2)
    maker.click("#start-match")
    on_the_board_with_the_socket_open(maker)
    to_the_board_once_started(joiner)
    on_the_board_with_the_socket_open(joiner)
    loaded = {page: page.evaluate("() => window.arenaLoadedOnce") for page in players}
    race(maker, joiner, turns=3)
    for page, mark in loaded.items():
        assert page.evaluate("() => window.arenaLoadedOnce") == mark, "the page was reloaded"
    match = Match.objects.get()
    assert match.status == Match.Status.RUNNING
    assert [game.move_count for game in (game_of("maker"), game_of("joiner"))] == [3, 3]


def test_two_players_race_klondike_with_a_published_points_table(players, asgi_live_server):  # noqa: F811
    maker, joiner = players
    base_url = asgi_live_server.url
    referee = get_user_model().objects.create_user(username="referee", is_staff=True)
    table = PointsTable.objects.create(
        version=1,
        points={"waste_to_tableau": 5, "waste_to_foundation": 10, "flip": 5},
        note="A test table.",
    )
    services.points_table_publish(table_id=table.id, staff=referee)
    sign_up(maker, base_url, "maker")
    sign_up(joiner, base_url, "joiner")
    find_each_other(maker, joiner, base_url, mode="klondike")
    # Head-to-head starts when its second seat is taken: the joiner goes to the board.
    on_the_board_with_the_socket_open(joiner)
    to_the_board_once_started(maker)
    on_the_board_with_the_socket_open(maker)
    loaded = {page: page.evaluate("() => window.arenaLoadedOnce") for page in players}
    race(maker, joiner, turns=3)
    for page, mark in loaded.items():
        assert page.evaluate("() => window.arenaLoadedOnce") == mark, "the page was reloaded"
    match = Match.objects.get()
    assert match.points_table == table
    assert game_of("maker").options == {
        "points": {
            **dict.fromkeys(
                ("waste_to_tableau", "waste_to_foundation", "tableau_to_foundation", "flip"), 0
            ),
            **table.points,
        }
    }


def test_the_waiting_page_goes_to_the_board_once_the_match_starts(players, asgi_live_server):  # noqa: F811
    maker, joiner = players
    base_url = asgi_live_server.url
    sign_up(maker, base_url, "maker")
    sign_up(joiner, base_url, "joiner")
    find_each_other(maker, joiner, base_url, mode="steps_sprint")
    expect(maker.locator("#match-seats tbody tr")).to_have_count(2)
    maker.click("#start-match")
    expect(joiner.locator("#board")).to_be_visible(timeout=SOCKET_SECONDS)


def clock_seconds(text: str | None) -> int:
    minutes, seconds = (text or "").strip().split(":")
    return int(minutes) * 60 + int(seconds)


def in_the_viewport(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def the_clock_runs_out_in(seconds: int) -> None:
    """The match's deadline (and its games') `seconds` from now."""
    deadline = timezone.now() + timedelta(seconds=seconds)
    Match.objects.update(deadline_at=deadline)
    Game.objects.filter(track=Game.Track.MATCH).update(deadline_at=deadline)


def test_the_sprint_page_keeps_the_match_in_view_with_its_clock_ticking(
    desktop_players,
    asgi_live_server,  # noqa: F811
):
    """At 1280x800 the live panel sits beside the board, every seat's row in view; a
    seat's figures are a labelled list with no card while the match runs; the match
    clock ticks; 20 s and more of polling and pushes bring no CSP violation (checked at
    teardown); and once the clock has run out the page looks again by itself and shows
    every seat's final table, each card named."""
    maker, joiner = desktop_players
    base_url = asgi_live_server.url
    sign_up(maker, base_url, "maker")
    sign_up(joiner, base_url, "joiner")
    find_each_other(maker, joiner, base_url, mode="steps_sprint")
    expect(maker.locator("#match-seats tbody tr")).to_have_count(2)
    maker.click("#start-match")
    on_the_board_with_the_socket_open(maker)
    to_the_board_once_started(joiner)
    on_the_board_with_the_socket_open(joiner)
    board = maker.locator("#board").bounding_box()
    panel = maker.locator("#match-live").bounding_box()
    assert board
    assert panel
    assert panel["x"] >= board["x"] + board["width"], "the panel is beside the board"
    opponent, mine = game_of("joiner"), game_of("maker")
    for game in (opponent, mine):
        assert in_the_viewport(maker, f"#match-seat-{game.id}")
    row = maker.locator(f"#match-seat-{opponent.id}")
    expect(row.locator("dl dt")).to_have_text(["Score", "On foundations", "Moves", "Status"])
    expect(row.locator("dl dd")).to_have_text(["0", "0", "0", "In progress"])
    shown = clock_seconds(maker.locator("#match-clock").text_content())
    maker.wait_for_timeout(2_500)
    assert clock_seconds(maker.locator("#match-clock").text_content()) <= shown - 2
    polls: list[str] = []
    maker.on("request", lambda request: polls.append(request.url) if "/live/" in request.url else 0)
    for turn in range(1, 8):
        play_the_stock(joiner)
        expect(seat_moves(maker, opponent)).to_have_text(str(turn), timeout=SOCKET_SECONDS)
        maker.wait_for_timeout(3_000)
    assert polls, "the panel asked again (every 15 s) while the page was watched"
    expect(maker.locator("#match-live [data-card]")).to_have_count(0)
    the_clock_runs_out_in(3)
    maker.reload()
    on_the_board_with_the_socket_open(maker)
    for page in (maker, joiner):
        expect(page.locator("#match-over")).to_be_visible(timeout=12_000)
    for game in (opponent, mine):
        final = maker.locator(f"#match-seat-{game.id} .mini-board")
        expect(final.locator("figcaption")).to_have_text(f"{game.player.username}'s final table")
        expect(final.locator(".mini-pile")).to_have_count(7)
        expect(final.locator(".mini-pile").first).to_contain_text("Pile 1:")
        face = final.locator(".mini-cards [data-card]").first
        expect(face).to_have_attribute("aria-label", card_name(face.get_attribute("data-card")))
