"""A new player plays Kingsley and Spiderette to a win and to a loss in the browser."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from games.models import Game
from tests.browser.helpers import click_move, sign_up
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("variant", "outcome", "label"),
    [
        ("kingsley", "win", "Won"),
        ("kingsley", "lost", "Lost"),
        ("spiderette", "win", "Won"),
        ("spiderette", "lost", "Lost"),
    ],
)
def test_the_last_moves_by_clicking_end_the_game(page, live_server, variant, outcome, label):
    sign_up(page, live_server.url, f"{variant}-{outcome}")
    player = get_user_model().objects.get(username=f"{variant}-{outcome}")
    case = load_fixture(f"{variant}_{outcome}.json")
    game = start_with_deck(player, case["deck"], variant=variant)
    moves = case["moves"]
    for revision, move in enumerate(moves[:-2]):
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)

    page.goto(f"{live_server.url}/play/{variant}/")
    expect(page.locator("#board")).to_be_visible()
    click_move(page, moves[-2])
    expect(page.locator("#moves")).to_have_text(str(len(moves) - 1))
    click_move(page, moves[-1])
    if outcome == "lost":  # a loss is announced: Undo or Accept the loss
        expect(page.locator("#lost-banner")).to_be_visible()
        page.locator("#accept-loss").click()
    expect(page.locator("#summary")).to_contain_text(label)
    game.refresh_from_db()
    assert game.status == (Game.Status.WON if outcome == "win" else Game.Status.LOST)
    if outcome == "lost":
        expect(page.locator("#lost-reason")).to_be_visible()
