"""Settings of the real Celery worker that tests/config/test_worker_kill.py starts.

The test profile runs tasks in-process; this worker consumes them from Redis
instead, on the test database, with its broker keys under a prefix of its own.
A short visibility timeout, scanned every second, makes a killed worker's
messages come back in seconds rather than the production profile's minutes.
ARENA_TEST_TASK_PAUSE holds every task that long before it starts, so that the
test can kill the worker while its tasks are running.
"""

import os
import time
from pathlib import Path
from typing import Any

from celery.signals import task_prerun

from config.settings.test import *  # noqa: F403

CELERY_TASK_ALWAYS_EAGER = False
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ["ARENA_TEST_VISIBILITY_TIMEOUT"]),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
    "global_keyprefix": os.environ["ARENA_TEST_BROKER_PREFIX"],
}

PAUSE_SECONDS = float(os.environ.get("ARENA_TEST_TASK_PAUSE", "0"))
STARTED_DIR = Path(os.environ["ARENA_TEST_STARTED_DIR"])


@task_prerun.connect
def _mark_started_and_pause(task_id: str, **kwargs: Any) -> None:
    (STARTED_DIR / task_id).touch()
    if PAUSE_SECONDS:
        time.sleep(PAUSE_SECONDS)
