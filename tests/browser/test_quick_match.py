"""Quick match in the browser, on a real ASGI server: two players press Quick match for
the Steps Duel; the second is taken to the duel at once, and the first's lobby, left
open, takes them to the same duel on its next look (every 5 s). One duel is made,
however many looks follow."""

import pytest
from playwright.sync_api import expect

from matches.models import Match, QueueEntry
from tests.browser.asgi_server import asgi_live_server  # noqa: F401  # a fixture
from tests.browser.helpers import sign_up
from tests.browser.test_matches import players  # noqa: F401  # a fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOBBY_LOOK_MS = 5_000 + 3_000
"""The lobby's look (every 5 s) and the page load it leads to."""


def test_two_quick_match_players_are_taken_to_one_duel(players, asgi_live_server):  # noqa: F811
    first, second = players
    base_url = asgi_live_server.url
    sign_up(first, base_url, "first")
    sign_up(second, base_url, "second")
    first.goto(f"{base_url}/matches/")
    first.click("#quick-match-steps_duel")
    expect(first.locator("#mode-steps_duel")).to_contain_text("Looking for an opponent")
    second.goto(f"{base_url}/matches/")
    second.click("#quick-match-steps_duel")
    expect(second.locator("#duel-board")).to_be_visible()
    expect(first.locator("#duel-board")).to_be_visible(timeout=LOBBY_LOOK_MS)
    assert first.url == second.url
    match = Match.objects.get()
    assert match.status == Match.Status.RUNNING
    assert set(match.seats.values_list("player__username", flat=True)) == {"first", "second"}
    assert not QueueEntry.objects.exists()
    assert f"/matches/{match.id}/duel/" in first.url
