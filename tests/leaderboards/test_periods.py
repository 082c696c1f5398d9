"""The weekly and all-time tables: materialised, best result per player, ranked."""

from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User

from leaderboards import selectors, services
from leaderboards.models import PeriodBest
from leaderboards.periods import ALL_TIME_START, week_start
from leaderboards.tasks import period_rankings_compute_task
from tests.leaderboards.helpers import Figures, deal_of, insert_results

pytestmark = pytest.mark.django_db

WEDNESDAY = date(2026, 3, 4)
MONDAY = date(2026, 3, 2)
SUNDAY = date(2026, 3, 8)


def table(variant="klondike", period="week", start=MONDAY):
    return list(
        PeriodBest.objects.filter(variant=variant, period=period, period_start=start)
        .order_by("rank", "id")
        .values_list("rank", "player__username", "score", "won", "elapsed_ms", "move_count")
    )


def contents(variant="klondike", period="week", start=MONDAY):
    return list(
        PeriodBest.objects.filter(variant=variant, period=period, period_start=start)
        .order_by("rank", "player_id")
        .values_list("rank", "player_id", "result_id", "score", "rank_key")
    )


@pytest.fixture
def players():
    return User.objects.bulk_create([User(username=name) for name in ("ann", "ben", "cat", "dan")])


def test_the_week_runs_monday_to_sunday():
    assert week_start(WEDNESDAY) == MONDAY
    assert week_start(MONDAY) == MONDAY
    assert week_start(SUNDAY) == MONDAY
    assert week_start(SUNDAY + timedelta(days=1)) == SUNDAY + timedelta(days=1)


def test_the_weekly_table_keeps_this_weeks_best_per_player_ranked_with_ties(players):
    ann, ben, cat, dan = players
    last_sunday = deal_of("klondike", MONDAY - timedelta(days=1))
    monday = deal_of("klondike", MONDAY)
    wednesday = deal_of("klondike", WEDNESDAY)
    next_monday = deal_of("klondike", SUNDAY + timedelta(days=1))
    insert_results(last_sunday, [Figures(won=True, score=9_000)], players=[ann])
    insert_results(next_monday, [Figures(won=True, score=9_000)], players=[ben])
    insert_results(
        monday,
        [Figures(won=True, score=300), Figures(score=100), Figures(won=True, score=200)],
        players=[ann, ben, cat],
    )
    insert_results(
        wednesday,
        [Figures(won=True, score=150), Figures(won=True, score=200), Figures(score=50)],
        players=[ann, ben, dan],
    )
    assert services.period_rankings_compute(variant="klondike", period="week", today=WEDNESDAY) == 4
    assert table() == [
        (1, "ann", 300, True, 60_000, 100),  # her Monday, not Wednesday nor last Sunday
        (2, "cat", 200, True, 60_000, 100),  # ties with ben, and got there first
        (2, "ben", 200, True, 60_000, 100),
        (4, "dan", 50, False, 60_000, 100),
    ]


def test_recomputing_gives_the_same_table(players):
    deal = deal_of("klondike", WEDNESDAY)
    insert_results(deal, [Figures(score=s) for s in (5, 9, 9, 1)], players=players)
    services.period_rankings_compute(variant="klondike", period="week", today=WEDNESDAY)
    first = contents()
    services.period_rankings_compute(variant="klondike", period="week", today=WEDNESDAY)
    assert contents() == first
    assert [rank for rank, *_ in first] == [1, 1, 3, 4]
    assert PeriodBest.objects.count() == 4


def test_a_recompute_drops_results_that_are_gone(players):
    deal = deal_of("klondike", WEDNESDAY)
    results = insert_results(deal, [Figures(score=s) for s in (5, 9)], players=players[:2])
    services.period_rankings_compute(variant="klondike", period="week", today=WEDNESDAY)
    results[1].delete()
    services.period_rankings_compute(variant="klondike", period="week", today=WEDNESDAY)
    assert table() == [(1, "ann", 5, False, 60_000, 100)]


def test_the_all_time_table_takes_every_week_and_keeps_other_games_apart(players):
    ann, ben, *_ = players
    insert_results(deal_of("klondike", date(2025, 1, 6)), [Figures(won=True)], players=[ann])
    insert_results(deal_of("klondike", WEDNESDAY), [Figures(score=900)], players=[ben])
    insert_results(deal_of("spike", WEDNESDAY), [Figures(score=5)], players=[ann])
    services.period_rankings_compute(variant="klondike", period="all", today=WEDNESDAY)
    assert [(r, name) for r, name, *_ in table(period="all", start=ALL_TIME_START)] == [
        (1, "ann"),
        (2, "ben"),
    ]
    assert table(variant="spike", period="all", start=ALL_TIME_START) == []


def test_the_task_computes_every_game_and_period_and_is_idempotent(players):
    insert_results(deal_of("klondike"), [Figures(score=3)], players=players[:1])
    insert_results(deal_of("spike"), [Figures(score=4)], players=players[1:2])
    counts = period_rankings_compute_task.delay().get()
    assert sum(counts.values()) == 4  # two games, two periods each
    assert {key.split(":")[0] for key in counts} == set(services.daily_deal_games())
    snapshot = sorted(PeriodBest.objects.values_list("variant", "period", "player_id", "rank"))
    period_rankings_compute_task.delay().get()
    again = sorted(PeriodBest.objects.values_list("variant", "period", "player_id", "rank"))
    assert again == snapshot


def test_on_monday_last_week_is_closed_with_its_last_results(players):
    deal = deal_of("klondike", SUNDAY)
    services.period_rankings_compute_all(today=SUNDAY)
    assert table() == []
    insert_results(deal, [Figures(score=7)], players=players[:1])  # a late Sunday finish
    counts = services.period_rankings_compute_all(today=SUNDAY + timedelta(days=1))
    assert counts[f"klondike:week:{MONDAY.isoformat()}"] == 1
    assert table() == [(1, "ann", 7, False, 60_000, 100)]


def test_the_period_selector_pages_and_finds_the_viewer(players, make_user):
    deal = deal_of("klondike", WEDNESDAY)
    insert_results(deal, [Figures(score=1_000 - i) for i in range(60)])
    services.period_rankings_compute(variant="klondike", period="week", today=WEDNESDAY)
    viewer = User.objects.get(username="p0055")
    first = selectors.period_leaderboard(
        variant="klondike", period="week", today=WEDNESDAY, viewer=viewer
    )
    assert len(first.page.object_list) == selectors.PAGE_SIZE
    assert first.page.paginator.num_pages == 2
    assert first.viewer_row is not None
    assert first.viewer_row.rank == 56
    nobody = selectors.period_leaderboard(
        variant="klondike", period="all", today=WEDNESDAY, viewer=make_user("x")
    )
    assert nobody.viewer_row is None
    assert list(nobody.page.object_list) == []  # all time not computed yet
