"""The deals' histograms of scores: kept exact by the services that write results,
and rebuilt from the results by the task to the same rows."""

import random

import pytest
from django.contrib.auth.models import User

from leaderboards import selectors, services, tasks
from leaderboards.models import Result, ScoreCount
from tests.leaderboards.helpers import (
    Figures,
    committed,
    deal_of,
    insert_results,
    play_daily_and_finish,
)

pytestmark = pytest.mark.django_db


def histogram(deal):
    return set(ScoreCount.objects.filter(daily_deal=deal).values_list("bucket", "count"))


def counted_from_results(deal):
    """The histogram a plain grouping of the listed results gives."""
    rule = selectors.ranking_rule_for(deal.variant)
    counts: dict[int, int] = {}
    for key in Result.objects.listed().filter(daily_deal=deal).values_list("rank_key", flat=True):
        counts[rule.bucket(key)] = counts.get(rule.bucket(key), 0) + 1
    return set(counts.items())


def random_figures(seed, n):
    chooser = random.Random(seed)
    return [
        Figures(
            won=chooser.random() < 0.4,
            score=chooser.randint(-20, 20),
            elapsed_ms=chooser.randint(1, 600) * 1000,
            move_count=chooser.randint(1, 300),
        )
        for _ in range(n)
    ]


def test_a_recorded_result_is_counted_in_its_bucket(make_user):
    deal = deal_of("klondike")
    players = [make_user(f"p{i}") for i in range(3)]
    for player in players:
        play_daily_and_finish(player, deal)
    assert sum(count for _, count in histogram(deal)) == 3
    assert histogram(deal) == counted_from_results(deal)
    ranks = {selectors.player_rank(deal=deal, player=player) for player in players}
    assert ranks == {1}  # three finishes without a move tie


def test_taking_a_result_off_and_back_changes_the_histogram_with_it():
    deal = deal_of("klondike")
    results = insert_results(deal, random_figures(1, 30))
    with committed():
        assert services.result_listing_set(game_id=results[3].game_id, listed=False)
    assert histogram(deal) == counted_from_results(deal)
    assert selectors._total(deal) == 29
    with committed():
        assert services.result_listing_set(game_id=results[3].game_id, listed=True)
    assert histogram(deal) == counted_from_results(deal)
    assert selectors._total(deal) == 30


def test_a_result_deleted_with_its_player_leaves_the_histogram():
    deal = deal_of("klondike")
    results = insert_results(deal, random_figures(2, 20))
    User.objects.filter(id__in=[results[0].player_id, results[7].player_id]).delete()
    assert histogram(deal) == counted_from_results(deal)
    assert selectors._total(deal) == 18


def test_the_rebuild_task_reproduces_the_histogram_and_runs_twice_the_same():
    deal = deal_of("klondike")
    insert_results(deal, random_figures(3, 200))
    kept = histogram(deal)
    assert kept == counted_from_results(deal)
    ScoreCount.objects.filter(daily_deal=deal).delete()
    assert tasks.score_counts_rebuild_task.delay(deal.id).get() == 200
    assert histogram(deal) == kept
    assert tasks.score_counts_rebuild_task.delay(deal.id).get() == 200
    assert histogram(deal) == kept


def test_the_sync_rebuilds_only_the_deals_whose_counts_do_not_add_up():
    deal, other = deal_of("klondike"), deal_of("spike")
    insert_results(deal, random_figures(4, 40))
    insert_results(other, random_figures(5, 10), prefix="s")
    kept = histogram(deal)
    ScoreCount.objects.filter(daily_deal=deal).delete()  # as if written by raw SQL
    assert tasks.score_counts_sync_task.delay().get() == [deal.id]
    assert histogram(deal) == kept
    assert tasks.score_counts_sync_task.delay().get() == []


def test_ranks_on_a_score_time_board_agree_with_a_plain_count():
    deal = deal_of("spike")
    results = insert_results(deal, random_figures(6, 80))
    for result in results:
        plain = sum(other.rank_key > result.rank_key for other in results) + 1
        assert selectors.player_rank(deal=deal, player=result.player) == plain
