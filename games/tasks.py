"""Celery tasks of games: closing timed games when their clock runs out, and keeping
the pools of certified winnable deals full (games.services.pool).

Each task imports its services inside its body (HackSoft's direction): the
services enqueue these tasks on commit, and importing them costs no cycle."""

import logging
from datetime import datetime, timedelta
from uuid import UUID

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games.models import Game

logger = logging.getLogger(__name__)


def schedule_time_up(*, game_id: UUID, deadline: datetime | None) -> None:
    """Ask a worker to close the game at its deadline. Without a worker (tasks
    run in-process) nothing is scheduled: the game is closed the next time it
    is looked at, and the periodic sweep closes any that a lost task missed.

    The broker hands a message out again once it has gone unacknowledged for
    its visibility timeout, and a worker holds a message with an ETA
    unacknowledged until then: so no ETA lies further off than half that
    timeout, and a farther deadline is reached in hops (the task comes back)."""
    if deadline is None or settings.CELERY_TASK_ALWAYS_EAGER:
        return
    hop = timedelta(seconds=settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] / 2)
    try:
        game_time_up_task.apply_async(args=(str(game_id),), eta=min(deadline, timezone.now() + hop))
    except Exception:
        logger.warning("could not schedule the clock of game %s; the sweep will", game_id)


@shared_task(
    name="games.tasks.game_time_up_task", acks_late=True, soft_time_limit=20, time_limit=30
)
def game_time_up_task(game_id: str) -> bool:
    """Close the game if its time is up; if its deadline is still ahead (bonus
    time moved it, or this run was a hop towards it), come back then."""
    from games import services

    if services.game_close_if_time_up(game_id=UUID(game_id)):
        return True
    game = Game.objects.filter(id=game_id, status=Game.Status.ACTIVE).only("deadline_at").first()
    if game is not None and game.deadline_at is not None:
        schedule_time_up(game_id=game.id, deadline=game.deadline_at)
    return False


@shared_task(
    name="games.tasks.games_time_up_sweep_task", acks_late=True, soft_time_limit=50, time_limit=60
)
def games_time_up_sweep_task() -> int:
    from games import services

    return services.games_close_expired()


@shared_task(
    name="games.tasks.pool_refill_task", acks_late=True, soft_time_limit=240, time_limit=300
)
def pool_refill_task(variant: str, options_key: str) -> int:
    """One chunk of the refill of one pool (its game key and canonical options); while
    the pool is still below its target and the chunk added seeds, the task comes back
    for the next chunk. Idempotent: on a full pool it adds nothing, and a run beside
    another of the same pool does nothing. The seeds it adds are kept if it is killed."""
    from games.services import pool as pools

    pool = pools.pool_by_key(variant=variant, options_key=options_key)
    if pool is None:
        logger.info("pool refill: no pool %s %s (any more)", variant, options_key)
        return 0
    refill = pools.pool_refill(pool=pool)
    if refill.added and refill.below_target:
        pool_refill_task.delay(variant, options_key)
    return refill.added


@shared_task(
    name="games.tasks.pools_refill_task", acks_late=True, soft_time_limit=50, time_limit=60
)
def pools_refill_task() -> int:
    """The beat's entry: a refill of every pool below its target; how many were queued."""
    from games.services import pool as pools

    queued = 0
    for pool in pools.pools():
        if pools.pool_waiting_count(pool=pool) < settings.POOL_TARGET_SIZE:
            pool_refill_task.delay(pool.variant, pool.options_key)
            queued += 1
    return queued
