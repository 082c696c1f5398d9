"""Writes for achievements: judge a closed game and award what it earned.

Awarding is idempotent: every award is inserted with ON CONFLICT DO NOTHING
against the unique constraints of `Award`, and one game's awards commit together
with its `Evaluation` row, so a rerun (a task delivered twice, a worker killed
halfway and the task run again) neither awards twice nor loses an award.
"""

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from uuid import UUID

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from achievements.declarations import ACHIEVEMENTS, BY_CODE, Achievement
from achievements.models import Award, Backfill, Evaluation
from achievements.rules import GameFacts
from achievements.selectors import game_facts
from games.models import Game

logger = logging.getLogger(__name__)

BACKFILL_CHUNK = 500
SWEEP_AFTER = timedelta(minutes=2)
SWEEP_LIMIT = 500


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


def _evaluate(game: Game, achievements: Sequence[Achievement], *, mark: bool) -> list[str]:
    facts = game_facts(game=game)
    earned = []
    with transaction.atomic():
        for achievement in achievements:
            if achievement.rule(facts):
                _award(achievement, facts)
                earned.append(achievement.code)
        if mark:
            Evaluation.objects.update_or_create(game_id=game.id)
    return earned


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


def achievements_backfill(
    *, codes: Iterable[str] | None = None, chunk: int = BACKFILL_CHUNK
) -> int:
    """Judge every closed game, oldest first, for the given achievements (all by
    default), then record them as backfilled. Returns the number of games judged.
    Safe to run again or alongside the per-game task: awards are idempotent."""
    selected = _selected(codes)
    closed = (
        Game.objects.select_related("player")
        .exclude(status=Game.Status.ACTIVE)
        .filter(finished_at__isnull=False)
        .order_by("finished_at", "id")
    )
    judged = 0
    after: tuple[datetime, UUID] | None = None
    while True:
        page = closed
        if after is not None:
            when, last_id = after
            page = page.filter(Q(finished_at__gt=when) | Q(finished_at=when, id__gt=last_id))
        games = list(page[:chunk])
        for game in games:
            _evaluate(game, selected, mark=codes is None)
        judged += len(games)
        if len(games) < chunk:
            break
        last = games[-1]
        if last.finished_at is None:
            raise ValueError(f"Game {last.id} was judged as closed but has no finish time.")
        after = (last.finished_at, last.id)
    now = timezone.now()
    for achievement in selected:
        Backfill.objects.update_or_create(code=achievement.code, defaults={"completed_at": now})
    return judged


def achievements_pending_backfill() -> list[str]:
    """Declared achievements that no backfill has covered yet: the new ones."""
    done = set(Backfill.objects.values_list("code", flat=True))
    return [achievement.code for achievement in ACHIEVEMENTS if achievement.code not in done]


def achievements_catch_up(*, now: datetime | None = None) -> dict[str, int]:
    """What the beat runs: backfill newly declared achievements over every past
    game, then judge closed games whose own task never committed (a broker that
    was down, a task lost). Returns what it did."""
    pending = achievements_pending_backfill()
    backfilled = 0
    if pending:
        everything = len(pending) == len(ACHIEVEMENTS)
        backfilled = achievements_backfill(codes=None if everything else pending)
    cutoff = (now or timezone.now()) - SWEEP_AFTER
    missed = list(
        Game.objects.exclude(status=Game.Status.ACTIVE)
        .filter(finished_at__lt=cutoff, achievements_evaluation__isnull=True)
        .order_by("finished_at", "id")
        .values_list("id", flat=True)[:SWEEP_LIMIT]
    )
    for game_id in missed:
        achievements_evaluate(game_id=game_id)
    return {"backfilled_games": backfilled, "swept_games": len(missed)}
