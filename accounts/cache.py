"""The Redis cache, except that the login throttle keeps working while Redis is down.

allauth keeps its rate-limit counters (failed logins, sign-ups, password resets,
under keys starting "allauth:rl:") in the default cache. With plain RedisCache an
unreachable Redis made every POST to the account pages a server error, while the
games kept working. Here those keys fall back to a local-memory cache of this
process when Redis cannot be reached (a warning is logged), so the pages answer and
throttling still applies, per process instead of shared: with N server processes an
address gets up to N times its budget until Redis is back. After a failure the
fallback is used straight away for RETRY_SECONDS, so a Redis that hangs until the
socket timeout does not slow down every request; then Redis is tried again, and its
counters are used again as soon as it answers.

Every other key behaves as with RedisCache: an error stays an error (the task locks
must not silently stop locking across workers).
"""

import logging
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

FAIL_OPEN_PREFIXES = ("allauth:rl:",)
RETRY_SECONDS = 5.0
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)

# Per process, shared by the threads' cache instances: server -> monotonic time
# until which the fallback is used without trying Redis.
_outage_until: dict[str, float] = {}


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client, keeping one redis-py client per connection pool:
    Django's makes a new one for each cache call, and building one (its table of
    response callbacks) cost about as much as the GET itself on every request's
    session read (scripts/bench_http.py). A redis-py client is safe to share between
    threads: each command takes a connection from the pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # By write or read: with several servers, this process reads from the replica
        # it first picked.
        self._clients: dict[bool, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        client = self._clients.get(write)
        if client is None:
            client = self._clients[write] = super().get_client(key, write=write)
        return client


class FailOpenRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient
        self._server_name = server
        # LocMemCache instances of one name share their storage within the process.
        self._fallback = LocMemCache(
            f"fail-open:{server}",
            {"TIMEOUT": params.get("TIMEOUT", 300), "OPTIONS": {"MAX_ENTRIES": 10_000}},
        )

    def _use_fallback(self, key: str) -> bool:
        if not key.startswith(FAIL_OPEN_PREFIXES):
            return False
        return _outage_until.get(self._server_name, 0.0) > time.monotonic()

    def _unreachable(self, key: str, error: Exception) -> bool:
        """Whether this failure is answered from the fallback (and note the outage)."""
        if not key.startswith(FAIL_OPEN_PREFIXES):
            return False
        if self._server_name not in _outage_until:
            logger.warning(
                "Redis cache unreachable (%s): rate-limit counters fall back to this "
                "process's memory until it answers again",
                error,
            )
        _outage_until[self._server_name] = time.monotonic() + RETRY_SECONDS
        return True

    def _reachable(self, key: str) -> None:
        if not key.startswith(FAIL_OPEN_PREFIXES):
            return
        if _outage_until.pop(self._server_name, None) is not None:
            logger.warning("Redis cache reachable again: rate-limit counters are shared again")

    # The four operations allauth's rate limiter uses.

    def add(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        if self._use_fallback(key):
            return self._fallback.add(key, value, timeout, version)
        try:
            added = super().add(key, value, timeout, version)
        except UNREACHABLE as error:
            if not self._unreachable(key, error):
                raise
            return self._fallback.add(key, value, timeout, version)
        self._reachable(key)
        return added

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        if self._use_fallback(key):
            return self._fallback.get(key, default, version)
        try:
            value = super().get(key, default, version)
        except UNREACHABLE as error:
            if not self._unreachable(key, error):
                raise
            return self._fallback.get(key, default, version)
        self._reachable(key)
        return value

    def set(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        if self._use_fallback(key):
            self._fallback.set(key, value, timeout, version)
            return
        try:
            super().set(key, value, timeout, version)
        except UNREACHABLE as error:
            if not self._unreachable(key, error):
                raise
            self._fallback.set(key, value, timeout, version)
            return
        self._reachable(key)

    def delete(self, key: str, version: int | None = None) -> bool:
        if self._use_fallback(key):
            return self._fallback.delete(key, version)
        try:
            deleted = super().delete(key, version)
        except UNREACHABLE as error:
            if not self._unreachable(key, error):
                raise
            return self._fallback.delete(key, version)
        self._reachable(key)
        return deleted
