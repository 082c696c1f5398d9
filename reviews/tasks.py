"""Celery tasks of the review of results: thin, id-taking, idempotent (acks late).

Each task imports its services inside its body (HackSoft's direction): the
services enqueue these tasks on commit, and importing them costs no cycle."""

from uuid import UUID

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError

SWEEP_LOCK = "reviews:sweep"
# A sweep that is killed (hard time limit, lost worker) leaves its lock
# behind: it lapses a minute after the longest a sweep may last.
SWEEP_TIME_LIMIT = 300
SWEEP_LOCK_SECONDS = SWEEP_TIME_LIMIT + 60


@shared_task(
    name="reviews.tasks.game_review_task",
    acks_late=True,
    soft_time_limit=60,
    time_limit=90,
    autoretry_for=(DatabaseError,),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=10,
)
def game_review_task(game_id: str) -> bool:
    """Enqueued on commit when a game closes (settings.GAME_CLOSED_TASKS): verify
    the game by replay and run the automatic checks, once."""
    from reviews import services

    return services.game_review(game_id=UUID(game_id))


@shared_task(
    name="reviews.tasks.reviews_sweep_task",
    acks_late=True,
    soft_time_limit=SWEEP_TIME_LIMIT - 60,
    time_limit=SWEEP_TIME_LIMIT,
)
def reviews_sweep_task() -> dict[str, int]:
    """On the beat: closed games of the last days that no task reviewed, and the
    score checks that waited for enough results. One run at a time."""
    from reviews import services

    if not cache.add(SWEEP_LOCK, "1", SWEEP_LOCK_SECONDS):
        return {"reviewed": 0, "outliers_flagged": 0}
    try:
        return services.reviews_sweep(days=settings.REVIEW_SWEEP_DAYS)
    finally:
        cache.delete(SWEEP_LOCK)
