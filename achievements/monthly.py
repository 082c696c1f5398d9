"""The rules of the monthly challenge badges: decided from a player's month of daily
challenges (`challenges.selectors.MonthFacts`), never from one game's `GameFacts`, so
the per-game evaluation cannot run them (a `MonthRule` is no `rules.Rule`).

A rule is pure, like every rule: the facts and the month's completions are read by
`achievements.selectors`; the thresholds are challenges.stars's, in one place."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from uuid import UUID

from challenges.selectors import MonthFacts
from challenges.stars import Threshold


def period_of(month: date) -> str:
    """The `Award.period` of a month: 2026-12."""
    return f"{month.year:04d}-{month.month:02d}"


def month_of_period(period: str) -> date:
    year, month = period.split("-")
    return date(int(year), int(month), 1)


@dataclass(frozen=True)
class MonthCompletion:
    """One completion of the month, as the award reads it."""

    game_id: UUID | None
    stars: int
    completed_at: datetime


@dataclass(frozen=True)
class MonthRule:
    """A monthly badge's rule: at least `stars` stars in the month, or, with no stars,
    every challenge of a month whose challenges are all made (`MonthFacts.perfect`)."""

    stars: int | None

    def __call__(self, facts: MonthFacts) -> bool:
        if self.stars is None:
            return facts.perfect
        return facts.stars >= self.stars

    def earned_by(self, completions: Sequence[MonthCompletion]) -> MonthCompletion | None:
        """The completion that earned the badge, of the month's completions in the
        order they happened: the one whose stars reached the threshold, or the last
        one for perfect (it completed the set). None when none did."""
        if self.stars is None:
            return completions[-1] if completions else None
        total = 0
        for completion in completions:
            total += completion.stars
            if total >= self.stars:
                return completion
        return None


def month_rule(threshold: Threshold) -> MonthRule:
    return MonthRule(stars=threshold.stars)
