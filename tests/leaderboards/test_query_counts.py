"""Exact numbers of queries of the daily page and the leaderboard pages (not
maxima): a change that adds one, an N+1 or a repeated read, fails here and has
to say why. Live ranks in Redis are not queries: with them a deal's page reads
no result at all.

A signed-in request reads the user (AuthenticationMiddleware) when the view first
looks at request.user; its session comes from the cache (accounts/sessions.py).
"""

from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from leaderboards import services
from leaderboards.models import PeriodBest
from leaderboards.periods import today_utc
from leaderboards.selectors import PAGE_SIZE
from tests.leaderboards.helpers import Figures, deal_of, insert_results, play_daily_and_finish

pytestmark = pytest.mark.django_db

SIGNED_IN = 1  # the user (the session comes from the cache)
LOOKS = 1  # a signed-in player's full page prints their looks: the profile, once


def deal_url(deal, page: int = 1) -> str:
    return reverse("leaderboards:deal", args=[deal.date.isoformat(), deal.variant]) + (
        f"?page={page}"
    )


@pytest.fixture
def database_ranks(settings):
    settings.REDIS_URL = ""


def test_the_daily_page_counts_each_finished_deals_rank_once(
    player_client, player, database_ranks, django_assert_num_queries
):
    for variant in ("klondike", "spike"):
        deal = deal_of(variant)
        insert_results(deal, [Figures(score=500), Figures(score=50)], prefix=variant)
        play_daily_and_finish(player, deal)
    # The user; today's deals (all there: one read); the player's
    # games of them; the player's rank keys on the finished ones (one query), then
    # the results better than each (one count per finished deal); the days played
    # for the streak; for the calendar, the month's days played and days with deals.
    with django_assert_num_queries(SIGNED_IN + 3 + 2 + 3 + LOOKS):
        response = player_client.get(reverse("leaderboards:daily"))
    assert response.status_code == 200
    ranks = {entry.deal.variant: entry.rank for entry in response.context["entries"]}
    assert ranks == {"kingsley": None, "klondike": 3, "spiderette": None, "spike": 3, "steps": None}


@pytest.fixture(params=[PAGE_SIZE + 9, 4 * PAGE_SIZE], ids=["2 pages", "5 pages"])
def board(request, make_user):
    """A deal with pages of results, the viewer's first: the counts are the same
    however many results there are."""
    deal = deal_of("klondike")
    viewer = make_user("viewer")
    insert_results(deal, [Figures(score=10_000)], players=[viewer])
    insert_results(deal, [Figures(score=5_000 - i) for i in range(request.param)])
    return deal, viewer


def test_a_deals_page_with_the_viewer_on_it(
    client, board, database_ranks, django_assert_num_queries
):
    deal, viewer = board
    client.force_login(viewer)
    # The deal; the user; the deal's results counted; the page
    # of them. Page 1 starts at rank 1 and holds the viewer's row: no rank count.
    with django_assert_num_queries(1 + SIGNED_IN + 2 + LOOKS):
        response = client.get(deal_url(deal))
    assert response.status_code == 200
    page = response.context["board"]
    assert (page.source, page.viewer_on_page, page.viewer_row.rank) == ("database", True, 1)


def test_a_deals_page_without_the_viewer_on_it(
    client, board, database_ranks, django_assert_num_queries
):
    deal, viewer = board
    client.force_login(viewer)
    # The deal; the user; the results counted; the page of them;
    # the rank of its first row (a tie may begin on the page before); the
    # viewer's row and its rank.
    with django_assert_num_queries(1 + SIGNED_IN + 2 + 1 + 2 + LOOKS):
        response = client.get(deal_url(deal, page=2))
    assert response.status_code == 200
    page = response.context["board"]
    assert (page.source, page.viewer_on_page, page.viewer_row.rank) == ("database", False, 1)
    assert page.rows[0].rank == PAGE_SIZE + 1


def test_a_deals_page_for_a_visitor(client, board, database_ranks, django_assert_num_queries):
    deal, _ = board
    # The deal; its results counted; the page. A visitor has no session row.
    with django_assert_num_queries(1 + 2):
        response = client.get(deal_url(deal))
    assert response.status_code == 200


def test_a_deals_page_from_the_live_ranks_reads_no_result(
    client, board, settings, django_assert_num_queries
):
    if not settings.REDIS_URL:
        pytest.skip("needs REDIS_URL (a real Redis); CI runs these tests with and without it")
    deal, viewer = board
    services.leaderboard_rebuild(deal_id=deal.id)
    client.force_login(viewer)
    with django_assert_num_queries(1 + SIGNED_IN + LOOKS):  # the deal; the user
        response = client.get(deal_url(deal, page=2))
    assert response.status_code == 200
    page = response.context["board"]
    assert (page.source, page.viewer_on_page, page.viewer_row.rank) == ("redis", False, 1)


@pytest.fixture
def weekly_table(make_user):
    """This week's Klondike table, just computed, with the viewer on its first page."""
    deal = deal_of("klondike")
    viewer = make_user("viewer")
    insert_results(deal, [Figures(score=1000)], players=[viewer])
    insert_results(deal, [Figures(score=10 + i) for i in range(5)])
    services.period_rankings_compute(variant="klondike", period="week", today=today_utc())
    return viewer


def weekly_url() -> str:
    return reverse("leaderboards:period", args=["klondike"]) + "?period=week"


def test_the_weekly_page_with_a_worker(client, weekly_table, settings, django_assert_num_queries):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # beat keeps the table: the page only reads
    client.force_login(weekly_table)
    # The user; the paginator's count; the page of the table,
    # which holds the viewer's row (no read of its own).
    with django_assert_num_queries(SIGNED_IN + 2 + LOOKS):
        response = client.get(weekly_url())
    assert response.status_code == 200
    table = response.context["table"]
    assert table.viewer_row.rank == 1
    assert table.viewer_row in table.page.object_list


def test_the_weekly_page_without_a_worker_checks_its_tables_age(
    client, weekly_table, django_assert_num_queries
):
    client.force_login(weekly_table)
    # + the newest computed_at of the table: fresh, so nothing is recomputed.
    with django_assert_num_queries(1 + SIGNED_IN + 2 + LOOKS):
        response = client.get(weekly_url())
    assert response.status_code == 200


def test_the_weekly_page_without_a_worker_recomputes_a_stale_table(
    client, weekly_table, django_assert_num_queries
):
    PeriodBest.objects.update(computed_at=timezone.now() - timedelta(hours=1))
    client.force_login(weekly_table)
    # The table's age; the period's results; in a transaction (SAVEPOINT, RELEASE:
    # the test's transaction), the old rows deleted and the new inserted; then the
    # page as above. PostgreSQL also takes the table's advisory lock first, so
    # that two computes take turns (SQLite writes one at a time anyway).
    recompute = 2 + 4 + (1 if connection.vendor == "postgresql" else 0)
    with django_assert_num_queries(recompute + SIGNED_IN + 2 + LOOKS):
        response = client.get(weekly_url())
    assert response.status_code == 200
    assert (
        PeriodBest.objects.filter(computed_at__gte=timezone.now() - timedelta(minutes=1)).count()
        == 6
    )
