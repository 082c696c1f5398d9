"""Live ranks of daily deals in Redis sorted sets.

PostgreSQL holds every result; Redis holds a copy for fast ranks. Each deal has
a sorted set (member: player id, score: the result's rank key), a hash of the
figures a leaderboard row shows, and a "built" marker that a full rebuild from
the database sets. A deal without the marker (never built, or flushed) is not
read and not written to: pages read the database and the periodic sync rebuilds
it. So a flushed or unreachable Redis loses nothing, and a flush followed by one
new result never shows a board of that one result.
"""

import json
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import Any, ParamSpec, TypeVar, cast

import redis
from django.conf import settings

REBUILD_BATCH = 10_000
STAGING_TTL_SECONDS = 3_600
# After a connection failure, Redis is not asked again for this long (per process):
# during an outage pages answer from the database at once instead of each
# waiting for a connection timeout.
BREAKER_SECONDS = 10.0
P = ParamSpec("P")
R = TypeVar("R")

# KEYS: ranks, rows, built; ARGV: member, rank key, row. Writes only into a built deal.
_PUBLISH = """
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
"""

# KEYS: ranks, rows; ARGV: offset, limit. Returns {results strictly better than
# the first entry, {member, score, ...}, {row, ...}}.
_PAGE = """
local entries = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
if #entries == 0 then return {0, {}, {}} end
local members = {}
for i = 1, #entries, 2 do members[#members + 1] = entries[i] end
local better = redis.call('ZCOUNT', KEYS[1], '(' .. entries[2], '+inf')
return {better, entries, redis.call('HMGET', KEYS[2], unpack(members))}
"""

# KEYS: ranks, rows; ARGV: member. Returns {rank key, results strictly better, row} or nil.
_RANK = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return nil end
local better = redis.call('ZCOUNT', KEYS[1], '(' .. score, '+inf')
return {score, better, redis.call('HGET', KEYS[2], ARGV[1])}
"""


# The Result lookups that give a RankedRow's fields, in its order.
RANKED_ROW_LOOKUPS = (
    "player_id",
    "player__username",
    "won",
    "score",
    "elapsed_ms",
    "move_count",
    "rank_key",
)


@dataclass(frozen=True)
class RankedRow:
    player_id: int
    username: str
    won: bool
    score: int
    elapsed_ms: int
    move_count: int
    rank_key: int

    def encode(self) -> str:
        return json.dumps(
            [self.username, self.won, self.score, self.elapsed_ms, self.move_count],
            separators=(",", ":"),
        )

    @classmethod
    def decode(cls, player_id: int, rank_key: int, raw: str | bytes | None) -> "RankedRow":
        username, won, score, elapsed_ms, move_count = json.loads(raw or '["?",false,0,0,0]')
        return cls(player_id, username, won, score, elapsed_ms, move_count, rank_key)


class RanksUnavailable(Exception):
    """Redis is not configured or cannot be reached: read the ranks from the database."""


def enabled() -> bool:
    """Live ranks are kept in Redis only when the site runs with Redis."""
    return bool(settings.REDIS_URL)


@lru_cache(maxsize=4)
def _client(url: str) -> "redis.Redis":
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=0.5)


_down_until: dict[str, float] = {}


def client() -> "redis.Redis":
    if not enabled():
        raise RanksUnavailable("the site runs without Redis")
    url = str(settings.REDIS_URL)
    if time.monotonic() < _down_until.get(url, 0.0):
        raise RanksUnavailable("Redis was unreachable a moment ago")
    return _client(url)


def breaker_reset() -> None:
    """Ask Redis again at once (tests, and after an operator fixed it)."""
    _down_until.clear()


def _member(player_id: int) -> str:
    """Zero-padded, so that results tied on the rank key come in the same order
    as from the database (player id descending) and pages match on both paths."""
    return f"{player_id:012d}"


def _keys(deal_id: int) -> tuple[str, str, str]:
    base = f"{settings.LEADERBOARD_KEY_PREFIX}:deal:{deal_id}"
    return base, f"{base}:rows", f"{base}:built"


def _guard(function: Callable[P, R]) -> Callable[P, R]:
    """Any Redis failure surfaces as RanksUnavailable, which callers fall back on."""

    @wraps(function)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as error:
            if enabled():
                _down_until[str(settings.REDIS_URL)] = time.monotonic() + BREAKER_SECONDS
            raise RanksUnavailable(str(error)) from error
        except redis.RedisError as error:
            raise RanksUnavailable(str(error)) from error

    return guarded


def _script(source: str) -> Any:
    return client().register_script(source)


@_guard
def publish(deal_id: int, row: RankedRow) -> bool:
    """Put one result into a built deal; False (and nothing written) when the
    deal is not built, for the sync to rebuild it whole."""
    return bool(
        _script(_PUBLISH)(
            keys=_keys(deal_id), args=[_member(row.player_id), row.rank_key, row.encode()]
        )
    )


@_guard
def remove(deal_id: int, player_id: int) -> bool:
    """Take a player's result off a deal at once (the review of results took it
    off the leaderboards); True if it was there."""
    ranks, details, _ = _keys(deal_id)
    pipe = client().pipeline(transaction=True)
    pipe.zrem(ranks, _member(player_id))
    pipe.hdel(details, _member(player_id))
    removed, _ = pipe.execute()
    return bool(removed)


@_guard
def rebuild(deal_id: int, rows: Iterable[RankedRow]) -> int:
    """Write the deal's ranks into fresh keys, then swap them in at once and
    mark the deal built. Two rebuilds at once each use their own keys."""
    ranks, details, built = _keys(deal_id)
    token = uuid.uuid4().hex
    staging_ranks, staging_details = f"{ranks}:staging:{token}", f"{details}:staging:{token}"
    connection = client()
    count = 0
    batch: list[RankedRow] = []

    def flush() -> None:
        pipe = connection.pipeline(transaction=False)
        pipe.zadd(staging_ranks, {_member(r.player_id): r.rank_key for r in batch})
        pipe.hset(staging_details, mapping={_member(r.player_id): r.encode() for r in batch})
        # A rebuild that dies half way leaves nothing behind for long.
        pipe.expire(staging_ranks, STAGING_TTL_SECONDS)
        pipe.expire(staging_details, STAGING_TTL_SECONDS)
        pipe.execute()
        batch.clear()

    try:
        for row in rows:
            batch.append(row)
            count += 1
            if len(batch) >= REBUILD_BATCH:
                flush()
        if batch:
            flush()
    except BaseException:
        connection.unlink(staging_ranks, staging_details)
        raise
    pipe = connection.pipeline(transaction=True)
    if count:
        pipe.rename(staging_ranks, ranks)
        pipe.rename(staging_details, details)
        pipe.persist(ranks)
        pipe.persist(details)
    else:
        pipe.unlink(ranks, details)
    pipe.set(built, "1")
    pipe.execute()
    return count


@_guard
def sizes(deal_ids: Iterable[int]) -> dict[int, int | None]:
    """How many results each deal holds in Redis; None for a deal not built."""
    ids = list(deal_ids)
    pipe = client().pipeline(transaction=False)
    for deal_id in ids:
        ranks, _, built = _keys(deal_id)
        pipe.exists(built)
        pipe.zcard(ranks)
    replies = pipe.execute()
    return {
        deal_id: int(replies[2 * i + 1]) if replies[2 * i] else None
        for i, deal_id in enumerate(ids)
    }


def size(deal_id: int) -> int | None:
    return sizes([deal_id])[deal_id]


@_guard
def page(deal_id: int, offset: int, limit: int) -> tuple[int, list[RankedRow]]:
    """Entries offset..offset+limit-1, best first, and the rank of the first
    (1 + the results strictly better than it)."""
    ranks, details, _ = _keys(deal_id)
    better, flat, raw_rows = cast(
        list[Any], _script(_PAGE)(keys=[ranks, details], args=[offset, offset + limit - 1])
    )
    rows = [
        RankedRow.decode(int(flat[i]), int(float(flat[i + 1])), raw)
        for i, raw in zip(range(0, len(flat), 2), raw_rows, strict=True)
    ]
    return int(better) + 1, rows


@_guard
def rank_of(deal_id: int, player_id: int) -> tuple[int, RankedRow] | None:
    """The player's rank (1 + the results strictly better) and row, or None."""
    ranks, details, _ = _keys(deal_id)
    reply = _script(_RANK)(keys=[ranks, details], args=[_member(player_id)])
    if reply is None:
        return None
    score, better, raw = cast(list[Any], reply)
    return int(better) + 1, RankedRow.decode(player_id, int(float(score)), raw)
