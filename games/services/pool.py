"""The pool of certified winnable deals (docs/pool.md).

A player who asked for winnable deals only (``Profile.winnable_only``) gets new
casual deals of that game from a pool of seeds the solver has won, one pool per
game, rules version and option set. The pools are the option sets each game's spec
names (``GameSpec.pooled_options``); the beat task ``pools_refill_task`` keeps each
at ``POOL_TARGET_SIZE`` seeds, a few at a time, so taking a seed never waits for the
solver. A pool found empty (the embedded default's first need, or a worker behind)
and options without a pool are certified while the player waits, within
``POOL_INLINE_BUDGET_MS``; when that finds none, the deal is an ordinary one.
"""

import json
import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from time import perf_counter
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, connections, transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import Profile
from games.engine import EngineError, get_variant
from games.engine.solvers import Budget, solver_for
from games.engine.solvers.certify import Certificate, certify_new_seed
from games.models import CertifiedSeed
from games.specs import game_specs

logger = logging.getLogger(__name__)

TAKE_ATTEMPTS = 5
"""How often a take looks again when another request took the row it found (SQLite,
where there is no row lock to skip)."""


@dataclass(frozen=True, kw_only=True)
class Pool:
    """One pool: the seeds of one game, rules version and (normalized) option set."""

    variant: str
    rules_version: int
    options: dict[str, Any]
    options_key: str
    """The options as canonical JSON: what the rows are keyed by."""


@dataclass(frozen=True, kw_only=True)
class PoolRefill:
    """What one refill chunk did."""

    added: int
    waiting: int
    target: int
    busy: bool = False
    """Another refill of the same pool was running: this one did nothing."""

    @property
    def below_target(self) -> bool:
        return self.waiting < self.target


def options_key_of(options: Mapping[str, Any]) -> str:
    """Options as canonical JSON (sorted keys, no spaces)."""
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"))


def solver_available(*, variant: str) -> bool:
    try:
        solver_for(variant)
    except EngineError:
        return False
    return True


def pool_of(*, variant: str, options: Mapping[str, Any] | None) -> Pool:
    """The pool of these options (normalized by the engine: EngineError when invalid)."""
    engine_variant = get_variant(variant)
    normalized = dict(engine_variant.normalize_options(options or {}))
    return Pool(
        variant=variant,
        rules_version=engine_variant.rules_version,
        options=normalized,
        options_key=options_key_of(normalized),
    )


def pools() -> tuple[Pool, ...]:
    """Every pool kept full: each game's pooled option sets, for games whose solver is
    registered, in the order of the games."""
    found: list[Pool] = []
    for spec in game_specs():
        if not solver_available(variant=spec.key):
            continue
        for options in spec.pooled_options:
            pool = pool_of(variant=spec.key, options=options)
            if pool not in found:
                found.append(pool)
    return tuple(found)


def pool_by_key(*, variant: str, options_key: str) -> Pool | None:
    """The kept pool with this key (a task's arguments), or None when there is none
    (any more)."""
    for pool in pools():
        if pool.variant == variant and pool.options_key == options_key:
            return pool
    return None


def pool_game_choices() -> list[tuple[str, str]]:
    """The games a player can ask winnable deals of (key, name): those with a solver.
    The settings page reads it through ``settings.WINNABLE_ONLY_CHOICES``."""
    return [(spec.key, spec.name) for spec in game_specs() if solver_available(variant=spec.key)]


def winnable_only_wanted(*, player: AbstractBaseUser, variant: str) -> bool:
    """Whether the player asked for winnable deals only of this game (one read)."""
    chosen = (
        Profile.objects.filter(user_id=player.pk).values_list("winnable_only", flat=True).first()
    )
    return isinstance(chosen, list) and variant in chosen


def _waiting(pool: Pool) -> QuerySet[CertifiedSeed]:
    return CertifiedSeed.objects.filter(
        variant=pool.variant,
        rules_version=pool.rules_version,
        options_key=pool.options_key,
        dealt_at__isnull=True,
    )


def pool_waiting_count(*, pool: Pool) -> int:
    count: int = _waiting(pool).count()
    return count


def pool_take(*, pool: Pool) -> CertifiedSeed | None:
    """Take a waiting seed of the pool (any: every one is certified alike) and mark it
    dealt, or None when the pool is empty. Never hands one seed out twice: on
    PostgreSQL a row another take has locked is skipped (FOR UPDATE SKIP LOCKED), and
    everywhere the row is marked by a conditional UPDATE that only one take can win."""
    for _attempt in range(TAKE_ATTEMPTS):
        with transaction.atomic():
            # No ORDER BY: the first waiting row found, with no sort of the pool.
            found = list(_waiting(pool).select_for_update(skip_locked=True).order_by()[:1])
            if not found:
                return None
            row = found[0]
            now = timezone.now()
            marked = CertifiedSeed.objects.filter(pk=row.pk, dealt_at__isnull=True).update(
                dealt_at=now
            )
            if marked == 1:
                row.dealt_at = now
                return row
    return None


def _store(*, pool: Pool, certificate: Certificate, dealt: bool) -> CertifiedSeed | None:
    par = certificate.par
    if par is None:
        return None
    try:
        with transaction.atomic():
            return CertifiedSeed.objects.create(
                variant=pool.variant,
                rules_version=pool.rules_version,
                options=pool.options,
                options_key=pool.options_key,
                seed=certificate.seed,
                par=par,
                solve_ms=certificate.solution.ms,
                nodes=certificate.solution.nodes,
                dealt_at=timezone.now() if dealt else None,
            )
    except IntegrityError:
        # The same seed drawn twice (128 random bits: never in practice).
        logger.warning("pool: a %s seed was certified twice; dropped", pool.variant)
        return None


def pool_certify(*, pool: Pool, total_ms: int, dealt: bool = False) -> CertifiedSeed | None:
    """Draw seeds until the solver wins one, each within the game's seed budget
    (``POOL_SEED_BUDGET_MS``, or ``POOL_SEED_BUDGET_MS_BY_GAME``) and all within
    ``total_ms``; store it (dealt at once when ``dealt``), or None if none was won
    in time."""
    variant = get_variant(pool.variant)
    seed_budget_ms = settings.POOL_SEED_BUDGET_MS_BY_GAME.get(
        pool.variant, settings.POOL_SEED_BUDGET_MS
    )
    started = perf_counter()
    tried = 0
    while True:
        left_ms = total_ms - int((perf_counter() - started) * 1000)
        if left_ms < 1:
            logger.info("pool: no %s %s seed won in %d tries", pool.variant, pool.options, tried)
            return None
        tried += 1
        certificate = certify_new_seed(
            variant,
            pool.options,
            budget=Budget(ms=min(seed_budget_ms, left_ms)),
            max_tries=1,
        )
        if certificate.certified:
            return _store(pool=pool, certificate=certificate, dealt=dealt)


_process_locks: dict[str, threading.Lock] = {}
_process_locks_guard = threading.Lock()


class _RefillLock:
    """One refill of a pool at a time: a session advisory lock on PostgreSQL (across
    workers; released when the connection drops), a lock of this process elsewhere
    (the embedded default has one process)."""

    def __init__(self, pool: Pool) -> None:
        self.name = f"games.pool:{pool.variant}:{pool.rules_version}:{pool.options_key}"
        self.held = False

    def acquire(self) -> bool:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_try_advisory_lock(hashtext(%s))", [self.name])
                row = cursor.fetchone()
                self.held = bool(row and row[0])
            return self.held
        with _process_locks_guard:
            lock = _process_locks.setdefault(self.name, threading.Lock())
        self.held = lock.acquire(blocking=False)
        return self.held

    def release(self) -> None:
        if not self.held:
            return
        self.held = False
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(hashtext(%s))", [self.name])
            return
        _process_locks[self.name].release()


def pool_refill(*, pool: Pool) -> PoolRefill:
    """One chunk of a refill: certify up to ``POOL_CHUNK_SIZE`` seeds, no more than the
    pool lacks of ``POOL_TARGET_SIZE``, within ``POOL_CHUNK_SECONDS`` (each search gets
    at most the time left). Running it again on a full pool adds nothing; two at once on
    one pool: the second does nothing (``busy``)."""
    target = settings.POOL_TARGET_SIZE
    lock = _RefillLock(pool)
    if not lock.acquire():
        return PoolRefill(added=0, waiting=pool_waiting_count(pool=pool), target=target, busy=True)
    try:
        waiting = pool_waiting_count(pool=pool)
        wanted = min(settings.POOL_CHUNK_SIZE, target - waiting)
        started = perf_counter()
        added = 0
        while added < wanted:
            left_ms = settings.POOL_CHUNK_SECONDS * 1000 - int((perf_counter() - started) * 1000)
            if left_ms < 1 or pool_certify(pool=pool, total_ms=left_ms) is None:
                break
            added += 1
        return PoolRefill(added=added, waiting=waiting + added, target=target)
    finally:
        lock.release()


def pool_refill_soon(*, pool: Pool) -> None:
    """Refill the pool once the current transaction commits, off the request: a task
    for the worker; without a broker (the embedded default) a thread of this process,
    or in the caller itself when ``POOL_BACKGROUND_REFILL`` is off (tests)."""
    transaction.on_commit(lambda: _refill(pool))


def _refill(pool: Pool) -> None:
    from games.tasks import pool_refill_task

    if not settings.CELERY_TASK_ALWAYS_EAGER:
        try:
            pool_refill_task.delay(pool.variant, pool.options_key)
        except Exception:
            logger.warning("pool: could not queue a refill of %s; the beat will", pool)
        return
    if settings.POOL_BACKGROUND_REFILL:
        threading.Thread(
            target=_refill_in_thread, args=(pool,), name="pool-refill", daemon=True
        ).start()
        return
    pool_refill_task.delay(pool.variant, pool.options_key)


def _refill_in_thread(pool: Pool) -> None:
    from games.tasks import pool_refill_task

    try:
        pool_refill_task(pool.variant, pool.options_key)
    except Exception:
        logger.exception("pool: the in-process refill of %s failed", pool)
    finally:
        connections.close_all()


def pool_deal(
    *, player: AbstractBaseUser, variant: str, options: Mapping[str, Any]
) -> CertifiedSeed | None:
    """The certified seed of a new casual deal for a player who asked for winnable deals
    only of this game, or None (the player did not ask, the game has no solver, or no
    seed was won in time: an ordinary deal).

    From the pool when it has a seed, at once; refilled after the commit. A pool found
    empty, and options without a pool, are certified here within
    ``POOL_INLINE_BUDGET_MS``."""
    if not winnable_only_wanted(player=player, variant=variant):
        return None
    if not solver_available(variant=variant):
        return None
    pool = pool_of(variant=variant, options=options)
    if pool not in pools():
        return pool_certify(pool=pool, total_ms=settings.POOL_INLINE_BUDGET_MS, dealt=True)
    taken = pool_take(pool=pool)
    if taken is None:
        taken = pool_certify(pool=pool, total_ms=settings.POOL_INLINE_BUDGET_MS, dealt=True)
    pool_refill_soon(pool=pool)
    return taken
