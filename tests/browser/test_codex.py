"""A new player opens the Codex, plays its first scenario's winning line by clicks
and finds the scenario won, with its stars, back on the Codex page."""

import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.codex import codex_scenarios, handicap_words, par_margin_moves, scenario_certify
from games.engine import parse_move
from games.models import Game
from games.specs import game_spec
from tests.browser.helpers import IDLE, click_move, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def puts_a_card_in_a_slot(move: str) -> bool:
    destination = parse_move(move).dst
    return bool(destination and destination.startswith("r"))


def human_pace(line: tuple[str, ...]) -> float:
    """Seconds between moves at which the line is won no faster than a person could
    (a faster win is held for review and counts for nothing in the Codex)."""
    spec = game_spec("steps")
    assert spec is not None
    min_win_seconds = spec.min_win_seconds or 0
    return max(settings.REVIEW_MIN_SECONDS_PER_MOVE, (min_win_seconds + 3) / len(line))


def test_the_first_scenario_is_won_by_clicks_and_its_stars_shown_on_the_codex(page, live_server):
    scenario = codex_scenarios()[0]
    line = scenario_certify(scenario).moves
    assert len(line) == scenario.par
    first_slot_move = next(
        (index for index, move in enumerate(line) if puts_a_card_in_a_slot(move)), None
    )
    # The line is par moves long, so a slot is the only thing between it and three stars.
    stars = 3 if first_slot_move is None else 2

    sign_up(page, live_server.url, "apprentice")
    page.goto(f"{live_server.url}/codex/")
    expect(page.locator("#tier-1")).to_have_attribute("data-unlocked", "yes")
    expect(page.locator("#tier-1 .tier-state")).to_have_text("Open: 0 of 5 won.")
    expect(page.locator("#tier-2")).to_have_attribute("data-unlocked", "no")
    expect(page.locator("#tier-2 .tier-state")).to_have_text(
        "Locked. Tier 2 opens when 3 scenarios of tier 1 are won: 0 won so far."
    )
    expect(page.locator("#tier-2 .codex-list button")).to_have_count(0)
    row = page.locator(f'[data-scenario="{scenario.key}"]')
    expect(row.locator(".scenario-won")).to_have_text("Not yet")

    row.get_by_role("button", name="Play").click()
    expect(page.locator("#board.variant-steps")).to_be_visible()
    dashboard = page.get_by_role("group", name="Architect Dashboard")
    expect(dashboard).to_contain_text(f"Codex {scenario.number}: {scenario.name}")
    expect(dashboard.locator("#par")).to_have_text(str(scenario.par))
    expect(dashboard.locator("#stars-in-reach")).to_have_text("3 stars in reach")
    expect(dashboard).to_contain_text(f"two: within {par_margin_moves(scenario.par)} moves")
    expect(dashboard.locator("#handicaps")).to_have_text(
        "In force: " + ", ".join(handicap_words(scenario))
    )
    game = Game.objects.get(player__username="apprentice")
    assert (game.track, game.track_ref) == (Game.Track.SCENARIO, scenario.key)

    pace = human_pace(line)
    dealt = time.monotonic()

    def click_in_time(index: int, move: str) -> None:
        page.wait_for_timeout(max(0.0, dealt + (index + 1) * pace - time.monotonic()) * 1000)
        click_move(page, move)

    for index, move in enumerate(line[:-1]):
        click_in_time(index, move)
        if index == first_slot_move:
            expect(page.locator("#stars-in-reach")).to_have_text("2 stars in reach")
    expect(page.locator("#moves")).to_have_text(str(len(line) - 1))
    expect(page.locator("#summary")).to_have_count(0)
    click_in_time(len(line) - 1, line[-1])
    expect(page.locator("#summary h2")).to_have_text("Won")
    expect(page.locator("#stars-in-reach")).to_have_text(f"{stars} stars earned")
    page.wait_for_function(IDLE)
    game.refresh_from_db()
    assert (game.status, game.move_count) == (Game.Status.WON, scenario.par)

    page.goto(f"{live_server.url}/codex/")
    expect(row).to_have_class("done")
    expect(row.locator(".scenario-won")).to_have_text("Won")
    expect(row.locator(".scenario-stars")).to_have_attribute("aria-label", f"{stars} of 3 stars")
    expect(row.locator(".scenario-stars")).to_contain_text(f"{stars}/3")
    expect(row.get_by_role("button", name="Play again")).to_be_visible()
    expect(page.locator("#tier-1 .tier-state")).to_have_text("Open: 1 of 5 won.")
    expect(page.locator("#tier-2 .tier-state")).to_have_text(
        "Locked. Tier 2 opens when 3 scenarios of tier 1 are won: 1 won so far."
    )
    expect(page.locator("#codex-totals")).to_contain_text(f"{stars} of 60 stars")
