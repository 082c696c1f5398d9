"""The monthly challenge badges: bronze, silver and gold at their stars, perfect for
every challenge of a fully made month; once per player and month, every month anew,
with the completion that earned each; the task, the catch-up and the completion of a
challenge by playing it."""

import threading
from datetime import UTC, date, datetime, timedelta
from itertools import count

import pytest
from django.db import IntegrityError, connection, transaction
from django.template.loader import render_to_string

from achievements import services
from achievements.declarations import BY_CODE, MONTHLY_ACHIEVEMENTS, MONTHLY_BY_CODE
from achievements.models import Award
from achievements.tasks import challenge_month_awards_task
from challenges import services as challenge_services
from challenges.models import Challenge, Completion
from challenges.selectors import month_of
from challenges.stars import MONTH_THRESHOLDS
from games.specs import game_keys
from tests.achievements.helpers import closed_game, committed
from tests.challenges.conftest import STEPS_SEED, Clock, play_line

pytestmark = pytest.mark.django_db

DECEMBER = date(2026, 12, 1)
JANUARY = date(2027, 1, 1)
FEBRUARY = date(2027, 2, 1)  # 28 days: the smallest month to make in full
TWO_ACES = {"kind": "foundation_rank", "rank": "A", "count": 2}
MINUTES = count()


def challenge(day: date, variant: str, difficulty: int) -> Challenge:
    made, _created = Challenge.objects.get_or_create(
        date=day,
        variant=variant,
        difficulty=difficulty,
        defaults={
            "rules_version": 1,
            "seed": "seed",
            "goal": TWO_ACES,
            "line_length": 60,
            "solver_nodes": 1,
            "solve_ms": 1,
        },
    )
    return made


def slots(month: date, days: int | None = None):
    """Every (day, game, difficulty) of the month (or of its first `days` days)."""
    following = (month + timedelta(days=32)).replace(day=1)
    last = (following - timedelta(days=1)).day if days is None else days
    for offset in range(last):
        for variant in game_keys():
            for difficulty in (3, 2, 1):
                yield month + timedelta(days=offset), variant, difficulty


def complete(player, made: Challenge, *, game=True) -> Completion:
    """A completion straight in the database (no task), a minute after the last one."""
    at = datetime(made.date.year, made.date.month, made.date.day, 12, tzinfo=UTC)
    at += timedelta(minutes=next(MINUTES) % 600)
    return Completion.objects.create(
        challenge=made,
        player=player,
        game=closed_game(player, "steps", finished_at=at) if game else None,
        stars=made.stars,
        month=made.date.replace(day=1),
        completed_at=at,
    )


def earn(player, month: date, stars: int) -> list[Completion]:
    """Completions worth exactly `stars` stars in the month, hardest first."""
    done: list[Completion] = []
    for day, variant, difficulty in slots(month):
        left = stars - sum(c.stars for c in done)
        if left == 0:
            return done
        if difficulty <= left:
            done.append(complete(player, challenge(day, variant, difficulty), game=False))
    raise AssertionError(f"{stars} stars do not fit in {month}")


def make_month(month: date, days: int | None = None) -> None:
    Challenge.objects.bulk_create(
        [
            Challenge(
                date=day,
                variant=variant,
                difficulty=difficulty,
                rules_version=1,
                seed="seed",
                goal=TWO_ACES,
                line_length=60,
                solver_nodes=1,
                solve_ms=1,
            )
            for day, variant, difficulty in slots(month, days)
        ],
        ignore_conflicts=True,
    )


def monthly(player) -> list[tuple[str, str]]:
    return sorted(
        Award.objects.filter(player=player, code__in=MONTHLY_BY_CODE).values_list("code", "period")
    )


# The declarations ----------------------------------------------------------------


def test_the_monthly_badges_are_declared_from_the_thresholds():
    assert [a.code for a in MONTHLY_ACHIEVEMENTS] == [
        "challenges-bronze",
        "challenges-silver",
        "challenges-gold",
        "challenges-perfect",
    ]
    assert [a.title for a in MONTHLY_ACHIEVEMENTS] == [
        "Bronze challenger",
        "Silver challenger",
        "Gold challenger",
        "Perfect challenger",
    ]
    for achievement, threshold in zip(MONTHLY_ACHIEVEMENTS, MONTH_THRESHOLDS, strict=True):
        assert achievement.rule.stars == threshold.stars
        assert achievement.repeatable
        if threshold.stars is not None:
            assert f" {threshold.stars} " in achievement.description
    # Kept apart from the per-game declarations: no game evaluation nor backfill runs them.
    assert not set(MONTHLY_BY_CODE) & set(BY_CODE)


@pytest.mark.parametrize("achievement", MONTHLY_ACHIEVEMENTS, ids=lambda a: a.code)
def test_every_monthly_icon_is_drawn(achievement):
    svg = render_to_string("achievements/_icon.html", {"icon": achievement.icon})
    assert f'class="badge-icon icon-{achievement.icon}"' in svg
    assert "<path" in svg


# Each badge at its threshold -------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "stars"),
    [("challenges-bronze", 30), ("challenges-silver", 120), ("challenges-gold", 300)],
)
def test_a_star_badge_is_earned_at_its_threshold_and_not_a_star_before(player, code, stars):
    earn(player, DECEMBER, stars - 1)
    assert code not in services.challenge_month_awards_evaluate(player_id=player.pk, month=DECEMBER)
    assert (code, "2026-12") not in monthly(player)

    slot = next(
        (day, variant, 1)
        for day, variant, difficulty in slots(DECEMBER)
        if difficulty == 1
        and not Challenge.objects.filter(date=day, variant=variant, difficulty=1).exists()
    )
    crossing = complete(player, challenge(*slot))
    assert code in services.challenge_month_awards_evaluate(player_id=player.pk, month=DECEMBER)

    award = Award.objects.get(player=player, code=code)
    assert (award.period, award.repeatable) == ("2026-12", True)
    assert (award.game_id, award.earned_at) == (crossing.game_id, crossing.completed_at)


def test_the_award_names_the_completion_that_crossed_the_threshold_not_the_last(player):
    made = [challenge(DECEMBER + timedelta(days=day), "steps", 3) for day in range(11)]
    done = [complete(player, one) for one in made]  # 3 stars each: the tenth makes 30

    services.challenge_month_awards_evaluate(player_id=player.pk, month=DECEMBER)

    award = Award.objects.get(player=player, code="challenges-bronze")
    assert (award.game_id, award.earned_at) == (done[9].game_id, done[9].completed_at)


def test_perfect_is_every_challenge_of_a_fully_made_month(player):
    make_month(FEBRUARY)
    every = list(Challenge.objects.order_by("date", "variant", "difficulty"))
    assert len(every) == 28 * 3 * len(game_keys())
    done = [complete(player, one, game=False) for one in every[:-1]]
    earned = services.challenge_month_awards_evaluate(player_id=player.pk, month=FEBRUARY)
    assert earned == ["challenges-bronze", "challenges-silver", "challenges-gold"]

    last = complete(player, every[-1])
    earned = services.challenge_month_awards_evaluate(player_id=player.pk, month=FEBRUARY)

    assert "challenges-perfect" in earned
    perfect = Award.objects.get(player=player, code="challenges-perfect")
    assert (perfect.period, perfect.game_id) == ("2027-02", last.game_id)
    assert perfect.earned_at == max(c.completed_at for c in [*done, last])


def test_perfect_waits_until_the_months_challenges_are_all_made(player):
    make_month(FEBRUARY, days=27)  # the last day's challenges are not made yet
    for one in Challenge.objects.all():
        complete(player, one, game=False)

    earned = services.challenge_month_awards_evaluate(player_id=player.pk, month=FEBRUARY)
    assert "challenges-perfect" not in earned
    assert "challenges-gold" in earned

    make_month(FEBRUARY)  # the 28th is made: a perfect month needs its challenges too
    earned = services.challenge_month_awards_evaluate(player_id=player.pk, month=FEBRUARY)
    assert "challenges-perfect" not in earned
    for one in Challenge.objects.filter(date=date(2027, 2, 28)):
        complete(player, one, game=False)
    earned = services.challenge_month_awards_evaluate(player_id=player.pk, month=FEBRUARY)
    assert "challenges-perfect" in earned


# Once per month, every month -------------------------------------------------------


def test_a_month_earns_each_badge_once_however_often_it_is_evaluated(player):
    earn(player, DECEMBER, 130)

    first = services.challenge_month_awards_evaluate(player_id=player.pk, month=DECEMBER)
    again = services.challenge_month_awards_evaluate(
        player_id=player.pk, month=DECEMBER + timedelta(days=9)
    )

    assert first == again == ["challenges-bronze", "challenges-silver"]
    assert monthly(player) == [("challenges-bronze", "2026-12"), ("challenges-silver", "2026-12")]


def test_another_month_earns_the_badge_again(player, make_user):
    earn(player, DECEMBER, 30)
    earn(player, JANUARY, 45)
    other = make_user("bob")
    earn(other, JANUARY, 29)
    for month in (DECEMBER, JANUARY):
        for who in (player, other):
            services.challenge_month_awards_evaluate(player_id=who.pk, month=month)

    assert monthly(player) == [("challenges-bronze", "2026-12"), ("challenges-bronze", "2027-01")]
    assert monthly(other) == []


def test_a_monthly_award_is_unique_per_player_code_and_period_even_without_a_game(player):
    now = datetime(2026, 12, 2, tzinfo=UTC)
    fields = {"player": player, "code": "challenges-bronze", "repeatable": True, "earned_at": now}
    Award.objects.create(**fields, period="2026-12", game=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        Award.objects.create(**fields, period="2026-12", game=None)
    Award.objects.create(**fields, period="2027-01", game=None)


@pytest.mark.django_db(transaction=True)
def test_simultaneous_evaluations_of_a_month_award_once(make_user):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the race is exercised on PostgreSQL")
    player = make_user("racer")
    earn(player, DECEMBER, 120)
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def evaluate() -> None:
        start.wait()
        try:
            services.challenge_month_awards_evaluate(player_id=player.pk, month=DECEMBER)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=evaluate) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert monthly(player) == [("challenges-bronze", "2026-12"), ("challenges-silver", "2026-12")]


# The task, the catch-up, and playing a challenge ------------------------------------


def test_the_task_judges_the_month_it_is_given(player):
    earn(player, DECEMBER, 30)

    assert challenge_month_awards_task.delay(player.pk, "2026-12-01").get() == ["challenges-bronze"]
    assert monthly(player) == [("challenges-bronze", "2026-12")]


def test_the_catch_up_judges_the_current_and_previous_months_a_lost_task_missed(player, make_user):
    earn(player, DECEMBER, 30)
    earn(player, date(2026, 11, 1), 120)
    earn(player, date(2026, 10, 1), 30)  # two months back: left alone
    judged = make_user("bob")
    earn(judged, DECEMBER, 30)
    services.challenge_month_awards_evaluate(player_id=judged.pk, month=DECEMBER)
    below = make_user("carol")
    earn(below, DECEMBER, 29)

    swept = services.challenge_months_catch_up(today=date(2026, 12, 2))

    assert swept == 2  # alice's two months; bob holds his badge, carol reaches none
    assert monthly(player) == [
        ("challenges-bronze", "2026-11"),
        ("challenges-bronze", "2026-12"),
        ("challenges-silver", "2026-11"),
    ]
    assert services.challenge_months_catch_up(today=date(2026, 12, 2)) == 0


def test_the_catch_up_goes_on_where_its_limit_stopped_it(player, make_user):
    players = [player, make_user("bob"), make_user("carol")]
    for who in players:
        earn(who, DECEMBER, 30)

    assert services.challenge_months_catch_up(today=date(2026, 12, 2), limit=2) == 2
    assert services.challenge_months_catch_up(today=date(2026, 12, 2), limit=2) == 1
    assert all(monthly(who) == [("challenges-bronze", "2026-12")] for who in players)


def test_the_catch_up_task_reports_the_months_it_judged(player):
    from achievements.tasks import achievements_catch_up_task

    earn(player, month_of(datetime.now(UTC).date()), 30)
    with committed():
        done = achievements_catch_up_task.delay().get()
    assert done["swept_months"] == 1


@pytest.fixture
def clock(monkeypatch):
    from django.utils import timezone

    fake = Clock(datetime(2026, 12, 2, 12, 0, tzinfo=UTC))
    monkeypatch.setattr(timezone, "now", lambda: fake.now)
    return fake


def test_playing_a_challenge_to_its_goal_earns_the_badge_it_crosses(player, clock):
    earn(player, DECEMBER, 29)
    made = challenge_services.challenge_build(
        day=date(2026, 12, 2), variant="steps", difficulty=1, seed=STEPS_SEED, goal=TWO_ACES
    )
    game = challenge_services.challenge_play(
        player=player, challenge_id=made.id, today=date(2026, 12, 2)
    )
    with committed():
        play_line(game=game, player=player, line=made.proof_line[:-1])
    assert monthly(player) == []

    with committed():
        play_line(game=game, player=player, line=made.proof_line[-1:])

    award = Award.objects.get(player=player, code="challenges-bronze")
    assert (award.period, award.game_id, award.earned_at) == ("2026-12", game.id, clock.now)
