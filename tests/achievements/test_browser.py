"""In the browser: the winning card brings the badges onto the finish summary,
and the profile shows them with the chart and the calendar."""

import os

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from tests.browser.conftest import page  # noqa: F401  (the browser fixture)
from tests.browser.helpers import sign_up
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_winning_card_shows_the_badges_it_earned(page, live_server, settings):  # noqa: F811
    # The review would hold this win (a deck chosen by the test does not replay from
    # the game's seed), and a result under review stays out of the chart until it is
    # cleared: the review is not what this test is about.
    settings.GAME_CLOSED_TASKS = ["achievements.tasks.achievements_evaluate_task"]
    sign_up(page, live_server.url, "summiteer")
    player = get_user_model().objects.get(username="summiteer")
    case = load_fixture("spike_win.json")
    game = start_with_deck(player, case["deck"], variant="spike", options=case["options"])
    for revision, move in enumerate(case["moves"][:-1]):
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)
    page.goto(f"{live_server.url}/games/{game.id}/")
    expect(page.locator("#achievement-toast")).to_have_count(0)

    page.locator(f'button.card:has([data-card="{case["moves"][-1]}"])').click()

    toast = page.locator("#summary #achievement-toast")
    expect(toast).to_be_visible()
    expect(toast).to_have_attribute("role", "status")
    expect(toast).to_contain_text("Gold Summit")
    expect(toast).to_contain_text("First Spike win")
    if os.environ.get("SCREENSHOTS"):
        page.screenshot(path=f"{os.environ['SCREENSHOTS']}/finish-toast.png", full_page=True)

    toast.get_by_role("link", name="All your badges").click()
    expect(page.locator('#badges [data-achievement="spike-summit-gold"]')).to_be_visible()
    expect(page.locator('figure.score-chart[data-variant="spike"] svg')).to_be_visible()
    expect(page.locator("#calendar")).to_be_visible()
    if os.environ.get("SCREENSHOTS"):
        page.screenshot(path=f"{os.environ['SCREENSHOTS']}/profile.png", full_page=True)
