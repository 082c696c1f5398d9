"""Live ranks of daily deals in Redis sorted sets.

PostgreSQL holds every result; Redis holds a copy for fast ranks. Each deal has
a sorted set (member: player id, score: the result's rank key) and a hash of
the figures a leaderboard row shows. Everything here can be rebuilt from the
database, so a flushed or unreachable Redis loses nothing.
"""

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import ParamSpec, TypeVar, cast

import redis
from django.conf import settings

REBUILD_BATCH = 10_000
P = ParamSpec("P")
R = TypeVar("R")


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
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def client() -> "redis.Redis":
    if not enabled():
        raise RanksUnavailable("the site runs without Redis")
    return _client(settings.REDIS_URL)


def _keys(deal_id: int) -> tuple[str, str]:
    base = f"{settings.LEADERBOARD_KEY_PREFIX}:deal:{deal_id}"
    return base, f"{base}:rows"


def _guard(function: Callable[P, R]) -> Callable[P, R]:
    """Any Redis failure surfaces as RanksUnavailable, which callers fall back on."""

    @wraps(function)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except redis.RedisError as error:
            raise RanksUnavailable(str(error)) from error

    return guarded


@_guard
def publish(deal_id: int, row: RankedRow) -> None:
    ranks, rows = _keys(deal_id)
    pipe = client().pipeline(transaction=True)
    pipe.zadd(ranks, {str(row.player_id): row.rank_key})
    pipe.hset(rows, str(row.player_id), row.encode())
    pipe.execute()


@_guard
def remove(deal_id: int, player_id: int) -> None:
    ranks, rows = _keys(deal_id)
    pipe = client().pipeline(transaction=True)
    pipe.zrem(ranks, str(player_id))
    pipe.hdel(rows, str(player_id))
    pipe.execute()


@_guard
def rebuild(deal_id: int, rows: Iterable[RankedRow]) -> int:
    """Write the deal's ranks into fresh keys, then swap them in at once."""
    ranks, details = _keys(deal_id)
    staging_ranks, staging_details = f"{ranks}:staging", f"{details}:staging"
    connection = client()
    connection.delete(staging_ranks, staging_details)
    count = 0
    batch: list[RankedRow] = []

    def flush() -> None:
        pipe = connection.pipeline(transaction=False)
        pipe.zadd(staging_ranks, {str(r.player_id): r.rank_key for r in batch})
        pipe.hset(staging_details, mapping={str(r.player_id): r.encode() for r in batch})
        pipe.execute()
        batch.clear()

    for row in rows:
        batch.append(row)
        count += 1
        if len(batch) >= REBUILD_BATCH:
            flush()
    if batch:
        flush()
    pipe = connection.pipeline(transaction=True)
    if count:
        pipe.rename(staging_ranks, ranks)
        pipe.rename(staging_details, details)
    else:
        pipe.delete(ranks, details)
    pipe.execute()
    return count


@_guard
def size(deal_id: int) -> int:
    return int(client().zcard(_keys(deal_id)[0]))


@_guard
def page(deal_id: int, offset: int, limit: int) -> list[RankedRow]:
    ranks, details = _keys(deal_id)
    entries = cast(
        list[tuple[bytes, float]],
        client().zrevrange(ranks, offset, offset + limit - 1, withscores=True),
    )
    if not entries:
        return []
    raw_rows = client().hmget(details, [entry[0] for entry in entries])
    return [
        RankedRow.decode(int(member), int(score), raw)
        for (member, score), raw in zip(entries, raw_rows, strict=True)
    ]


@_guard
def rank_of(deal_id: int, player_id: int) -> tuple[int, RankedRow] | None:
    """The player's rank (1 + the results strictly better) and row, or None."""
    ranks, details = _keys(deal_id)
    pipe = client().pipeline(transaction=False)
    pipe.zscore(ranks, str(player_id))
    pipe.hget(details, str(player_id))
    score, raw = pipe.execute()
    if score is None:
        return None
    better = client().zcount(ranks, f"({int(score)}", "+inf")
    return int(better) + 1, RankedRow.decode(player_id, int(score), raw)


@_guard
def count_better(deal_id: int, rank_key: int) -> int:
    return int(client().zcount(_keys(deal_id)[0], f"({rank_key}", "+inf"))
