"""Celery tasks of matches: the match clock (an ETA task at the deadline and the
periodic sweep), a shared board's turn clock, what follows a settlement, the
ratings' recompute and quick-match pairing. Each imports its services in its body."""

import logging
from uuid import UUID

from celery import shared_task
from django.conf import settings
from django.utils.module_loading import import_string

from matches.models import Match

logger = logging.getLogger(__name__)


def schedule_match_time_up(*, match_id: UUID) -> None:
    """Ask a worker to close the match at its deadline (its games' own clocks do too;
    this one also settles a match whose games all closed without settling it). Without
    a worker the first look or the sweep does."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    match = Match.objects.filter(id=match_id).only("deadline_at").first()
    if match is None or match.deadline_at is None:
        return
    try:
        match_time_up_task.apply_async(args=(str(match_id),), eta=match.deadline_at)
    except Exception:
        logger.warning("could not schedule the clock of match %s; the sweep will", match_id)


@shared_task(
    name="matches.tasks.match_time_up_task", acks_late=True, soft_time_limit=20, time_limit=30
)
def match_time_up_task(match_id: str) -> bool:
    from matches import services

    return services.match_close_if_time_up(match_id=UUID(match_id))


def schedule_duel_turn_time_up(*, match_id: UUID) -> None:
    """Ask a worker to pass for the seat to move when its turn runs out (a turn is far
    shorter than the broker's visibility timeout: no hops). Without a worker the
    first look or the sweep does."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    match = Match.objects.filter(id=match_id).only("turn_deadline_at").first()
    if match is None or match.turn_deadline_at is None:
        return
    try:
        duel_turn_time_up_task.apply_async(args=(str(match_id),), eta=match.turn_deadline_at)
    except Exception:
        logger.warning("could not schedule the turn clock of match %s; the sweep will", match_id)


@shared_task(
    name="matches.tasks.duel_turn_time_up_task",
    acks_late=True,
    soft_time_limit=20,
    time_limit=30,
)
def duel_turn_time_up_task(match_id: str) -> bool:
    from matches import services

    return services.duel_turn_time_up(match_id=UUID(match_id))


@shared_task(
    name="matches.tasks.matches_time_up_sweep_task",
    acks_late=True,
    soft_time_limit=50,
    time_limit=60,
)
def matches_time_up_sweep_task() -> int:
    from matches import services

    return services.matches_close_expired()


def match_settled_dispatch(*, match_id: UUID) -> None:
    """Hand a settled match to the tasks that follow (settings.MATCH_SETTLED_TASKS: its
    ratings, its badges). A broker that is down never fails the match: the ratings'
    recompute and the badges' backfill catch up."""
    for task_path in settings.MATCH_SETTLED_TASKS:
        try:
            import_string(task_path).delay(str(match_id))
        except Exception:
            logger.warning("could not enqueue %s for match %s", task_path, match_id)


@shared_task(
    name="matches.tasks.match_ratings_task", acks_late=True, soft_time_limit=50, time_limit=60
)
def match_ratings_task(match_id: str) -> bool:
    from matches import services

    return services.match_ratings_apply(match_id=UUID(match_id))


@shared_task(
    name="matches.tasks.ratings_recompute_task",
    acks_late=True,
    soft_time_limit=240,
    time_limit=300,
)
def ratings_recompute_task(mode: str) -> int:
    from matches import services

    return services.ratings_recompute(mode=mode)


@shared_task(
    name="matches.tasks.queue_pair_task", acks_late=True, soft_time_limit=20, time_limit=30
)
def queue_pair_task() -> int:
    from matches import services

    return services.queue_pair_all()
