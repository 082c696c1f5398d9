"""Writes for achievements: judge a closed game and award what it earned.

Awarding is idempotent: every award is inserted with ON CONFLICT DO NOTHING
against the unique constraints of `Award`, and one game's awards commit together
with its `Evaluation` row, so a rerun (a task delivered twice, a worker killed
halfway and the task run again) neither awards twice nor loses an award.
"""

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import partial
from uuid import UUID

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from achievements.declarations import (
    ACHIEVEMENTS,
    BY_CODE,
    CAMPAIGN_ACHIEVEMENTS,
    MATCH_ACHIEVEMENT_CODES,
    MONTHLY_ACHIEVEMENTS,
    MONTHLY_BY_CODE,
    Achievement,
)
from achievements.models import Award, Backfill, Evaluation
from achievements.monthly import period_of
from achievements.rules import GameFacts
from achievements.selectors import game_facts, month_completions
from achievements.tasks import achievements_backfill_task
from challenges.models import Challenge, Completion
from challenges.selectors import month_end, month_facts, month_of, previous_month
from codex.selectors import scenario_records
from codex.tasks import master_architect_update_task
from games.models import Game
from games.specs import game_keys
from matches.models import Seat

logger = logging.getLogger(__name__)

# A chunk of the backfill: at most this many games, and no more than this many
# seconds of judging, half the task's soft time limit. A game takes 1.5 ms on
# SQLite and 3 ms on PostgreSQL (measured over 300 games of five players), so a
# chunk is a second or two and the budget is for a database under load.
BACKFILL_CHUNK = 500
BACKFILL_BUDGET_SECONDS = 30.0
# A backfill whose cursor has not moved for this long has lost its chain of
# tasks: longer than a chunk may run plus a wait in a busy queue.
BACKFILL_STALE_AFTER = timedelta(minutes=10)
SWEEP_AFTER = timedelta(minutes=2)
SWEEP_LIMIT = 500
# Players' months judged again by one catch-up, at most (each month apart).
MONTH_SWEEP_LIMIT = 500


def _selected(codes: Iterable[str] | None) -> Sequence[Achievement]:
    if codes is None:
        return ACHIEVEMENTS
    wanted = set(codes)
    unknown = wanted - set(BY_CODE)
    if unknown:
        raise ValueError(f"Unknown achievements: {', '.join(sorted(unknown))}")
    return [achievement for achievement in ACHIEVEMENTS if achievement.code in wanted]


def _award(achievement: Achievement, facts: GameFacts) -> None:
    Award.objects.bulk_create(
        [
            Award(
                player_id=facts.player_id,
                code=achievement.code,
                repeatable=achievement.repeatable,
                game_id=facts.game_id,
                earned_at=facts.finished_at,
            )
        ],
        ignore_conflicts=True,
    )


def _evaluate(
    game: Game, achievements: Sequence[Achievement], *, mark: bool, player: User | None = None
) -> list[str]:
    facts = game_facts(game=game, player=player)
    earned = []
    with transaction.atomic():
        for achievement in achievements:
            if achievement.rule(facts):
                _award(achievement, facts)
                earned.append(achievement.code)
        if mark and game.track == Game.Track.SCENARIO:
            earned += campaign_awards_evaluate(player_id=game.player_id)
            transaction.on_commit(_enqueue_master_architect_update)
        if mark:
            Evaluation.objects.update_or_create(game_id=game.id)
    return earned


def campaign_awards_evaluate(*, player_id: int) -> list[str]:
    """Judge the player's Codex campaign for every campaign badge and award those it
    earns, each with the game that completed it. Returns the codes the campaign meets
    (awarded now or before); idempotent, derived from the scenario games alone."""
    records = scenario_records(player_id=player_id)
    awards = []
    for achievement in CAMPAIGN_ACHIEVEMENTS:
        milestone = achievement.rule.earned_by(records)
        if milestone is not None:
            awards.append(
                Award(
                    player_id=player_id,
                    code=achievement.code,
                    repeatable=achievement.repeatable,
                    game_id=milestone.game_id,
                    earned_at=milestone.at,
                )
            )
    Award.objects.bulk_create(awards, ignore_conflicts=True)
    return [award.code for award in awards]


def _enqueue_master_architect_update() -> None:
    try:
        master_architect_update_task.apply_async(retry=False)
    except Exception:
        logger.warning("the Master Architect's update not enqueued; the beat will run it")


def achievements_evaluate(*, game_id: UUID, codes: Iterable[str] | None = None) -> list[str]:
    """Judge a closed game for every achievement (or the given ones) and award
    what it earns. Returns the codes whose rule the game meets (awarded now or
    before); an active or unknown game is left alone (an empty list)."""
    game = (
        Game.objects.select_related("player")
        .exclude(status=Game.Status.ACTIVE)
        .filter(id=game_id)
        .first()
    )
    if game is None:
        return []
    return _evaluate(game, _selected(codes), mark=codes is None)


@dataclass(frozen=True)
class BackfillChunk:
    """What one chunk of a backfill did: the games it judged, and whether the
    walk has reached the newest closed game (nothing is left to judge)."""

    judged: int
    done: bool


def _cursor(row: Backfill) -> tuple[datetime, UUID] | None:
    if row.after_finished_at is None or row.after_game_id is None:
        return None
    return row.after_finished_at, row.after_game_id


def achievements_backfill_chunk(
    *,
    codes: Iterable[str] | None = None,
    chunk: int | None = None,
    budget_seconds: float = BACKFILL_BUDGET_SECONDS,
) -> BackfillChunk:
    """Judge the next chunk of closed games, in (finished_at, id) order, for the
    given achievements (all by default) whose backfill is not complete, and move
    their cursor past it. At most `chunk` games, and no more once
    `budget_seconds` have gone by, so a chunk ends well inside its task's time
    limit. A chunk cut off halfway has not moved the cursor: the next one judges
    its games again, harmlessly (awards are idempotent). A backfill that is
    complete is left alone."""
    selected = _selected(codes)
    size = BACKFILL_CHUNK if chunk is None else chunk
    if size < 1:
        raise ValueError(f"A backfill chunk holds at least one game, not {size}.")
    for achievement in selected:
        Backfill.objects.get_or_create(code=achievement.code)
    rows = list(
        Backfill.objects.filter(
            code__in=[achievement.code for achievement in selected], completed_at__isnull=True
        )
    )
    if not rows:
        return BackfillChunk(judged=0, done=True)
    open_codes = {row.code for row in rows}
    achievements = [achievement for achievement in selected if achievement.code in open_codes]
    # The achievements judged together may stand at different cursors (one
    # started later): the chunk starts at the furthest behind, and those ahead
    # judge a few games again.
    cursors = [_cursor(row) for row in rows]
    after = None if None in cursors else min(cursor for cursor in cursors if cursor is not None)
    games = Game.objects.select_related("player").exclude(status=Game.Status.ACTIVE)
    games = games.filter(finished_at__isnull=False).order_by("finished_at", "id")
    if after is not None:
        when, last_id = after
        games = games.filter(Q(finished_at__gt=when) | Q(finished_at=when, id__gt=last_id))
    page = list(games[:size])
    # A game judged for every declared achievement needs no evaluation of its own.
    mark = open_codes == set(BY_CODE)
    deadline = time.monotonic() + budget_seconds
    judged: list[Game] = []
    for game in page:
        _evaluate(game, achievements, mark=mark)
        judged.append(game)
        if time.monotonic() >= deadline:
            break
    done = len(judged) == len(page) < size
    now = timezone.now()
    for row in rows:
        row.updated_at = now
        if judged:
            last = judged[-1]
            if last.finished_at is None:
                raise ValueError(f"Game {last.id} was judged as closed but has no finish time.")
            current = _cursor(row)
            if current is None or current < (last.finished_at, last.id):
                row.after_finished_at, row.after_game_id = last.finished_at, last.id
        if done:
            row.completed_at = now
        row.save(update_fields=["updated_at", "after_finished_at", "after_game_id", "completed_at"])
    return BackfillChunk(judged=len(judged), done=done)


def achievements_backfill(*, codes: Iterable[str] | None = None, chunk: int | None = None) -> int:
    """Run the backfill of the given achievements (all by default) to its end,
    chunk after chunk in this process: what the task does when tasks run
    in-process. Returns the number of games judged; a complete backfill judges
    none."""
    judged = 0
    while True:
        step = achievements_backfill_chunk(codes=codes, chunk=chunk)
        judged += step.judged
        if step.done:
            return judged


def achievements_pending_backfill() -> list[str]:
    """Declared achievements whose backfill has not completed: the new ones, and
    those whose backfill is still under way."""
    done = set(Backfill.objects.filter(completed_at__isnull=False).values_list("code", flat=True))
    return [achievement.code for achievement in ACHIEVEMENTS if achievement.code not in done]


def achievements_backfill_start(*, now: datetime | None = None) -> list[str]:
    """Start the backfill of every declared achievement that has none under way:
    the new ones, and those whose chain of tasks has not moved for
    BACKFILL_STALE_AFTER (a chunk killed by its hard time limit, a message lost),
    which continue from their cursor. One task for all of them, enqueued on
    commit. Returns the codes started (none while every backfill is moving)."""
    moment = now or timezone.now()
    pending = achievements_pending_backfill()
    if not pending:
        return []
    moving = set(
        Backfill.objects.filter(
            code__in=pending,
            completed_at__isnull=True,
            updated_at__gte=moment - BACKFILL_STALE_AFTER,
        ).values_list("code", flat=True)
    )
    started = [code for code in pending if code not in moving]
    if not started:
        return []
    for code in started:
        Backfill.objects.update_or_create(code=code, defaults={"updated_at": moment})
    # No arguments is every achievement: a fresh database's first backfill.
    codes = () if len(started) == len(ACHIEVEMENTS) else tuple(started)
    transaction.on_commit(partial(_enqueue_backfill, codes=codes))
    return started


def _enqueue_backfill(*, codes: tuple[str, ...]) -> None:
    try:
        achievements_backfill_task.apply_async(codes, retry=False)
    except Exception:
        logger.warning("backfill of %s not enqueued; the next catch-up will", codes or "all")


def challenge_month_awards_evaluate(*, player_id: int, month: date) -> list[str]:
    """Judge the player's month of daily challenges for every monthly badge and award
    those it earns, each with the completion that earned it (its game and time) and
    the month as its period. Returns the codes whose rule the month meets (awarded now
    or before). Idempotent, and derived from the Completion rows alone: a rerun, or
    two racing for the same month, award each badge once."""
    month = month_of(month)
    facts = month_facts(player_id=player_id, month=month)
    earned = [achievement for achievement in MONTHLY_ACHIEVEMENTS if achievement.rule(facts)]
    if not earned:
        return []
    completions = month_completions(player_id=player_id, month=month)
    awards = []
    for achievement in earned:
        completion = achievement.rule.earned_by(completions)
        if completion is None:
            # The facts and the rows were read apart: a completion deleted in between.
            continue
        awards.append(
            Award(
                player_id=player_id,
                code=achievement.code,
                repeatable=achievement.repeatable,
                period=period_of(month),
                game_id=completion.game_id,
                earned_at=completion.completed_at,
            )
        )
    Award.objects.bulk_create(awards, ignore_conflicts=True)
    return [award.code for award in awards]


def _months_missing_awards(*, month: date, limit: int) -> list[int]:
    """The players whose completions of the month reach a monthly badge they do not
    hold yet (at most `limit`, by id): each one judged drops out of the next run's
    list, so a catch-up that stops at its limit is continued by the next. Perfect
    counts as reachable once a player has completed as many challenges as a fully
    made month holds; the evaluation decides."""
    end = month_end(month)
    full_month = 3 * len(game_keys()) * end.day
    made = Challenge.objects.filter(date__gte=month, date__lte=end).count()
    held = (
        Award.objects.filter(
            player_id=OuterRef("player_id"), code__in=MONTHLY_BY_CODE, period=period_of(month)
        )
        .order_by()
        .values("player_id")
        .annotate(held=Count("id"))
        .values("held")
    )
    reachable = [
        Case(When(stars__gte=achievement.rule.stars, then=Value(1)), default=Value(0))
        for achievement in MONTHLY_ACHIEVEMENTS
        if achievement.rule.stars is not None
    ]
    if made >= full_month:
        reachable.append(
            Case(When(completed__gte=made, then=Value(1)), default=Value(0)),
        )
    reached = sum(reachable[1:], reachable[0])
    rows = (
        Completion.objects.filter(month=month)
        .values("player_id")
        .annotate(stars=Sum("stars"), completed=Count("id"))
        .annotate(
            reached=reached,
            held=Coalesce(Subquery(held, output_field=IntegerField()), 0),
        )
        .filter(reached__gt=F("held"))
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )
    return list(rows[:limit])


def challenge_months_catch_up(*, today: date, limit: int = MONTH_SWEEP_LIMIT) -> int:
    """Judge the current and the previous month again for the players whose
    completions there reach a badge they do not hold (a lost task). Returns the
    players' months judged."""
    judged = 0
    for month in (month_of(today), previous_month(today)):
        for player_id in _months_missing_awards(month=month, limit=limit):
            challenge_month_awards_evaluate(player_id=player_id, month=month)
            judged += 1
    return judged


def achievements_catch_up(*, now: datetime | None = None) -> dict[str, int]:
    """What the beat runs: start (or continue) the backfill of achievements whose
    backfill is not complete, judge closed games whose own task never committed (a
    broker that was down, a task lost), and the months of challenges whose task was
    lost. Returns what it did."""
    moment = now or timezone.now()
    started = achievements_backfill_start(now=moment)
    cutoff = moment - SWEEP_AFTER
    missed = list(
        Game.objects.exclude(status=Game.Status.ACTIVE)
        .filter(finished_at__lt=cutoff, achievements_evaluation__isnull=True)
        .order_by("finished_at", "id")
        .values_list("id", flat=True)[:SWEEP_LIMIT]
    )
    for game_id in missed:
        achievements_evaluate(game_id=game_id)
    months = challenge_months_catch_up(today=moment.astimezone(UTC).date())
    return {
        "backfills_started": len(started),
        "swept_games": len(missed),
        "swept_months": months,
    }


def match_achievements_evaluate(*, match_id: UUID) -> list[str]:
    """Every seat of a settled match judged again for the match badges (they need the
    outcome, which a seat that finished first did not know), each for its own player:
    on a shared board (the Duel) every seat's game is the one board. The codes awarded."""
    seats = Seat.objects.filter(match_id=match_id, game__isnull=False).select_related(
        "player", "game"
    )
    match_badges = _selected(MATCH_ACHIEVEMENT_CODES)
    return [
        code
        for seat in seats
        if seat.game is not None and not seat.game.is_active
        for code in _evaluate(seat.game, match_badges, mark=False, player=seat.player)
    ]
