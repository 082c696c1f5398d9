"""A new player completes an easy daily challenge by clicks and sees its star."""

import pytest
from playwright.sync_api import expect

from challenges import services
from leaderboards.periods import today_utc
from tests.browser.helpers import IDLE, sign_up
from tests.challenges.conftest import SPIKE_SEED

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def click_spike_move(page, move: str) -> None:
    page.wait_for_function(IDLE)
    if move == "draw":
        page.click("#stock")
    elif move == "wild":
        page.click("#wild")
    else:
        page.locator(f'button.card:has([data-card="{move}"])').click()


def test_an_easy_challenge_is_completed_by_clicks_and_its_star_counted(page, live_server):
    challenge = services.challenge_build(
        day=today_utc(),
        variant="spike",
        difficulty=1,
        seed=SPIKE_SEED,
        goal={"kind": "score", "count": 300},
    )
    sign_up(page, live_server.url, "starcatcher")
    page.goto(f"{live_server.url}/challenges/")
    row = page.locator('[data-challenge="spike-1"]')
    expect(row).to_contain_text("Reach 300 on the Summit ledger")
    expect(row).to_contain_text("Not yet")
    row.get_by_role("button", name="Play").click()
    expect(page.locator("#board.variant-spike")).to_be_visible()
    expect(page.locator("#goal")).to_contain_text("Reach 300 on the Summit ledger")
    expect(page.locator("#goal-progress")).to_have_text("Score: 0 of 300")
    for move in challenge.proof_line[:-1]:
        click_spike_move(page, move)
    expect(page.locator("#goal-complete")).to_have_count(0)
    click_spike_move(page, challenge.proof_line[-1])
    expect(page.locator("#goal-complete")).to_contain_text("Challenge complete")
    page.goto(f"{live_server.url}/challenges/")
    expect(row).to_contain_text("Done")
    expect(page.locator("#month-stars")).to_contain_text("Your stars this month: 1")
