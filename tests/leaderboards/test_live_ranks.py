"""Live ranks in Redis: published on commit, rebuilt from PostgreSQL after a
flush, and caught up after an outage. PostgreSQL is the source of truth."""

import time

import pytest

from games.models import Game
from leaderboards import redis_ranks, selectors, services
from leaderboards.models import Result
from leaderboards.tasks import leaderboard_rebuild_task, leaderboards_sync_task
from tests.leaderboards.helpers import (
    Figures,
    deal_of,
    insert_results,
    play_daily_and_finish,
    requires_redis,
    start_daily,
)

pytestmark = pytest.mark.django_db
UNREACHABLE = "redis://127.0.0.1:1/0"


def usernames(page):
    return sorted(row.username for row in page.rows)


def test_without_redis_the_ranks_come_from_the_database(settings, player):
    settings.REDIS_URL = ""
    deal = deal_of("klondike")
    play_daily_and_finish(player, deal)
    page = selectors.leaderboard_for_deal(deal=deal, viewer=player)
    assert page.source == "database"
    assert page.viewer_row is not None
    assert page.viewer_row.rank == 1
    assert leaderboards_sync_task.delay().get() == []
    assert services.leaderboard_rebuild(deal_id=deal.id) == 0
    assert services.result_publish(result_id=Result.objects.get().id) is False


@requires_redis
class TestWithRedis:
    def test_a_finish_publishes_the_result_on_commit(self, player, make_user):
        deal = deal_of("klondike")
        leaderboards_sync_task.delay().get()  # the minute's sync builds the new deal
        assert redis_ranks.size(deal.id) == 0
        game = play_daily_and_finish(player, deal)
        assert redis_ranks.size(deal.id) == 1
        page = selectors.leaderboard_for_deal(deal=deal, viewer=player)
        assert page.source == "redis"
        assert [(r.rank, r.username, r.score) for r in page.rows] == [
            (1, player.username, game.final_score)
        ]
        assert page.viewer_row == page.rows[0]
        play_daily_and_finish(make_user("bob"), deal)
        assert selectors.leaderboard_for_deal(deal=deal).total == 2

    def test_nothing_is_published_before_the_commit(self, player):
        from django.test import TestCase

        from games import services as game_services

        deal = deal_of("klondike")
        services.leaderboard_rebuild(deal_id=deal.id)
        game = start_daily(player, deal)
        with TestCase.captureOnCommitCallbacks(execute=False) as hooks:
            game_services.game_finish(game_id=game.id, player=player, revision=game.revision)
            assert redis_ranks.size(deal.id) == 0
        assert hooks
        assert redis_ranks.size(deal.id) == 0  # the transaction was never committed
        for hook in hooks:
            hook()
        assert redis_ranks.size(deal.id) == 1

    def test_a_practice_game_publishes_nothing(self, player):
        deal = deal_of("klondike")
        services.leaderboard_rebuild(deal_id=deal.id)
        play_daily_and_finish(player, deal)
        play_daily_and_finish(player, deal)
        assert redis_ranks.size(deal.id) == 1

    def test_publishing_twice_has_one_effect(self, player):
        deal = deal_of("klondike")
        services.leaderboard_rebuild(deal_id=deal.id)
        play_daily_and_finish(player, deal)
        result = Result.objects.get()
        assert services.result_publish(result_id=result.id) is True
        assert redis_ranks.size(deal.id) == 1

    def test_after_a_flush_the_page_reads_the_database_and_the_sync_rebuilds(
        self, player, make_user
    ):
        deal = deal_of("klondike")
        services.leaderboard_rebuild(deal_id=deal.id)
        players = [player, make_user("bob"), make_user("carol")]
        for someone in players:
            play_daily_and_finish(someone, deal)
        before = selectors.leaderboard_for_deal(deal=deal, viewer=player)
        assert before.source == "redis"

        redis_ranks.client().flushdb()
        during = selectors.leaderboard_for_deal(deal=deal, viewer=player)
        assert during.source == "database"
        assert during.rows == before.rows
        assert during.viewer_row == before.viewer_row

        assert deal.id in leaderboards_sync_task.delay().get()
        after = selectors.leaderboard_for_deal(deal=deal, viewer=player)
        assert after.source == "redis"
        assert after.rows == before.rows
        assert after.viewer_row == before.viewer_row
        assert leaderboards_sync_task.delay().get() == []  # nothing left to catch up

    def test_a_finish_after_a_flush_never_shows_a_board_of_one(self, player, make_user):
        deal = deal_of("klondike")
        services.leaderboard_rebuild(deal_id=deal.id)
        insert_results(deal, [Figures(score=s) for s in (10, 20, 30)])
        services.leaderboard_rebuild(deal_id=deal.id)
        redis_ranks.client().flushdb()
        play_daily_and_finish(player, deal)  # published into a deal not built: skipped
        page = selectors.leaderboard_for_deal(deal=deal)
        assert (page.source, page.total) == ("database", 4)
        assert deal.id in leaderboards_sync_task.delay().get()
        page = selectors.leaderboard_for_deal(deal=deal)
        assert (page.source, page.total) == ("redis", 4)

    def test_the_rebuild_task_replaces_what_redis_held(self, player):
        deal = deal_of("klondike")
        results = insert_results(deal, [Figures(score=s) for s in (10, 20, 30)])
        assert leaderboard_rebuild_task.delay(deal.id).get() == 3
        Result.objects.filter(id=results[2].id).delete()  # e.g. an account deleted
        assert leaderboard_rebuild_task.delay(deal.id).get() == 2
        assert leaderboard_rebuild_task.delay(deal.id).get() == 2
        page = selectors.leaderboard_for_deal(deal=deal)
        assert (page.source, usernames(page)) == ("redis", ["p0000", "p0001"])
        leftovers = redis_ranks.client().keys(f"*deal:{deal.id}:*staging*")
        assert leftovers == []

    def test_a_finish_while_redis_is_unreachable_still_finishes_and_the_sync_catches_up(
        self, settings, player, make_user
    ):
        deal = deal_of("klondike")
        play_daily_and_finish(make_user("bob"), deal)
        leaderboards_sync_task.delay().get()
        assert redis_ranks.size(deal.id) == 1
        reachable = settings.REDIS_URL

        settings.REDIS_URL = UNREACHABLE
        started = time.monotonic()
        game = play_daily_and_finish(player, deal)
        assert time.monotonic() - started < 5
        assert game.status == Game.Status.FINISHED
        assert Result.objects.filter(game=game).exists()
        page = selectors.leaderboard_for_deal(deal=deal, viewer=player)
        assert page.source == "database"
        assert page.total == 2
        assert page.viewer_row is not None

        settings.REDIS_URL = reachable
        assert redis_ranks.size(deal.id) == 1  # the outage missed it
        assert deal.id in leaderboards_sync_task.delay().get()
        page = selectors.leaderboard_for_deal(deal=deal, viewer=player)
        assert (page.source, page.total) == ("redis", 2)
        assert page.viewer_row is not None

    def test_the_sync_waits_quietly_while_redis_is_down(self, settings, player):
        deal = deal_of("klondike")
        play_daily_and_finish(player, deal)
        settings.REDIS_URL = UNREACHABLE
        assert leaderboards_sync_task.delay().get() == []
        assert Result.objects.filter(daily_deal=deal).count() == 1

    def test_pages_skip_redis_for_a_moment_after_it_failed(self, settings, player):
        deal = deal_of("klondike")
        insert_results(deal, [Figures(score=1)])
        services.leaderboard_rebuild(deal_id=deal.id)
        reachable = settings.REDIS_URL
        settings.REDIS_URL = UNREACHABLE
        assert selectors.leaderboard_for_deal(deal=deal).source == "database"
        with pytest.raises(redis_ranks.RanksUnavailable, match="a moment ago"):
            redis_ranks.client()
        settings.REDIS_URL = reachable
        assert selectors.leaderboard_for_deal(deal=deal).source == "redis"

    def test_keys_carry_the_configured_prefix(self, settings):
        deal = deal_of("klondike")
        insert_results(deal, [Figures(score=1)])
        services.leaderboard_rebuild(deal_id=deal.id)
        keys = {k.decode() for k in redis_ranks.client().keys("*")}
        prefix = f"{settings.LEADERBOARD_KEY_PREFIX}:deal:{deal.id}"
        assert {prefix, f"{prefix}:rows", f"{prefix}:built"} <= keys
