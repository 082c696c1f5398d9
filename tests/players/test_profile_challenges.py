"""The profile's daily challenges: this month's stars, the next monthly badge and the
stars it still needs, and the monthly badges with the months they were earned for."""

import re
from datetime import date

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from achievements.services import challenge_month_awards_evaluate
from challenges.selectors import month_of
from leaderboards.periods import today_utc
from players.selectors import profile_for_username
from tests.achievements.test_challenge_badges import DECEMBER, JANUARY, earn
from tests.players.test_profile import profile_url
from tests.players.test_profile_page import private

pytestmark = pytest.mark.django_db


def badge_html(html: str, code: str) -> str:
    match = re.search(rf'data-achievement="{code}">(.*?)</li>', html, flags=re.S)
    assert match, code
    return match.group(1)


def test_the_profile_shows_this_months_stars_and_the_stars_to_the_next_badge(client, alice):
    earn(alice, month_of(today_utc()), 42)
    earn(alice, date(2020, 1, 1), 5)  # another month's stars count for nothing here

    html = client.get(profile_url("alice")).content.decode()

    section = html[html.index('id="challenge-month"') :]
    section = section[: section.index("</section>")]
    assert f"Daily challenges: {today_utc():%B %Y}" in section
    assert '<strong id="month-stars">42</strong>' in section
    assert "78 stars to go for Silver challenger (120 stars)" in section
    assert '<progress id="month-progress" value="42" max="120">' in section
    assert f'href="{reverse("challenges:home")}"' in section


def test_once_gold_is_reached_no_star_badge_is_left_to_go_for(client, alice):
    earn(alice, month_of(today_utc()), 300)

    html = client.get(profile_url("alice")).content.decode()

    assert '<strong id="month-stars">300</strong>' in html
    assert "Every star badge of the month earned." in html
    assert "to go for" not in html


def test_a_player_without_stars_has_bronze_ahead(client, alice):
    html = client.get(profile_url("alice")).content.decode()

    assert '<strong id="month-stars">0</strong>' in html
    assert "30 stars to go for Bronze challenger (30 stars)" in html


def test_a_monthly_badge_shows_the_month_it_was_earned_for(client, alice):
    earn(alice, DECEMBER, 300)
    earn(alice, JANUARY, 30)
    for month in (DECEMBER, JANUARY):
        challenge_month_awards_evaluate(player_id=alice.pk, month=month)

    html = client.get(profile_url("alice")).content.decode()

    gold = badge_html(html, "challenges-gold")
    assert re.search(r"<strong>Gold challenger</strong> · <time[^>]*>December 2026</time>", gold)
    assert 'data-count="1"' in gold
    bronze = badge_html(html, "challenges-bronze")
    assert '<time class="badge-month" datetime="2027-01">January 2027</time>' in bronze
    assert 'data-count="2"' in bronze
    assert re.search(r"Earned for <time[^>]*>January 2027</time>, <time[^>]*>December 2026", bronze)


def test_a_private_profile_shows_no_challenge_stars(client, alice, make_user):
    earn(alice, month_of(today_utc()), 42)
    private(alice)
    client.force_login(make_user("bob"))

    html = client.get(profile_url("alice")).content.decode()

    assert "month-stars" not in html
    assert "challenger" not in html


def test_the_months_figures_cost_one_query_and_the_badges_still_one(alice):
    earn(alice, DECEMBER, 30)
    challenge_month_awards_evaluate(player_id=alice.pk, month=DECEMBER)

    with CaptureQueriesContext(connection) as captured:
        page = profile_for_username(username="alice", viewer=AnonymousUser(), today=DECEMBER)

    sql = [query["sql"] for query in captured.captured_queries]
    assert len([query for query in sql if "challenges_completion" in query]) == 1
    assert not [query for query in sql if "challenges_challenge" in query]
    assert len([query for query in sql if "achievements_award" in query]) == 1
    assert page.challenges is not None
    assert (page.challenges.stars, page.challenges.to_go) == (30, 90)
    assert [badge.months for badge in page.badges] == [(DECEMBER,)]
