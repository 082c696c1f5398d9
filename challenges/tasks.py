"""Celery tasks of the daily challenges: making a day's challenges, one task per game
(each imports its services in its body)."""

from datetime import date, timedelta

from celery import shared_task

from leaderboards.periods import today_utc


@shared_task(
    name="challenges.tasks.challenges_create_task",
    acks_late=True,
    soft_time_limit=30,
    time_limit=60,
)
def challenges_create_task(days_ahead: int = 1) -> list[str]:
    """Queue the making of the challenges of the day `days_ahead` after today (UTC), one
    task per game; running it again makes nothing twice."""
    from challenges import services

    day = (today_utc() + timedelta(days=days_ahead)).isoformat()
    games = services.challenge_games()
    for variant in games:
        challenge_day_create_task.delay(day, variant)
    return games


@shared_task(
    name="challenges.tasks.challenge_day_create_task",
    acks_late=True,
    soft_time_limit=600,
    time_limit=660,
)
def challenge_day_create_task(day: str, variant: str) -> list[int]:
    """Make the day's three challenges of one game where missing (idempotent)."""
    from challenges import services

    made = services.challenges_day_make(day=date.fromisoformat(day), variant=variant)
    return [challenge.id for challenge in made]
