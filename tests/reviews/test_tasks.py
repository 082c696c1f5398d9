"""The Celery side of the review: a task on every close, a sweep on the beat,
tasks that acknowledge late and take ids."""

import pytest
from django.conf import settings

from config.celery import app
from reviews import tasks
from reviews.models import Verification
from tests.reviews.helpers import committed, finished_game

REVIEW_TASKS = [tasks.game_review_task, tasks.reviews_sweep_task]


def test_the_review_follows_every_close_and_the_sweep_is_on_the_beat():
    app.loader.import_default_modules()
    assert "reviews.tasks.game_review_task" in settings.GAME_CLOSED_TASKS
    entry = settings.CELERY_BEAT_SCHEDULE["reviews-sweep"]
    assert entry["task"] == "reviews.tasks.reviews_sweep_task"
    assert entry["task"] in app.tasks


@pytest.mark.parametrize("task", REVIEW_TASKS, ids=lambda task: task.name)
def test_tasks_acknowledge_late(task):
    assert task.acks_late is True


@pytest.mark.django_db
def test_a_broker_down_never_fails_the_finished_game(player, monkeypatch):
    def refuse(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.game_review_task, "delay", refuse)
    with committed():
        game = finished_game(player, moves=3)
    assert game.status == "finished"
    assert not Verification.objects.filter(game=game).exists()  # the sweep will


@pytest.mark.django_db
def test_one_sweep_at_a_time(player):
    from django.core.cache import cache

    finished_game(player, moves=3)
    cache.add(tasks.SWEEP_LOCK, "1", 60)
    assert tasks.reviews_sweep_task.delay().get() == {"reviewed": 0, "outliers_flagged": 0}
