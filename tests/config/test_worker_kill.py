"""A real Celery worker on Redis, killed with SIGKILL while its tasks run: after
a restart every task has been done, once, and nothing is left on the broker.

The worker (tests/config/worker_settings.py) consumes from Redis under a key
prefix of its own, on this test's database, with a visibility timeout of a few
seconds so that the messages of the killed worker come back quickly. Every wait
polls with a bound (30 s for the first worker to start, 50 s for the rest), and
the workers are killed and the broker keys removed whatever happens.
"""

import os
from collections.abc import Iterator
from datetime import timedelta
from uuid import uuid4

import pytest
from celery import Celery
from django.conf import settings
from django.utils import timezone

from achievements.models import Evaluation
from games import services as game_services
from games.models import Game
from games.tracks import casual_track
from reviews.models import Verification
from tests.config.worker_process import Worker, database_url, needs_a_shared_database, wait_for
from tests.reviews.helpers import finished_game

VISIBILITY_TIMEOUT = 5
CLOSED_GAMES = 12
TIMED_GAMES = 8
CONCURRENCY = 2

pytestmark = pytest.mark.django_db(transaction=True)


def _needs_redis_and_a_shared_database() -> None:
    if not settings.REDIS_URL:
        pytest.skip("no broker: the embedded default runs tasks in-process (set REDIS_URL)")
    needs_a_shared_database()


@pytest.fixture
def broker(tmp_path) -> Iterator[dict[str, object]]:
    """The key prefix, a client that sends tasks under it, a Redis client and the
    worker's environment; every worker is killed and every key removed after."""
    _needs_redis_and_a_shared_database()
    import redis

    prefix = f"arena-test-kill-{uuid4().hex}:"
    started = tmp_path / "started"
    started.mkdir()
    sender = Celery("arena-kill-test", broker=settings.REDIS_URL, set_as_current=False)
    sender.conf.broker_transport_options = {"global_keyprefix": prefix}
    client = redis.Redis.from_url(settings.REDIS_URL)
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_SETTINGS_MODULE="tests.config.worker_settings",
        DATABASE_URL=database_url(),
        ARENA_TEST_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
        ARENA_TEST_BROKER_PREFIX=prefix,
        ARENA_TEST_STARTED_DIR=str(started),
    )
    workers: list[Worker] = []

    def start(**extra: str) -> Worker:
        worker = Worker(
            {**env, **extra}, tmp_path / "worker.log", name="kill-test", concurrency=CONCURRENCY
        )
        workers.append(worker)
        return worker

    try:
        yield {
            "prefix": prefix,
            "sender": sender,
            "redis": client,
            "start": start,
            "started": started,
            "log": tmp_path / "worker.log",
        }
    finally:
        for worker in workers:
            worker.kill()
        sender.close()
        for key in client.scan_iter(match=f"{prefix}*"):
            client.delete(key)
        client.close()


def timed_game(make_user, number: int) -> Game:
    """A Time Attack game whose clock ran out a minute ago with nobody looking."""
    player = make_user(f"clock{number}")
    game = game_services.game_start(
        player=player, variant="spike", track=casual_track(options={"mode": "time_attack"})
    )
    now = timezone.now()
    Game.objects.filter(id=game.id).update(
        started_at=now - timedelta(minutes=3),
        last_action_at=now - timedelta(minutes=3),
        deadline_at=now - timedelta(minutes=1),
    )
    return game


def test_tasks_of_a_killed_worker_run_again_and_each_is_done_once(broker, make_user, settings):
    settings.GAME_CLOSED_TASKS = []  # this process only deals; the worker does the rest
    closed = [finished_game(make_user(f"closer{n}"), moves=10) for n in range(CLOSED_GAMES)]
    timed = [timed_game(make_user, n) for n in range(TIMED_GAMES)]
    assert not Verification.objects.exists()
    assert not Evaluation.objects.exists()

    sender, client, prefix = broker["sender"], broker["redis"], broker["prefix"]
    # The first two messages are the ones the killed worker will be running.
    time_up, review = "games.tasks.game_time_up_task", "reviews.tasks.game_review_task"
    messages = [(time_up, timed[0]), (review, closed[0])]
    messages += [(time_up, game) for game in timed[1:]]
    messages += [(review, game) for game in closed[1:]]
    messages += [("achievements.tasks.achievements_evaluate_task", game) for game in closed]
    for name, game in messages:
        sender.send_task(name, args=(str(game.id),))

    first = broker["start"](ARENA_TEST_TASK_PAUSE="15")
    started = broker["started"]
    wait_for(
        lambda: len(list(started.iterdir())) >= CONCURRENCY,
        seconds=30,
        what=f"the first worker to start {CONCURRENCY} tasks ({broker['log']})",
    )
    first.kill()

    # Killed mid-task: both messages are still unacknowledged, their work undone.
    assert client.hlen(f"{prefix}unacked") == CONCURRENCY
    timed[0].refresh_from_db()
    assert timed[0].is_active
    assert not Verification.objects.filter(game=closed[0]).exists()

    # No beat runs here: only the broker handing those two messages out again
    # can get their work done.
    broker["start"]()
    every_game = closed + timed

    def all_done() -> bool:
        return (
            Verification.objects.filter(automatic=True).count() == len(every_game)
            and Evaluation.objects.count() == len(every_game)
            and not Game.objects.filter(id__in=[g.id for g in timed], status="active").exists()
            and client.llen(f"{prefix}celery") == 0
            and client.hlen(f"{prefix}unacked") == 0
        )

    wait_for(all_done, seconds=50, what=f"every task to be done ({broker['log']})")

    for game in every_game:
        assert Verification.objects.filter(game=game, automatic=True).count() == 1
        assert Evaluation.objects.filter(game=game).count() == 1
    for game in timed:
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert game.finished_at == game.deadline_at
