"""A new player plays Spike in each mode and reads the Summit ledger."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from games.models import Game
from tests.browser.helpers import sign_up
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("mode", ["classic", "time_attack", "relaxed"])
def test_each_mode_is_played_by_clicking_and_finished(page, live_server, mode):
    sign_up(page, live_server.url, f"peak-{mode}")
    page.goto(f"{live_server.url}/play/spike/")
    page.check(f'input[name="mode"][value="{mode}"]')
    page.click("#deal")
    expect(page.locator("#board.variant-spike")).to_be_visible()
    if mode == "time_attack":
        expect(page.locator("#countdown")).to_be_visible()
    if mode != "relaxed":
        page.locator(".waste a.card").click()
    expect(page.locator(".table.spike.highlighting")).to_be_visible()
    playable = page.locator("button.card.playable")
    if playable.count():
        playable.first.click()
        expect(page.locator("#moves")).to_have_text("1")
    else:
        page.click("#wild")
        expect(page.locator("#moves")).to_have_text("1")
    page.click("#stock")
    expect(page.locator("#moves")).to_have_text("2")
    page.click("#finish")
    page.click("#confirm-finish")
    expect(page.locator("#summary")).to_contain_text("Ledger")
    expect(page.locator("#summary")).to_contain_text("Summit badge")
    game = Game.objects.get(player__username=f"peak-{mode}")
    assert game.options == {"mode": mode}
    assert game.status == Game.Status.FINISHED


def test_the_last_card_of_a_winning_game_is_played_by_clicking(page, live_server):
    sign_up(page, live_server.url, "summiteer")
    player = get_user_model().objects.get(username="summiteer")
    case = load_fixture("spike_win.json")
    game = start_with_deck(player, case["deck"], variant="spike", options=case["options"])
    for revision, move in enumerate(case["moves"][:-1]):
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)
    page.goto(f"{live_server.url}/games/{game.id}/")
    page.locator(f'button.card:has([data-card="{case["moves"][-1]}"])').click()
    expect(page.locator("#summary")).to_contain_text("Won")
    expect(page.locator("#badge")).to_contain_text("Gold")
