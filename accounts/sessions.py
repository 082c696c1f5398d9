"""Sessions read from the cache and kept in the database (Django's cached_db), served by
the database alone while the cache cannot be reached.

Every request reads its session: from the database that was a query a request (a
fifth of a move's database round trips, scripts/bench_http.py); from Redis it is one
GET. The database stays the record, so a session outlives a Redis flush and signing
out (or a password change) revokes it on the server, which signed-cookie sessions
cannot do (docs/decisions.md, "Sessions").

Django's cached_db answers an unreachable Redis with a server error on the first read
that misses (its cache write is unguarded), so here a cache failure falls back to the
database for reads and is logged for writes, and for RETRY_SECONDS afterwards the
cache is not tried at all, so a Redis that hangs does not cost every request its
socket timeout.

A sign-out must reach the cached copy, or that copy would sign the old cookie (or an
app's token) in again once Redis answers, for up to CACHE_SECONDS. So a sign-out
deletes the copy first, asking Redis even while reads skip it, and where Redis does
not answer it raises SessionNotEnded before anything is deleted: the sign-out fails
(503), and the session stays whole, signed in as the answer says (accounts.signals,
config.middleware). Other deletions (a new key at log-in, a session whose hash no
longer matches) leave a copy that no request can use, and keep the lenient path.
"""

import logging
import time
from collections.abc import Callable
from typing import Any

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.contrib.sessions.models import Session
from django.core.cache.backends.base import BaseCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
RETRY_SECONDS = 5.0
CACHE_SECONDS = 900
"""How long a session stays in the cache after it was read from the database or saved."""

_outage_until = 0.0
"""Per process: the monotonic time until which sessions skip the cache."""


def _cache_skipped() -> bool:
    return _outage_until > time.monotonic()


def _cache_failed(error: Exception) -> None:
    global _outage_until
    if not _cache_skipped():
        logger.warning("Sessions: the cache is unreachable (%s); reading the database", error)
    _outage_until = time.monotonic() + RETRY_SECONDS


class SessionNotEnded(Exception):
    """A sign-out could not delete the session's cached copy (Redis did not answer):
    nothing was deleted, and the session is still live."""


class SessionStore(CachedDBStore):
    # What Django's stores set and define, which its type stubs leave out.
    _cache: BaseCache
    _session: dict[str, Any]
    _get_session_from_db: Callable[[], Session | None]

    def _cache_seconds(self, expiry: Any = None) -> int:
        return min(CACHE_SECONDS, self.get_expiry_age(expiry=expiry))

    def load(self) -> dict[str, Any]:
        if not _cache_skipped():
            try:
                data = self._cache.get(self.cache_key)
            except UNREACHABLE as error:
                _cache_failed(error)
            else:
                if data is not None:
                    return data  # type: ignore[no-any-return]
        stored = self._get_session_from_db()
        if stored is None:
            return {}
        data = self.decode(stored.session_data)
        if not _cache_skipped():
            try:
                self._cache.set(self.cache_key, data, self._cache_seconds(stored.expire_date))
            except UNREACHABLE as error:
                _cache_failed(error)
        return data

    def exists(self, session_key: str) -> bool:
        if session_key and not _cache_skipped():
            try:
                if self.cache_key_prefix + session_key in self._cache:
                    return True
            except UNREACHABLE as error:
                _cache_failed(error)
        return DBStore.exists(self, session_key)

    def save(self, must_create: bool = False) -> None:
        DBStore.save(self, must_create)
        if _cache_skipped():
            return
        try:
            self._cache.set(self.cache_key, self._session, self._cache_seconds())
        except UNREACHABLE as error:
            _cache_failed(error)

    def cached_copy_delete(self) -> None:
        """Delete this session's copy in the cache, even while reads skip the cache;
        SessionNotEnded where the cache does not answer. Called before the session
        is deleted: a request between the two that misses the cache reads the row and
        caches it again, and the deletion after (`delete`) removes that copy."""
        if self.session_key is None:
            return
        try:
            self._cache.delete(self.cache_key)
        except UNREACHABLE as error:
            _cache_failed(error)
            raise SessionNotEnded("The session store did not answer.") from error

    def delete(self, session_key: str | None = None) -> None:
        DBStore.delete(self, session_key)
        key = session_key or self.session_key
        if key is None or _cache_skipped():
            return
        try:
            self._cache.delete(self.cache_key_prefix + key)
        except UNREACHABLE as error:
            _cache_failed(error)
