"""Celery tasks of achievements: thin, id-taking, idempotent (acks late).

Each task imports its services inside its body (HackSoft's direction): the
services enqueue these tasks on commit, and importing them costs no cycle."""

from datetime import date
from uuid import UUID

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError

CATCH_UP_LOCK = "achievements:catch-up"
# The catch-up only starts backfills (their chunks run as tasks of their own)
# and judges at most SWEEP_LIMIT games. A catch-up that is killed (hard time
# limit, lost worker) leaves its lock behind: it lapses a minute after the
# longest a run may last.
CATCH_UP_TIME_LIMIT = 90
CATCH_UP_LOCK_SECONDS = CATCH_UP_TIME_LIMIT + 60
# A chunk judges for at most services.BACKFILL_BUDGET_SECONDS (30 s).
BACKFILL_TIME_LIMIT = 90


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
    from achievements import services

    return services.achievements_evaluate(game_id=UUID(game_id))


@shared_task(
    name="achievements.tasks.achievements_backfill_task",
    acks_late=True,
    soft_time_limit=BACKFILL_TIME_LIMIT - 30,
    time_limit=BACKFILL_TIME_LIMIT,
    autoretry_for=(DatabaseError,),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=10,
)
def achievements_backfill_task(*codes: str) -> int:
    """Backfill the given achievements (every one without arguments): judge the
    next chunk of past games, then enqueue this task again, with the same
    arguments, for the chunk after it, until the walk reaches the newest game.
    When tasks run in-process the chunks run here one after another instead (a
    task that applies itself would recurse once per chunk). Returns the games
    judged."""
    from achievements import services

    selected = list(codes) or None
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return services.achievements_backfill(codes=selected)
    step = services.achievements_backfill_chunk(codes=selected)
    if not step.done:
        achievements_backfill_task.apply_async(codes)
    return step.judged


@shared_task(
    name="achievements.tasks.achievements_catch_up_task",
    acks_late=True,
    soft_time_limit=CATCH_UP_TIME_LIMIT - 30,
    time_limit=CATCH_UP_TIME_LIMIT,
)
def achievements_catch_up_task() -> dict[str, int]:
    """On the beat: start or continue the backfills, judge games and months of
    challenges a lost task missed. One at a time: a run that finds another still
    going does nothing."""
    from achievements import services

    if not cache.add(CATCH_UP_LOCK, "1", CATCH_UP_LOCK_SECONDS):
        return {"backfills_started": 0, "swept_games": 0, "swept_months": 0}
    try:
        return services.achievements_catch_up()
    finally:
        cache.delete(CATCH_UP_LOCK)


@shared_task(
    name="achievements.tasks.match_achievements_task",
    acks_late=True,
    soft_time_limit=50,
    time_limit=60,
    autoretry_for=(DatabaseError,),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=10,
)
def match_achievements_task(match_id: str) -> list[str]:
    """Enqueued when a match settles (settings.MATCH_SETTLED_TASKS): every seat's game
    judged again, now that its match's outcome is known (awards are idempotent)."""
    from achievements import services

    return services.match_achievements_evaluate(match_id=UUID(match_id))


@shared_task(
    name="achievements.tasks.challenge_month_awards_task",
    acks_late=True,
    soft_time_limit=30,
    time_limit=45,
    autoretry_for=(DatabaseError,),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=10,
)
def challenge_month_awards_task(player_id: int, month: str) -> list[str]:
    """Enqueued on commit when a player completes a challenge
    (settings.CHALLENGE_COMPLETED_TASKS), with the first day of its month: the
    month's badges judged (awards are idempotent)."""
    from achievements import services

    return services.challenge_month_awards_evaluate(
        player_id=player_id, month=date.fromisoformat(month)
    )
