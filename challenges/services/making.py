"""Making the daily challenges: three a day per game, each a certified deal with a goal
the solver's line proves (challenges.generation), created ahead of the day by the beat
and idempotent like the daily deals."""

import logging
import random
import threading
from collections.abc import Mapping
from datetime import date
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connections, transaction

import games.engine.solvers  # noqa: F401  (importing the package registers every solver)
from challenges.errors import ChallengeRefused
from challenges.goal_proofs import SolvedDeal, goal_of_difficulty, goal_proved
from challenges.models import Challenge
from games.engine import EngineError, Variant, get_variant
from games.engine.goals import Goal, goal_of, line_facts
from games.engine.solvers import WON, Budget, solver_for, solvers
from games.engine.solvers.certify import certify_new_seed
from games.specs import game_specs

logger = logging.getLogger(__name__)

DIFFICULTIES = tuple(Challenge.Difficulty.values)


def challenge_games() -> list[str]:
    """The games with daily challenges: every game of the site whose engine sets goals
    and that has a solver to prove them."""
    return [
        spec.key
        for spec in game_specs()
        if get_variant(spec.key).goal_kinds and spec.key in solvers()
    ]


def _budget() -> Budget:
    return Budget(ms=int(settings.CHALLENGE_SEED_BUDGET_MS))


def _deal_solved(engine: Variant[Any], seed: str | None) -> SolvedDeal:
    """A won deal: the given seed solved, or seeds drawn until one is won."""
    options = engine.normalize_options({})
    if seed is None:
        certificate = certify_new_seed(
            engine, options, budget=_budget(), max_tries=int(settings.CHALLENGE_MAX_TRIES)
        )
        solution, seed = certificate.solution, certificate.seed
    else:
        state = engine.deal(engine.deck_of_seed(seed), options)
        solution = solver_for(engine.key).solve(engine, state, budget=_budget())
    if solution.verdict != WON:
        raise ChallengeRefused(
            f"The solver won no {engine.name} deal within its budget "
            f"({solution.verdict} after {solution.nodes} positions): no challenge is made"
        )
    return SolvedDeal(seed=seed, solution=solution)


def challenge_build(
    *,
    day: date,
    variant: str,
    difficulty: int,
    seed: str | None = None,
    goal: Mapping[str, Any] | None = None,
    solved: SolvedDeal | None = None,
) -> Challenge:
    """Make one challenge: a won deal (the `seed` given, `solved` already, or one drawn)
    and its goal (the `goal` given, or one of its difficulty chosen from the solver's
    line), kept only when a solver's line proves the goal (challenges.goal_proofs: the
    deal's line, or for a recycle bound that line breaks, a search of its own):
    ChallengeRefused, with the reason, otherwise. The challenge that exists already for
    the day, game and difficulty is returned as it is."""
    if difficulty not in DIFFICULTIES:
        raise ChallengeRefused(f"A challenge's difficulty is 1, 2 or 3, not {difficulty!r}")
    existing = Challenge.objects.filter(date=day, variant=variant, difficulty=difficulty).first()
    if existing is not None:
        return existing
    try:
        engine = get_variant(variant)
        wanted = goal_of(goal, engine) if goal is not None else None
    except EngineError as refused:
        raise ChallengeRefused(str(refused)) from refused
    solved = solved or _deal_solved(engine, seed)
    options = engine.normalize_options({})
    state = engine.deal(engine.deck_of_seed(solved.seed), options)
    timeline = line_facts(engine, state, solved.solution.moves)
    if wanted is None:
        proved = goal_of_difficulty(
            engine=engine,
            state=state,
            solved=solved,
            timeline=timeline,
            difficulty=difficulty,
            chooser=random.Random(f"{day.isoformat()}:{variant}:{difficulty}"),  # nosec B311
            budget=_budget(),
        )
    else:
        proved = goal_proved(
            engine=engine,
            state=state,
            solved=solved,
            timeline=timeline,
            goal=wanted,
            chosen=False,
            budget=_budget(),
        )
    return _stored(
        day=day,
        variant=variant,
        difficulty=difficulty,
        engine=engine,
        options=options,
        solved=proved.solved,
        goal=proved.goal,
        proof=proved.proof,
    )


def _stored(
    *,
    day: date,
    variant: str,
    difficulty: int,
    engine: Variant[Any],
    options: dict[str, Any],
    solved: SolvedDeal,
    goal: Goal,
    proof: list[str],
) -> Challenge:
    try:
        with transaction.atomic():
            return Challenge.objects.create(
                date=day,
                variant=variant,
                difficulty=difficulty,
                options=options,
                rules_version=engine.rules_version,
                seed=solved.seed,
                goal=goal.as_json(),
                proof_line=proof,
                line_length=len(solved.solution.moves),
                solver_nodes=solved.solution.nodes,
                solve_ms=solved.solution.ms,
            )
    except IntegrityError:
        # Another run made it meanwhile: that one stands.
        return Challenge.objects.get(date=day, variant=variant, difficulty=difficulty)


def challenges_day_make(*, day: date, variant: str) -> list[Challenge]:
    """The day's three challenges of one game, made where missing. The deals are drawn
    first and handed out by the solver's effort (the fewest positions to the easy one);
    a deal whose line proves no goal of its difficulty is replaced by another (up to
    ``CHALLENGE_MAX_TRIES`` deals in all)."""
    made = {
        challenge.difficulty: challenge
        for challenge in Challenge.objects.filter(date=day, variant=variant)
    }
    missing = [difficulty for difficulty in DIFFICULTIES if difficulty not in made]
    if not missing:
        return [made[difficulty] for difficulty in DIFFICULTIES]
    engine = get_variant(variant)
    deals = sorted(
        (_deal_solved(engine, None) for _ in missing), key=lambda deal: deal.solution.nodes
    )
    tries = len(deals)
    for difficulty, deal in zip(missing, deals, strict=True):
        while difficulty not in made:
            try:
                made[difficulty] = challenge_build(
                    day=day, variant=variant, difficulty=difficulty, solved=deal
                )
            except ChallengeRefused:
                if tries >= int(settings.CHALLENGE_MAX_TRIES):
                    raise
                tries += 1
                deal = _deal_solved(engine, None)
    logger.info("challenges of %s for %s made", variant, day)
    return [made[difficulty] for difficulty in DIFFICULTIES]


def challenges_prepare_soon(*, day: date) -> bool:
    """Have the day's missing challenges made off the request: a task per game, or a
    thread of this process in the embedded default (no worker). Returns whether any are
    missing. Asked again while they are being made, it queues nothing more."""
    missing = [
        variant
        for variant in challenge_games()
        if Challenge.objects.filter(date=day, variant=variant).count() < len(DIFFICULTIES)
    ]
    if not missing or not settings.CHALLENGE_MAKE_ON_READ:
        return bool(missing)
    if not cache.add(f"challenges:making:{day.isoformat()}", True, timeout=MAKING_SECONDS):
        return True
    if settings.CELERY_TASK_ALWAYS_EAGER:
        threading.Thread(
            target=_make_in_thread, args=(day, missing), name="challenges-make", daemon=True
        ).start()
        return True
    from challenges.tasks import challenge_day_create_task

    for variant in missing:
        try:
            challenge_day_create_task.delay(day.isoformat(), variant)
        except Exception:
            logger.warning("could not queue the %s challenges of %s; the beat will", variant, day)
    return True


def challenges_day_making(*, day: date, today: date, listed: int) -> bool:
    """Whether a day's list of `listed` challenges is still being made: it is today's,
    short of a full day, and its making is under way off the request
    (challenges_prepare_soon, which starts it when it is not). The challenges page and
    the API both ask this, and poll while it holds."""
    return (
        day == today
        and listed < len(DIFFICULTIES) * len(challenge_games())
        and challenges_prepare_soon(day=today)
    )


MAKING_SECONDS = 300
"""How long one request's making of a day's challenges holds off the next request's."""


def _make_in_thread(day: date, variants: list[str]) -> None:
    try:
        for variant in variants:
            try:
                challenges_day_make(day=day, variant=variant)
            except ChallengeRefused:
                logger.warning("no %s challenges could be made for %s", variant, day)
    finally:
        connections.close_all()
