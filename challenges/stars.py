"""Stars and the month's badge thresholds: what the challenges page shows and the
monthly badges (achievements.declarations) are declared by, in one place.

A day has 15 challenges worth 30 stars (one, two and three by difficulty, five games),
so a month of 30 days holds 900. Bronze is a good day's work, silver about a week of
easy and medium challenges, gold a third of the month; perfect is every challenge of
the month (docs/challenges.md)."""

from dataclasses import dataclass

BRONZE, SILVER, GOLD, PERFECT = "bronze", "silver", "gold", "perfect"


@dataclass(frozen=True, kw_only=True)
class Threshold:
    badge: str
    title: str
    stars: int | None
    """Stars in the month that earn it; None for perfect (every challenge)."""


MONTH_THRESHOLDS: tuple[Threshold, ...] = (
    Threshold(badge=BRONZE, title="Bronze", stars=30),
    Threshold(badge=SILVER, title="Silver", stars=120),
    Threshold(badge=GOLD, title="Gold", stars=300),
    Threshold(badge=PERFECT, title="Perfect", stars=None),
)
