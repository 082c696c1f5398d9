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
    """At 00:00 UTC, the safety net behind the evening's certification: the day's deals
    (uncertified where the evening run made none), and with a worker the certification
    of those never tried. Running twice, or late, creates nothing extra."""
    from leaderboards import services
    from leaderboards.models import DailyDeal

    target = date.fromisoformat(day) if day else today_utc()
    untried = list(
        DailyDeal.objects.filter(date=target, verdict=DailyDeal.Verdict.NOT_CERTIFIED).values_list(
            "variant", flat=True
        )
    )
    deals = services.daily_deals_ensure(day=target)
    # The deals the line above created were handed to the certification on commit.
    services.daily_deal_certify_enqueue(day=target, variants=untried)
    return [deal.id for deal in deals]


@shared_task(
    name="leaderboards.tasks.daily_deals_certify_task",
    acks_late=True,
    soft_time_limit=60,
    time_limit=90,
)
def daily_deals_certify_task(day: str | None = None) -> list[str]:
    """At 22:00 UTC: one certification task per game for tomorrow's deals (or `day`'s),
    and for today's deals missing or never tried, so that a slow game holds no other.
    Returns the "day:game" pairs handed out."""
    from leaderboards import certification

    today = today_utc()
    target = date.fromisoformat(day) if day else today + timedelta(days=1)
    pairs = certification.daily_deals_to_certify(day=target, today=today)
    for deal_day, variant in pairs:
        daily_deal_certify_task.delay(deal_day.isoformat(), variant)
    return [f"{deal_day.isoformat()}:{variant}" for deal_day, variant in pairs]


@shared_task(
    name="leaderboards.tasks.daily_deal_certify_task",
    acks_late=True,
    # The search stops itself at DAILY_CERTIFY_TIME_MS (9 minutes): these are the
    # backstops of the 10 minutes a game's certification may take.
    soft_time_limit=600,
    time_limit=660,
)
def daily_deal_certify_task(day: str, variant: str) -> int:
    """One game's deal of one day, created if missing and certified (idempotent: a
    certified deal is left alone). Returns the deal's id."""
    from leaderboards import certification

    return certification.daily_deal_prepare(day=date.fromisoformat(day), variant=variant).id


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
    name="leaderboards.tasks.period_rankings_deal_task",
    acks_late=True,
    soft_time_limit=60,
    time_limit=90,
)
def period_rankings_deal_task(deal_id: int) -> dict[str, int]:
    """After a result was taken off the leaderboards or put back (the review's hold):
    the weekly and all-time tables it counts in, recomputed without waiting for the beat."""
    from leaderboards import services

    return services.period_rankings_compute_deal(deal_id=deal_id, today=today_utc())


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
    name="leaderboards.tasks.score_counts_rebuild_task",
    acks_late=True,
    soft_time_limit=120,
    time_limit=150,
)
def score_counts_rebuild_task(deal_id: int) -> int:
    """Rebuild one deal's histogram of scores from its results (by hand, after rows
    were written by raw SQL); running it twice gives the same rows."""
    from leaderboards import services

    return services.score_counts_rebuild(deal_id=deal_id)


@shared_task(
    name="leaderboards.tasks.score_counts_sync_task",
    acks_late=True,
    soft_time_limit=240,
    time_limit=300,
)
def score_counts_sync_task(days: int = 8) -> list[int]:
    """Every 10 minutes: the safety net of the histograms the services keep exact,
    for the deals of the last `days` days whose counts do not add up."""
    from leaderboards import services

    return services.score_counts_sync(since=today_utc() - timedelta(days=days))


@shared_task(
    name="leaderboards.tasks.period_rankings_compute_task",
    acks_late=True,
    soft_time_limit=240,
    time_limit=300,
)
def period_rankings_compute_task() -> dict[str, int]:
    from leaderboards import services

    return services.period_rankings_compute_all(today=today_utc())
