"""A real Celery worker in a process of its own, for the tests that kill it or take its
broker away (tests/config/test_worker_kill.py, test_worker_redis_outage.py)."""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote
from uuid import uuid4

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
QUIET = ("--without-gossip", "--without-mingle", "--without-heartbeat")
"""A worker that talks to no other worker: only its tasks' messages on the broker."""


def needs_a_shared_database() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the worker process needs a database it can share (set DATABASE_URL)")


def database_url() -> str:
    """The test database, as DATABASE_URL names it to the worker."""
    db = connection.settings_dict
    credentials = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        credentials += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{credentials}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


def wait_for(condition: Callable[[], bool], *, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {seconds} s waiting for {what}")
        time.sleep(0.1)


class Worker:
    """`celery -A config worker` in a process group of its own, so that SIGKILL
    takes the main process and its pool children together, as a lost machine would."""

    def __init__(
        self,
        env: dict[str, str],
        log: Path,
        *,
        name: str,
        concurrency: int,
        options: tuple[str, ...] = QUIET,
    ) -> None:
        self.log = log.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=prefork",
                f"--concurrency={concurrency}",
                "--loglevel=INFO",
                *options,
                f"--hostname={name}-{uuid4().hex[:8]}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.log.close()
