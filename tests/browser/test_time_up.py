"""A timed game's board closes itself when its clock runs out, with nobody acting: once
a countdown on the page (the board's own, a Spike Time Attack's; the match's clock
beside a match's board) has shown 0:00 for a second, the board asks the server again,
which closes the game as the first look at it does, and the board shows the closed
game with its summary: no Undo and no Finish left to be refused."""

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from games import services as games
from games.models import Game
from games.tracks import casual_track
from matches import services
from matches.models import Match
from tests.browser.asgi_server import asgi_live_server  # noqa: F401  # a fixture
from tests.browser.helpers import sign_up
from tests.browser.test_matches import SOCKET_SECONDS, on_the_board_with_the_socket_open, players  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLOCK_SECONDS = 4
"""How far away the deadline is when the board is opened."""
CLOSED_WITHIN_MS = (CLOCK_SECONDS + 6) * 1000
"""The clock, its second at 0:00, the look and the swap, with room for a loaded machine."""


def deadline_in(games_of_it, seconds: int) -> None:
    games_of_it.update(deadline_at=timezone.now() + timedelta(seconds=seconds))


def closed_on_the_page(page: Page, game: Game) -> None:
    """The board came back closed, with its summary, and the page was not reloaded."""
    mark = page.evaluate("() => (window.arenaMark = Date.now())")
    expect(page.locator("#board #summary")).to_be_visible(timeout=CLOSED_WITHIN_MS)
    expect(page.locator("#board #finish")).to_have_count(0)
    expect(page.locator("#board #undo")).to_have_count(0)
    assert page.evaluate("() => window.arenaMark") == mark, "the page was reloaded"
    game.refresh_from_db()
    assert not game.is_active


def test_a_time_attack_board_closes_when_its_clock_runs_out(page, live_server):
    sign_up(page, live_server.url, "racer")
    player = get_user_model().objects.get(username="racer")
    game = games.game_start(
        player=player, variant="spike", track=casual_track(options={"mode": "time_attack"})
    )
    deadline_in(Game.objects.filter(id=game.id), CLOCK_SECONDS)
    page.goto(f"{live_server.url}/games/{game.id}/")
    expect(page.locator("#board #finish")).to_be_visible()
    expect(page.locator("#board #countdown")).to_be_visible()
    closed_on_the_page(page, game)
    expect(page.locator("#board #countdown")).to_have_text("0:00")


def test_a_match_board_closes_when_the_match_clock_runs_out(players, asgi_live_server):  # noqa: F811
    page, _ = players
    base_url = asgi_live_server.url
    sign_up(page, base_url, "sprinter")
    player = get_user_model().objects.get(username="sprinter")
    match = services.match_create(player=player, mode="steps_sprint")
    # A solo sprint, started as its maker starts it; the start is pushed to the match's
    # sockets through async_to_sync, which cannot run on Playwright's event loop.
    with ThreadPoolExecutor(max_workers=1) as server:
        server.submit(services.match_start, player=player, match_id=match.id).result()
    game = Game.objects.get(track=Game.Track.MATCH, track_ref=str(match.id))
    deadline = timezone.now() + timedelta(seconds=CLOCK_SECONDS)
    Match.objects.filter(id=match.id).update(deadline_at=deadline)
    Game.objects.filter(id=game.id).update(deadline_at=deadline)
    page.goto(f"{base_url}/games/{game.id}/")
    on_the_board_with_the_socket_open(page)
    expect(page.locator("#board #finish")).to_be_visible()
    closed_on_the_page(page, game)
    expect(page.locator("#match-over")).to_be_visible(timeout=SOCKET_SECONDS)
