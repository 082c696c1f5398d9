"""The reviewers' admin pages load and work under the Content-Security-Policy
(the page fixture fails the test on any violation the browser reports)."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests.reviews.helpers import finished_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_review_pages_and_the_replay_viewer_break_no_policy(page, live_server, make_user):
    game = finished_game(make_user("player"), moves=10)
    staff = make_user("chief", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    for name in (
        "admin:index",
        "admin:games_game_changelist",
        "admin:reviews_auditentry_changelist",
    ):
        page.goto(live_server.url + reverse(name))
        expect(page.locator("#content")).to_be_visible()

    page.goto(live_server.url + reverse("admin:games_game_change", args=[game.pk]))
    page.locator("#replay-link").click()
    expect(page.locator("#replay-step")).to_have_text("Step 0 of 10")
    page.locator("#replay-next").click()
    expect(page.locator("#replay-step")).to_have_text("Step 1 of 10")
    page.fill("input[name=step]", "7")
    page.get_by_role("button", name="Go").click()
    expect(page.locator("#replay-step")).to_have_text("Step 7 of 10")
    assert (
        page.locator("form.replay-goto input[name=step]").evaluate(
            "(input) => getComputedStyle(input).width"
        )
        != "auto"
    )
