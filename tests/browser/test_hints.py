"""The Hint key in the browser: h asks for a hint, the board comes back with the move
marked and said, and the hint is counted."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Game
from tests.browser.helpers import sign_up
from tests.engine.helpers import deck_from_layout
from tests.games.helpers import start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_pressing_h_shows_a_hint_and_counts_it(page, live_server):
    sign_up(page, live_server.url, "hinted")
    player = get_user_model().objects.get(username="hinted")
    game = start_with_deck(player, deck_from_layout(["AS", "8S", "7H"]))
    page.goto(f"{live_server.url}/games/{game.id}/")
    expect(page.locator("#hint")).to_be_visible()
    page.keyboard.press("h")
    expect(page.locator("#hint-text")).to_contain_text(
        "Hint: Move the ace of spades to its foundation"
    )
    expect(page.locator('[data-pile="t1"]')).to_have_class("pile hint-source")
    assert Game.objects.get(id=game.id).hints_used == 1
    # The board the hint came back on still moves: the revision did not change.
    page.keyboard.press("d")
    expect(page.locator("#hint-text")).to_have_count(0)
    assert Game.objects.get(id=game.id).move_count == 1
