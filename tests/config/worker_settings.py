"""Settings of the real Celery worker that tests/config/test_worker_kill.py starts.

The test profile runs tasks in-process; this worker consumes them from Redis
instead, on the test database, with its broker keys under a prefix of its own.
A short visibility timeout, scanned every second, makes a killed worker's
messages come back in seconds rather than the production profile's minutes.
ARENA_TEST_TASK_PAUSE holds every task that long before it starts, so that the
test can kill the worker while its tasks are running. ARENA_TEST_BROKER_URL puts the
broker on a Redis of the test's own instead, with the production profile's transport
options (tests/config/test_worker_redis_outage.py stops and restarts it), and
ARENA_TEST_DONE_DIR gets a line for every run of a task that
returned, so that the test can count the runs.
"""

import os
import time
from pathlib import Path
from typing import Any

from celery.signals import task_postrun, task_prerun

from config.settings.test import *  # noqa: F403

CELERY_TASK_ALWAYS_EAGER = False
BROKER_OF_ITS_OWN = os.environ.get("ARENA_TEST_BROKER_URL")
if BROKER_OF_ITS_OWN:
    # A Redis of the test's own, with nothing else in it: the production profile's
    # transport options, as the worker meets them in production.
    CELERY_BROKER_URL = BROKER_OF_ITS_OWN
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": int(os.environ["ARENA_TEST_VISIBILITY_TIMEOUT"]),
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
        "global_keyprefix": os.environ["ARENA_TEST_BROKER_PREFIX"],
    }

PAUSE_SECONDS = float(os.environ.get("ARENA_TEST_TASK_PAUSE", "0"))
STARTED_DIR = Path(os.environ["ARENA_TEST_STARTED_DIR"])
DONE_DIR = os.environ.get("ARENA_TEST_DONE_DIR")


@task_prerun.connect
def _mark_started_and_pause(task_id: str, **kwargs: Any) -> None:
    (STARTED_DIR / task_id).touch()
    if PAUSE_SECONDS:
        time.sleep(PAUSE_SECONDS)


@task_postrun.connect
def _count_done(task_id: str, state: str | None = None, **kwargs: Any) -> None:
    if DONE_DIR:
        with (Path(DONE_DIR) / task_id).open("a") as runs:
            runs.write(f"{state}\n")
