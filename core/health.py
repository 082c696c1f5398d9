"""The readiness checks behind /healthz: can this server process reach its database
and its Redis? Each check is timed and reports the class of a failure, never its
message (a connection error's text can name the host, the user or the password)."""

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis
from django.db import connections

logger = logging.getLogger(__name__)

REDIS_TIMEOUT_SECONDS = 1.0
"""A Redis that hangs fails the probe within a second instead of holding a server thread
(the orchestrator's own probe timeout is typically a few seconds)."""


@dataclass(frozen=True)
class CheckResult:
    status: str
    """"ok", "error", or "not configured" (a part this deployment has not got)."""
    ms: float
    error: str = ""
    """The exception's class name when the check failed."""

    @property
    def passed(self) -> bool:
        return self.status != "error"

    def as_dict(self) -> dict[str, object]:
        result: dict[str, object] = {"status": self.status, "ms": round(self.ms, 2)}
        if self.error:
            result["error"] = self.error
        return result


def _timed(name: str, check: Callable[[], None]) -> CheckResult:
    started = time.perf_counter()
    try:
        check()
    except Exception as error:
        logger.warning("health check %s failed", name, exc_info=True)
        return CheckResult(
            status="error", ms=(time.perf_counter() - started) * 1000, error=type(error).__name__
        )
    return CheckResult(status="ok", ms=(time.perf_counter() - started) * 1000)


def database_check(*, alias: str = "default") -> CheckResult:
    """A `SELECT 1` on the connection this process's requests use."""

    def select_one() -> None:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    return _timed("database", select_one)


def redis_check(*, url: str, timeout: float = REDIS_TIMEOUT_SECONDS) -> CheckResult:
    """A PING on a connection of its own to ``url`` (the cache, the broker and the channel
    layer all live there); "not configured" when there is no Redis (the embedded default)."""
    if not url:
        return CheckResult(status="not configured", ms=0.0)

    def ping() -> None:
        with redis.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_timeout=timeout
        ) as client:
            client.ping()

    return _timed("redis", ping)


def health_checks(*, redis_url: str) -> dict[str, CheckResult]:
    """Every check, each run whatever the others found, so that one answer names every
    part that is down."""
    return {"database": database_check(), "redis": redis_check(url=redis_url)}
