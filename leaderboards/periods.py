"""The periods of the weekly and all-time tables, and the UTC day."""

from datetime import UTC, date, timedelta

from django.utils import timezone

ALL_TIME_START = date(2000, 1, 1)


def week_start(day: date) -> date:
    """Weeks run Monday to Sunday, UTC."""
    return day - timedelta(days=day.weekday())


def period_start(period: str, today: date) -> date:
    return week_start(today) if period == "week" else ALL_TIME_START


def today_utc() -> date:
    """Daily deals change at 00:00 UTC, whatever the server's zone."""
    return timezone.now().astimezone(UTC).date()
