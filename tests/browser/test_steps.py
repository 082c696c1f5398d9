"""A new player chooses the options of a Steps deal, plays it and reads the ledger."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from games.engine import format_move, get_variant
from games.models import Game
from tests.browser.helpers import click_move, sign_up
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEPS = get_variant("steps")


def test_options_a_reserve_slot_and_the_ledger_on_finish(page, live_server):
    sign_up(page, live_server.url, "architect")
    page.goto(f"{live_server.url}/play/steps/")
    page.check('input[name="draw"][value="3"]')
    page.fill('input[name="buffers"]', "2")
    page.click("#deal")
    expect(page.locator("#board.variant-steps")).to_be_visible()
    expect(page.locator(".reserve-slot")).to_have_count(2)
    game = Game.objects.get(player__username="architect")
    assert game.options["draw"] == 3
    page.click("#stock")
    expect(page.locator("#moves")).to_have_text("1")
    game.refresh_from_db()
    into_reserve = next(
        m for m in STEPS.legal_moves(STEPS.load(game.state)) if m.dst and m.dst.startswith("r")
    )
    click_move(page, format_move(into_reserve))
    expect(page.locator("#points")).to_have_text(
        str(STEPS.public_view(STEPS.apply(STEPS.load(game.state), into_reserve).state)["points"])
    )
    page.click("#finish")
    page.click("#confirm-finish")
    expect(page.locator("#summary")).to_contain_text("Architect Ledger")
    expect(page.locator("#ledger-total")).to_be_visible()


def test_a_flawless_win_is_finished_by_clicking(page, live_server):
    sign_up(page, live_server.url, "ascender")
    player = get_user_model().objects.get(username="ascender")
    case = load_fixture("steps_win_flawless.json")
    game = start_with_deck(player, case["deck"], variant="steps", options=case["options"])
    moves = case["moves"]
    for revision, move in enumerate(moves[:-2]):
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)
    page.goto(f"{live_server.url}/play/steps/")
    click_move(page, moves[-2])
    expect(page.locator("#moves")).to_have_text(str(len(moves) - 1))
    click_move(page, moves[-1])
    expect(page.locator("#summary")).to_contain_text("Won")
    expect(page.locator("#summary")).to_contain_text("Flawless ascension")
    game.refresh_from_db()
    assert game.status == Game.Status.WON
