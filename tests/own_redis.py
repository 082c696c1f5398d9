"""A redis-server of a test's own: on a spare port, in a temporary directory, with
nothing saved to disk, so that the test can stop, restart or pause it without
touching the Redis the rest of the suite (and any other process) uses.

ARENA_TEST_PORTS ("21000-21999") keeps the ports it takes within a range, where
several suites share one machine; without it the system picks a spare port.
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import closing

import pytest
import redis

REDIS_SERVER = shutil.which("redis-server")


def _bindable(port: int) -> bool:
    with closing(socket.socket()) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port() -> int:
    """A port nothing listens on: in ARENA_TEST_PORTS when it names a range."""
    wanted = os.environ.get("ARENA_TEST_PORTS", "")
    if wanted:
        low, high = (int(end) for end in wanted.split("-"))
        # Start somewhere in the range, so that tests running side by side rarely
        # probe the same ports.
        span = high - low + 1
        start = (os.getpid() * 7919 + time.monotonic_ns()) % span
        for offset in range(span):
            port = low + (start + offset) % span
            if _bindable(port):
                return port
        raise RuntimeError(f"no free port in ARENA_TEST_PORTS={wanted}")
    with closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def require_redis_server() -> None:
    """Skip where no redis-server binary exists, but never in CI."""
    if REDIS_SERVER is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the tests that start their own Redis: no redis-server")
        pytest.skip("no redis-server binary here")


class OwnRedis:
    """A redis-server on a spare port of its own; `start` again after `stop` brings
    it back on the same port, empty, as a restarted server without persistence."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.directory = tempfile.mkdtemp(prefix="arena-test-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                *("--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--daemonize", "no"),
                *("--dir", self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = self.client()
        try:
            for _attempt in range(100):
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    time.sleep(0.05)
        finally:
            client.close()
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def client(self) -> "redis.Redis[bytes]":
        return redis.Redis.from_url(self.url, socket_timeout=5)

    def pause(self, milliseconds: int) -> None:
        """Hold every client's commands (this test's own server only): as a Redis that
        hangs, its connections open and silent."""
        client = self.client()
        try:
            client.execute_command("CLIENT", "PAUSE", milliseconds, "ALL")
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)
