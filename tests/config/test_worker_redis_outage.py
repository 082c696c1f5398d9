"""A real Celery worker whose Redis goes away and comes back, five times: the worker
reconnects by itself each time, and every task sent to it is done, once.

The broker is a redis-server of this test's own (tests/own_redis.py: a spare port,
a temporary directory, nothing saved), stopped and started again while the worker
is connected to it; the shared Redis is never touched. The worker runs as `make
worker` runs it (gossip, mingle and heartbeats on, two processes, the production
profile's transport options), and before each outage it is given one task (a closed
game's review), which it holds for TASK_SECONDS before it runs: when Redis stops the
worker holds that unacknowledged message (tasks are acknowledged late) while it waits
for the next on its free process, the state in which issue 30's worker died
(`Unrecoverable error: AttributeError("'NoneType' object has no attribute
'hostname'")`, kombu restoring the message through a connection Celery had already
collected). Nothing else is in the broker when it stops (a Redis that saves nothing
loses its queue, whatever the worker does). After the last outage the games' other
tasks (their achievements) and a last game's two show the same worker still
consuming.

Bounded in time: each outage lasts OUTAGE_SECONDS and every wait has a bound (the
whole test takes about a minute).
"""

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import Celery

from achievements.models import Evaluation
from reviews.models import Verification
from tests.config.worker_process import Worker, database_url, needs_a_shared_database, wait_for
from tests.own_redis import OwnRedis, require_redis_server
from tests.reviews.helpers import finished_game

OUTAGES = 5
OUTAGE_SECONDS = 4
TASK_SECONDS = 2
CONCURRENCY = 2
UNRECOVERABLE = "Unrecoverable error"
"""What Celery logs when its worker gives up (and exits)."""
TASKS = ("reviews.tasks.game_review_task", "achievements.tasks.achievements_evaluate_task")

pytestmark = pytest.mark.django_db(transaction=True)


class Setup:
    def __init__(self, redis_server: OwnRedis, tmp_path: Path) -> None:
        self.redis = redis_server
        self.log = tmp_path / "worker.log"
        self.done = tmp_path / "done"
        self.done.mkdir()
        started = tmp_path / "started"
        started.mkdir()
        # The worker's cache is this xdist worker's (PYTEST_XDIST_WORKER is kept), its
        # broker the Redis of this test's own.
        env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
        env.update(
            DJANGO_SETTINGS_MODULE="tests.config.worker_settings",
            DATABASE_URL=database_url(),
            ARENA_TEST_BROKER_URL=redis_server.url,
            ARENA_TEST_STARTED_DIR=str(started),
            ARENA_TEST_TASK_PAUSE=str(TASK_SECONDS),
            ARENA_TEST_DONE_DIR=str(self.done),
        )
        self.started = started
        # As `make worker` runs it: gossip, mingle and heartbeats on (their broadcast
        # consumers are the ones a lost connection tripped up).
        self.worker = Worker(env, self.log, name="outage-test", concurrency=CONCURRENCY, options=())

    def send(self, games, tasks=TASKS) -> list[str]:
        """The games' closing tasks, sent through a connection of their own (the one
        before the last outage is gone); their task ids."""
        sender = Celery("arena-outage-test", broker=self.redis.url, set_as_current=False)
        try:
            return [
                sender.send_task(name, args=(str(game.id),)).id for game in games for name in tasks
            ]
        finally:
            sender.close()

    def running(self, task_id: str) -> bool:
        return (self.started / task_id).exists()

    def runs(self, task_id: str) -> list[str]:
        path = self.done / task_id
        return path.read_text().split() if path.exists() else []

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def excerpt(self) -> str:
        """The log from the worker's last words (or its end), for a failure's message."""
        log = self.log_text()
        start = log.find(UNRECOVERABLE)
        return log[start : start + 3000] if start >= 0 else log[-3000:]

    def died(self) -> bool:
        """The worker exited, or is on its way out (it may wait for its running tasks)."""
        return not self.worker.alive() or UNRECOVERABLE in self.log_text()


@pytest.fixture
def setup(tmp_path) -> Iterator[Setup]:
    needs_a_shared_database()
    require_redis_server()
    redis_server = OwnRedis()
    redis_server.start()
    made = None
    try:
        made = Setup(redis_server, tmp_path)
        yield made
    finally:
        if made is not None:
            made.worker.kill()
        redis_server.remove()


def test_the_worker_reconnects_after_each_outage_and_does_every_task_once(
    setup, make_user, settings
):
    settings.GAME_CLOSED_TASKS = []  # this process only deals; the worker does the rest
    games = [finished_game(make_user(f"outage{n}"), moves=10) for n in range(OUTAGES + 1)]
    sent: list[str] = []
    lost_connection = "Connection to broker lost"

    for outage, game in enumerate(games[:OUTAGES]):
        # One task in flight, the other place of the pool free: the worker is holding
        # an unacknowledged message and waiting for the next when Redis goes.
        ids = setup.send([game], tasks=TASKS[:1])
        sent += ids
        wait_for(
            lambda ids=ids: all(setup.running(task_id) for task_id in ids),
            seconds=45,
            what=f"the task before outage {outage + 1} to start ({setup.log})",
        )
        setup.redis.stop()
        time.sleep(OUTAGE_SECONDS)
        setup.redis.start()
        wait_for(
            lambda ids=ids, outage=outage: (
                (
                    all(setup.runs(task_id) for task_id in ids)
                    and setup.log_text().count(lost_connection) > outage
                )
                or setup.died()
            ),
            seconds=30,
            what=f"the task of outage {outage + 1} to end ({setup.log})",
        )
        assert not setup.died(), f"outage {outage + 1}: {setup.excerpt()}"

    ids = setup.send(games[:OUTAGES], tasks=TASKS[1:]) + setup.send(games[OUTAGES:])
    sent += ids
    wait_for(
        lambda: all(setup.runs(task_id) for task_id in ids) or setup.died(),
        seconds=45,
        what=f"the tasks after the last outage to be done ({setup.log})",
    )

    assert not setup.died(), setup.excerpt()
    assert setup.log_text().count(lost_connection) == OUTAGES
    assert {task_id: setup.runs(task_id) for task_id in sent} == {
        task_id: ["SUCCESS"] for task_id in sent
    }
    for game in games:
        assert Verification.objects.filter(game=game, automatic=True).count() == 1
        assert Evaluation.objects.filter(game=game).count() == 1
