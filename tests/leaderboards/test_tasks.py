"""The Celery side: one beat schedule, tasks that take ids and acknowledge late."""

import json

import pytest
from celery.schedules import crontab
from django.conf import settings

from config.celery import app
from leaderboards import tasks
from leaderboards.tasks import result_publish_task
from tests.leaderboards.helpers import deal_of, play_daily_and_finish

LEADERBOARD_TASKS = [
    tasks.daily_deals_create_task,
    tasks.result_publish_task,
    tasks.leaderboard_rebuild_task,
    tasks.leaderboards_sync_task,
    tasks.period_rankings_compute_task,
    tasks.period_rankings_deal_task,
    tasks.score_counts_rebuild_task,
    tasks.score_counts_sync_task,
]


def test_every_scheduled_task_exists():
    app.loader.import_default_modules()
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry["task"] in app.tasks, name


def test_the_daily_deals_come_at_midnight_utc_and_the_tables_keep_up():
    schedule = settings.CELERY_BEAT_SCHEDULE
    daily = schedule["daily-deals"]["schedule"]
    assert isinstance(daily, crontab)
    assert (daily.hour, daily.minute) == ({0}, {0})
    assert settings.CELERY_TIMEZONE == "UTC"
    assert schedule["leaderboards-sync"]["task"] == "leaderboards.tasks.leaderboards_sync_task"
    assert schedule["period-rankings"]["task"] == "leaderboards.tasks.period_rankings_compute_task"


@pytest.mark.parametrize("task", LEADERBOARD_TASKS, ids=lambda task: task.name)
def test_tasks_acknowledge_late_so_a_killed_workers_task_runs_again(task):
    assert task.acks_late is True
    assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True


@pytest.mark.django_db
def test_tasks_take_ids_and_return_plain_data(player):
    deal = deal_of("klondike")
    play_daily_and_finish(player, deal)
    outcomes = [
        tasks.daily_deals_create_task.delay(deal.date.isoformat()).get(),
        tasks.leaderboard_rebuild_task.delay(deal.id).get(),
        tasks.leaderboards_sync_task.delay().get(),
        tasks.period_rankings_compute_task.delay().get(),
    ]
    json.dumps(outcomes)  # nothing but ids, counts and names


@pytest.mark.django_db
def test_publishing_a_result_that_is_gone_does_nothing():
    assert result_publish_task.delay(987_654).get() is False
