"""Reads of the daily challenges. What pages receive holds a challenge's goal in words,
its difficulty and the player's standing, never its seed, and its proof line only once
the proof is open (challenges.proof)."""

import calendar
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Max, Sum

from challenges.models import Challenge, Completion
from challenges.stars import MONTH_THRESHOLDS, Threshold
from games.engine import get_variant
from games.engine.goals import goal_description, goal_of
from games.models import Game
from games.specs import game_keys


def month_of(day: date) -> date:
    """The first day of the day's month: what a month's stars are counted by."""
    return day.replace(day=1)


def month_end(month: date) -> date:
    return month.replace(day=calendar.monthrange(month.year, month.month)[1])


def day_open(*, day: date, today: date) -> bool:
    """A day's challenges are listed and played once the day has begun (UTC); a later
    day's are not open yet."""
    return day <= today


def day_practice(*, day: date, today: date) -> bool:
    """The day's month is over: its challenges are played as practice, no star counts."""
    return month_of(day) < month_of(today)


def counts_for_stars(*, challenge: Challenge, day: date) -> bool:
    """Whether a goal met on `day` earns the challenge's stars: from its own day to the
    end of its month."""
    return challenge.date <= day and month_of(challenge.date) == month_of(day)


def proof_open(*, challenge: Challenge, completed: bool, today: date) -> bool:
    """Whether the solver's proof may be shown: once the challenge's day is over, to a
    player who completed it, and to everyone once its month is over (no star depends on
    it any more)."""
    if challenge.date >= today:
        return False
    return completed or month_of(challenge.date) < month_of(today)


@dataclass(frozen=True, kw_only=True)
class ChallengeEntry:
    id: int
    date: date
    variant: str
    variant_name: str
    difficulty: int
    difficulty_label: str
    stars: int
    words: str
    goal: dict[str, Any]
    """The goal as data (games.engine.goals.Goal.as_json): its kind and figures."""
    done: bool
    playable: bool
    """It can be played today (its day has begun)."""
    earns_stars: bool
    """A completion today still earns its stars (its month is the current one)."""
    proof_open: bool
    review: str = ""
    """Not done because the review holds the player's game that met the goal
    (Game.ReviewHold: "held" before "voided"); empty otherwise."""


def _entry(challenge: Challenge, *, done: bool, today: date, review: str = "") -> ChallengeEntry:
    engine = get_variant(challenge.variant)
    goal = goal_of(challenge.goal, engine)
    return ChallengeEntry(
        id=challenge.id,
        date=challenge.date,
        variant=challenge.variant,
        variant_name=engine.name,
        difficulty=challenge.difficulty,
        difficulty_label=challenge.get_difficulty_display(),
        stars=challenge.stars,
        words=goal_description(goal, engine),
        goal=goal.as_json(),
        done=done,
        playable=day_open(day=challenge.date, today=today),
        earns_stars=counts_for_stars(challenge=challenge, day=today),
        proof_open=proof_open(challenge=challenge, completed=done, today=today),
        review="" if done else review,
    )


def _completed_ids(player: AbstractBaseUser | None, challenges: list[Challenge]) -> set[int]:
    if player is None or not player.is_authenticated or not challenges:
        return set()
    return set(
        Completion.objects.filter(
            player_id=player.pk, challenge_id__in=[c.id for c in challenges]
        ).values_list("challenge_id", flat=True)
    )


def _held_goals(player: AbstractBaseUser | None, challenges: list[Challenge]) -> dict[int, str]:
    """For each challenge, the review's hold on the player's game of it that met the
    goal on a day that earns its stars, when one is held (one query)."""
    if player is None or not player.is_authenticated or not challenges:
        return {}
    by_ref = {challenge.track_ref: challenge for challenge in challenges}
    held = (
        Game.objects.held()
        .filter(
            player_id=player.pk,
            track=Game.Track.CHALLENGE,
            track_ref__in=list(by_ref),
            goal_met_at__isnull=False,
        )
        .values_list("track_ref", "review_hold", "goal_met_at")
    )
    holds: dict[int, set[str]] = {}
    for ref, hold, met_at in held:
        if met_at is not None and counts_for_stars(challenge=by_ref[ref], day=met_at.date()):
            holds.setdefault(by_ref[ref].id, set()).add(hold)
    return {
        challenge_id: next(hold for hold in Game.ReviewHold.values if hold in kinds)
        for challenge_id, kinds in holds.items()
    }


def challenges_of_day(
    *, day: date, player: AbstractBaseUser | None, today: date
) -> list[ChallengeEntry]:
    """The day's challenges, game by game in the site's order, easy to hard (three
    queries: the challenges, the player's completions of them, their held games)."""
    order = {key: index for index, key in enumerate(game_keys())}
    challenges = sorted(
        Challenge.objects.filter(date=day, variant__in=order).defer(
            "seed", "proof_line", "options"
        ),
        key=lambda c: (order[c.variant], c.difficulty),
    )
    done = _completed_ids(player, challenges)
    held = _held_goals(player, [c for c in challenges if c.id not in done])
    return [
        _entry(challenge, done=challenge.id in done, today=today, review=held.get(challenge.id, ""))
        for challenge in challenges
    ]


def challenge_entry(
    *, challenge_id: int, player: AbstractBaseUser | None, today: date
) -> ChallengeEntry:
    """One challenge as the pages show it; Challenge.DoesNotExist when there is none."""
    challenge = Challenge.objects.defer("seed", "proof_line").get(
        id=challenge_id, variant__in=game_keys()
    )
    done = challenge.id in _completed_ids(player, [challenge])
    return _entry(challenge, done=done, today=today)


@dataclass(frozen=True, kw_only=True)
class MonthFacts:
    """A player's month of challenges: what the stars and the monthly badges read."""

    month: date
    stars: int
    completed: int
    challenges: int
    """The month's challenges made so far."""
    month_made: bool
    """Every day of the month has all its challenges (perfect is decided only then)."""
    last_star_at: datetime | None = None
    """When the player's last completion of the month was, or None."""

    @property
    def perfect(self) -> bool:
        return self.month_made and self.challenges > 0 and self.completed == self.challenges


def month_facts(*, player_id: int, month: date) -> MonthFacts:
    """A player's stars and completions of the month, and how many challenges it has."""
    month = month_of(month)
    mine = Completion.objects.filter(player_id=player_id, month=month).aggregate(
        stars=Sum("stars"), completed=Count("id"), last=Max("completed_at")
    )
    in_month = Challenge.objects.filter(date__gte=month, date__lte=month_end(month))
    per_day = in_month.values("date").annotate(made=Count("id"))
    full_day = 3 * len(game_keys())
    full_days = sum(1 for row in per_day if row["made"] >= full_day)
    return MonthFacts(
        month=month,
        stars=mine["stars"] or 0,
        completed=mine["completed"],
        challenges=in_month.count(),
        month_made=full_days == month_end(month).day,
        last_star_at=mine["last"],
    )


@dataclass(frozen=True, kw_only=True)
class ThresholdView:
    threshold: Threshold
    reached: bool
    to_go: int | None
    """Stars still missing (None for perfect: challenges still missing, see `MonthView`)."""


@dataclass(frozen=True, kw_only=True)
class CalendarDay:
    day: date
    made: int
    done: int
    stars: int
    is_today: bool
    playable: bool


@dataclass(frozen=True, kw_only=True)
class MonthView:
    facts: MonthFacts
    thresholds: list[ThresholdView]
    weeks: list[list[CalendarDay | None]]
    max_stars: int
    """The stars the month's challenges made so far are worth."""


def month_view(*, player: AbstractBaseUser | None, month: date, today: date) -> MonthView:
    """The month's calendar (weeks from Monday, None outside the month) with the
    challenges made and done each day, the stars and the badge thresholds."""
    month = month_of(month)
    end = month_end(month)
    made = {
        row["date"]: (row["made"], row["worth"] or 0)
        for row in Challenge.objects.filter(date__gte=month, date__lte=end)
        .values("date")
        .annotate(made=Count("id"), worth=Sum("difficulty"))
    }
    done: dict[date, tuple[int, int]] = {}
    player_id = player.pk if player is not None and player.is_authenticated else None
    if player_id is not None:
        done = {
            row["challenge__date"]: (row["done"], row["stars"] or 0)
            for row in Completion.objects.filter(player_id=player_id, month=month)
            .values("challenge__date")
            .annotate(done=Count("id"), stars=Sum("stars"))
        }
    facts = (
        month_facts(player_id=player_id, month=month)
        if player_id is not None
        else MonthFacts(
            month=month, stars=0, completed=0, challenges=0, month_made=False, last_star_at=None
        )
    )
    weeks = [
        [
            CalendarDay(
                day=day,
                made=made.get(day, (0, 0))[0],
                done=done.get(day, (0, 0))[0],
                stars=done.get(day, (0, 0))[1],
                is_today=day == today,
                playable=day <= today and made.get(day, (0, 0))[0] > 0,
            )
            if day.month == month.month
            else None
            for day in week
        ]
        for week in calendar.Calendar(firstweekday=0).monthdatescalendar(month.year, month.month)
    ]
    thresholds = [
        ThresholdView(
            threshold=threshold,
            reached=(facts.perfect if threshold.stars is None else facts.stars >= threshold.stars),
            to_go=None if threshold.stars is None else max(0, threshold.stars - facts.stars),
        )
        for threshold in MONTH_THRESHOLDS
    ]
    return MonthView(
        facts=facts,
        thresholds=thresholds,
        weeks=weeks,
        max_stars=sum(worth for _made, worth in made.values()),
    )


def month_stars(*, player: AbstractBaseUser, month: date) -> int:
    """The player's stars of the month (the profile's figure)."""
    total = Completion.objects.filter(player_id=player.pk, month=month_of(month)).aggregate(
        stars=Sum("stars")
    )["stars"]
    return int(total or 0)


def previous_month(month: date) -> date:
    return month_of(month_of(month) - timedelta(days=1))


def next_month_until(month: date, *, latest: date) -> date | None:
    """The month after `month`, or None when it starts after `latest` (no page yet)."""
    following = month_end(month) + timedelta(days=1)
    return following if following <= latest else None
