"""A loss announced in the browser: the last move of a lost Spiderette game shows the lost
banner; its Undo takes the move back and play goes on; played again, Accept the loss
closes the game as lost (issue 14, section 3)."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from games.models import Game
from tests.browser.helpers import click_move, sign_up
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_undo_then_accept_the_loss(page, live_server):
    sign_up(page, live_server.url, "proven-loss")
    player = get_user_model().objects.get(username="proven-loss")
    case = load_fixture("spiderette_lost.json")
    game = start_with_deck(player, case["deck"], variant="spiderette")
    moves = case["moves"]
    for revision, move in enumerate(moves[:-1]):
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)

    page.goto(f"{live_server.url}/play/spiderette/")
    expect(page.locator("#lost-banner")).to_have_count(0)
    click_move(page, moves[-1])
    expect(page.locator("#lost-banner")).to_be_visible()
    expect(page.locator("#lost-reason")).to_contain_text("The stock is empty")
    expect(page.locator("#summary")).to_have_count(0)

    page.locator("#lost-undo").click()
    expect(page.locator("#lost-banner")).to_have_count(0)
    expect(page.locator("#moves")).to_have_text(str(len(moves) - 1))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE

    click_move(page, moves[-1])
    expect(page.locator("#lost-banner")).to_be_visible()
    page.locator("#accept-loss").click()
    expect(page.locator("#summary")).to_contain_text("Lost")
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
