"""scripts/bench_http.py's two-node run, small: two gunicorn nodes, a worker and a beat
on the test stack's PostgreSQL and Redis, and every check of its verification passed
(no move lost or applied twice, sessions, the move lock, tasks and ranks across nodes).

The bench makes and drops a database of its own on the server DATABASE_URL names, and
uses Redis database 10 (under a key prefix of its own, deleted at the end): the suite's
xdist workers use the database REDIS_URL names and those below it (15 and 14 in CI)."""

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH_REDIS_DATABASE = 10
CHECKS = ("moves counted", "replays", "sessions", "move lock", "tasks", "ranks")


def stack() -> tuple[str, str]:
    database_url, redis_url = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not database_url:
        pytest.skip("two nodes need a shared PostgreSQL and Redis (set DATABASE_URL, REDIS_URL)")
    if not redis_url:
        # CI runs the suite on PostgreSQL with Redis: a missing Redis there is an error.
        pytest.fail("REDIS_URL is needed with DATABASE_URL: the nodes share one Redis")
    own_redis = urlsplit(redis_url)._replace(path=f"/{BENCH_REDIS_DATABASE}").geturl()
    return database_url, own_redis


def test_two_nodes_lose_no_move_and_share_sessions_locks_tasks_and_ranks() -> None:
    database_url, redis_url = stack()
    run = subprocess.run(
        [
            sys.executable,
            "scripts/bench_http.py",
            *("--nodes", "2", "--connections", "2", "--seconds", "3", "--players", "4"),
        ],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url},
        capture_output=True,
        text=True,
        timeout=240,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    verification = run.stdout.split("Verification:", 1)[1]
    for check in CHECKS:
        assert f"PASSED  {check}:" in verification, report
    assert "FAILED" not in verification, report
