"""Celery tasks of achievements: thin, id-taking, idempotent (acks late)."""

from uuid import UUID

from celery import shared_task
from django.core.cache import cache
from django.db import DatabaseError

from achievements import services

CATCH_UP_LOCK = "achievements:catch-up"
# A catch-up that is killed (hard time limit, lost worker) leaves its lock
# behind: it lapses a minute after the longest a run may last.
CATCH_UP_TIME_LIMIT = 540
CATCH_UP_LOCK_SECONDS = CATCH_UP_TIME_LIMIT + 60


@shared_task(
    name="achievements.tasks.achievements_evaluate_task",
    acks_late=True,
    soft_time_limit=30,
    time_limit=45,
    autoretry_for=(DatabaseError,),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=10,
)
def achievements_evaluate_task(game_id: str) -> list[str]:
    """Enqueued on commit when a game closes (settings.GAME_CLOSED_TASKS)."""
    return services.achievements_evaluate(game_id=UUID(game_id))


@shared_task(
    name="achievements.tasks.achievements_backfill_task",
    acks_late=True,
    soft_time_limit=CATCH_UP_TIME_LIMIT - 60,
    time_limit=CATCH_UP_TIME_LIMIT,
)
def achievements_backfill_task(code: str | None = None) -> int:
    """Judge every past game for one achievement, or for all of them."""
    return services.achievements_backfill(codes=None if code is None else [code])


@shared_task(
    name="achievements.tasks.achievements_catch_up_task",
    acks_late=True,
    soft_time_limit=CATCH_UP_TIME_LIMIT - 60,
    time_limit=CATCH_UP_TIME_LIMIT,
)
def achievements_catch_up_task() -> dict[str, int]:
    """On the beat: backfill new achievements, judge games a lost task missed.
    One at a time: a run that finds another still going does nothing."""
    if not cache.add(CATCH_UP_LOCK, "1", CATCH_UP_LOCK_SECONDS):
        return {"backfilled_games": 0, "swept_games": 0}
    try:
        return services.achievements_catch_up()
    finally:
        cache.delete(CATCH_UP_LOCK)
