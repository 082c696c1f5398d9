"""Dealing too fast on the board (games.throttles): the board stays, with the reason,
where the new deal would have been; nothing is dealt."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Game
from games.throttles import DealRateThrottle
from tests.browser.helpers import sign_up
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_deal_past_the_throttle_shows_why_on_the_board(page, live_server, monkeypatch):
    # One deal request a minute: the question "Deal a new game?" spends it.
    monkeypatch.setattr(DealRateThrottle, "THROTTLE_RATES", {"deals": "1/min"})
    sign_up(page, live_server.url, "hasty")
    player = get_user_model().objects.get(username="hasty")
    game = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    page.goto(f"{live_server.url}/games/{game.id}/")
    page.click("#new-deal")
    page.click("#confirm-new-deal")
    expect(page.locator("#refusal")).to_contain_text("Too many new deals")
    # The board was swapped in its place, the page around it kept.
    expect(page.locator("#board")).to_have_count(1)
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    assert Game.objects.filter(player=player).count() == 1
