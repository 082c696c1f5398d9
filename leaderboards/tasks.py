"""Celery tasks: thin, id-taking, idempotent and safe to retry (acks late).

Each task imports its services inside its body (HackSoft's direction): the
services enqueue these tasks on commit, and importing them costs no cycle."""

import logging
from datetime import date, timedelta

from celery import shared_task

from leaderboards.periods import today_utc
from leaderboards.redis_ranks import RanksUnavailable

logger = logging.getLogger(__name__)


@shared_task(
    name="leaderboards.tasks.daily_deals_create_task",
    acks_late=True,
    soft_time_limit=60,
    time_limit=90,
)
def daily_deals_create_task(day: str | None = None) -> list[int]:
    """At 00:00 UTC: the day's deals. Running twice, or late, creates nothing extra."""
    from leaderboards import services

    target = date.fromisoformat(day) if day else today_utc()
    return [deal.id for deal in services.daily_deals_ensure(day=target)]


@shared_task(
    name="leaderboards.tasks.result_publish_task",
    acks_late=True,
    soft_time_limit=20,
    time_limit=30,
    autoretry_for=(RanksUnavailable,),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=12,
)
def result_publish_task(result_id: int) -> bool:
    from leaderboards import services

    return services.result_publish(result_id=result_id)


@shared_task(
    name="leaderboards.tasks.leaderboard_rebuild_task",
    acks_late=True,
    soft_time_limit=120,
    time_limit=150,
)
def leaderboard_rebuild_task(deal_id: int) -> int:
    from leaderboards import services

    return services.leaderboard_rebuild(deal_id=deal_id)


@shared_task(
    name="leaderboards.tasks.leaderboards_sync_task",
    acks_late=True,
    soft_time_limit=240,
    time_limit=300,
)
def leaderboards_sync_task(days: int = 8) -> list[int]:
    """Every minute: deals whose live ranks miss results are rebuilt from the database.
    While Redis is down there is nothing to do: the next run after it is back catches up."""
    from leaderboards import services

    try:
        return services.leaderboards_sync(since=today_utc() - timedelta(days=days))
    except RanksUnavailable as error:
        logger.warning("live ranks not synced, Redis unavailable: %s", error)
        return []


@shared_task(
    name="leaderboards.tasks.period_rankings_compute_task",
    acks_late=True,
    soft_time_limit=240,
    time_limit=300,
)
def period_rankings_compute_task() -> dict[str, int]:
    from leaderboards import services

    return services.period_rankings_compute_all(today=today_utc())
