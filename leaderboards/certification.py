"""Certified daily deals: the solver plays each day's deal before anyone else does.

A deal is certified when the game's solver (games.engine.solvers) wins it within its
budget: the deal then carries the verdict, the par (the length of the solver's line),
the solve time, the nodes searched, a difficulty band and the line itself. The seed and
the line are as secret as the deal while it is live (today or a later day); the par and
the difficulty are shown.

A deal's seed may be redrawn only while nobody can have seen it: until a margin before
00:00 UTC of its day (`deal_sealed`). After that the seed is the deal's for good, and a
deal still uncertified is certified on its own seed, or stays uncertified.
"""

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from time import perf_counter
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import games.engine.solvers  # noqa: F401  (importing the package registers every solver)
from games.engine import get_variant, new_seed, shuffled_deck
from games.engine.solvers import LOST, WON, Budget, solver_for, solvers
from games.engine.solvers.certify import Certificate, certify_new_seed
from games.models import Game
from games.specs import daily_game_specs, game_spec
from leaderboards.models import DailyDeal

logger = logging.getLogger(__name__)

SEAL_MARGIN = timedelta(minutes=2)
"""A deal's seed is fixed from this long before 00:00 UTC of its day: a worker whose
clock is a little behind the web servers' never changes a deal a player has seen."""
MIN_SEED_MS = 1_000
"""Another seed is tried only while at least this much of the game's time is left."""

DIFFICULTY_WORDS = {1: "Easy", 2: "Moderate", 3: "Hard", 4: "Very hard", 5: "Fiendish"}


@dataclass(frozen=True, kw_only=True)
class CertifyPlan:
    """How long the solver may look for a deal of one game."""

    budget_ms: int
    """Per seed: the solver gives up on a seed after this long."""
    max_tries: int
    """Seeds drawn at most."""
    time_ms: int
    """All seeds of the game together (the task's soft time limit is above it)."""


def certify_plan(*, variant: str) -> CertifyPlan:
    budgets: Mapping[str, int] = settings.DAILY_CERTIFY_BUDGET_MS
    time_ms = int(settings.DAILY_CERTIFY_TIME_MS)
    return CertifyPlan(
        budget_ms=min(int(budgets.get(variant, settings.DAILY_CERTIFY_DEFAULT_BUDGET_MS)), time_ms),
        max_tries=int(settings.DAILY_CERTIFY_MAX_TRIES),
        time_ms=time_ms,
    )


def deal_opens_at(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def deal_sealed(*, day: date, now: datetime | None = None) -> bool:
    """Whether the deal of `day` may have been seen, so that its seed must not change."""
    return (now or timezone.now()) >= deal_opens_at(day) - SEAL_MARGIN


def difficulty_word(difficulty: int | None) -> str | None:
    return DIFFICULTY_WORDS.get(difficulty) if difficulty is not None else None


def solver_exists(*, variant: str) -> bool:
    """Whether the game has a solver yet (a game without one has uncertified deals)."""
    return variant in solvers()


def certificate_search(
    *,
    variant: str,
    options: Mapping[str, Any],
    plan: CertifyPlan,
    draw_seed: Callable[[], str] = new_seed,
    native: bool | None = None,
) -> Certificate:
    """Draw seeds until the solver wins one, within the plan's tries and time. When none
    is won, the last seed the solver did not prove lost (one that may be winnable),
    else the last seed; `seeds_tried` counts every seed drawn."""
    engine = get_variant(variant)
    deadline = perf_counter() + plan.time_ms / 1000
    tried = 0
    best: Certificate | None = None
    while True:
        remaining_ms = int((deadline - perf_counter()) * 1000)
        if best is not None and (tried >= plan.max_tries or remaining_ms < MIN_SEED_MS):
            break
        budget = Budget(ms=max(1, min(plan.budget_ms, remaining_ms)))
        found = certify_new_seed(
            engine, options, budget=budget, max_tries=1, draw_seed=draw_seed, native=native
        )
        tried += 1
        if found.certified:
            best = found
            break
        if best is None or found.solution.verdict != LOST or best.solution.verdict == LOST:
            best = found
    return replace(best, seeds_tried=tried)


def certificate_of_seed(
    *,
    variant: str,
    options: Mapping[str, Any],
    seed: str,
    budget_ms: int,
    native: bool | None = None,
) -> Certificate:
    """The solver's answer for one given seed (a deal that can no longer change)."""
    engine = get_variant(variant)
    solver = solver_for(engine.key)
    state = engine.deal(shuffled_deck(seed), engine.normalize_options(options))
    solution = solver.solve(engine, state, budget=Budget(ms=max(1, budget_ms)), native=native)
    difficulty = solver.difficulty(solution) if solution.verdict == WON else None
    return Certificate(seed=seed, solution=solution, difficulty=difficulty, seeds_tried=1)


def certificate_fields(certificate: Certificate) -> dict[str, Any]:
    """The DailyDeal fields of a certificate (the seed apart)."""
    solution = certificate.solution
    won = certificate.certified
    return {
        "verdict": DailyDeal.Verdict.WON if won else DailyDeal.Verdict.UNKNOWN,
        "par": certificate.par,
        "solve_ms": solution.ms,
        "solver_nodes": solution.nodes,
        "difficulty": certificate.difficulty,
        "solver_line": list(solution.moves) if won else [],
        "seeds_tried": certificate.seeds_tried,
    }


def _has_games(deal: DailyDeal) -> bool:
    return Game.objects.filter(track=Game.Track.DAILY, track_ref=deal.track_ref).exists()


def _report(deal: DailyDeal, certificate: Certificate, *, redrawn: bool) -> None:
    solution = certificate.solution
    if certificate.certified:
        logger.info(
            "%s daily deal of %s certified: par %s, difficulty %s, %s nodes, %s ms, "
            "%s seed(s) tried",
            deal.variant,
            deal.date,
            certificate.par,
            certificate.difficulty,
            solution.nodes,
            solution.ms,
            certificate.seeds_tried,
        )
        return
    logger.warning(
        "%s daily deal of %s NOT certified: the solver answered %s for %s seed(s) %s; "
        "the deal is played uncertified (the daily page says 'Not certified')",
        deal.variant,
        deal.date,
        solution.verdict,
        certificate.seeds_tried,
        "drawn" if redrawn else "(its own seed: the deal is live)",
    )


def daily_deal_certify(
    *, deal_id: int, native: bool | None = None, time_ms: int | None = None
) -> DailyDeal:
    """Certify one daily deal. A certified deal is left as it is, so a retry or a second
    run changes nothing. While the deal is not sealed, seeds are drawn until one is won
    (the deal takes that seed); once it is sealed, a deal never tried is certified on
    its own seed, with the game's whole time, and one already tried is left alone.
    Without a win the deal keeps the best seed found, marked `unknown` (uncertified),
    and a warning names the game and the day. `native`: as Solver.solve (None: the
    compiled core where it is built; False: the pure-Python search). `time_ms`: less
    time than the game's, when the caller has spent some of it."""
    deal = DailyDeal.objects.get(id=deal_id)
    if deal.verdict == DailyDeal.Verdict.WON:
        return deal
    if not solver_exists(variant=deal.variant):
        logger.warning(
            "%s daily deal of %s left uncertified: the game has no solver",
            deal.variant,
            deal.date,
        )
        return deal
    plan = certify_plan(variant=deal.variant)
    if time_ms is not None:
        plan = replace(plan, time_ms=max(0, min(plan.time_ms, time_ms)))
    started = perf_counter()
    if not deal_sealed(day=deal.date):
        certificate = certificate_search(
            variant=deal.variant, options=deal.options, plan=plan, native=native
        )
        with transaction.atomic():
            locked = DailyDeal.objects.select_for_update().get(id=deal_id)
            if locked.verdict == DailyDeal.Verdict.WON:
                return locked  # another run certified it meanwhile: that one stands
            if not deal_sealed(day=locked.date) and not _has_games(locked):
                locked.seed = certificate.seed
                for name, value in certificate_fields(certificate).items():
                    setattr(locked, name, value)
                locked.save()
                _report(locked, certificate, redrawn=True)
                return locked
        deal.refresh_from_db()
        logger.warning(
            "%s daily deal of %s was sealed during its search: its own seed is certified",
            deal.variant,
            deal.date,
        )
    elif deal.verdict == DailyDeal.Verdict.UNKNOWN:
        return deal  # its own seed was tried already: the same search would say the same
    spent_ms = int((perf_counter() - started) * 1000)
    budget_ms = min(plan.budget_ms * plan.max_tries, plan.time_ms) - spent_ms
    if budget_ms < MIN_SEED_MS:
        logger.warning(
            "%s daily deal of %s left uncertified: no time left for its own seed",
            deal.variant,
            deal.date,
        )
        return deal
    certificate = certificate_of_seed(
        variant=deal.variant,
        options=deal.options,
        seed=deal.seed,
        budget_ms=budget_ms,
        native=native,
    )
    # The seed is the deal's for good: only the certificate is written, and not over
    # a certificate another run wrote meanwhile.
    DailyDeal.objects.filter(id=deal_id, seed=deal.seed).exclude(
        verdict=DailyDeal.Verdict.WON
    ).update(**certificate_fields(certificate))
    deal.refresh_from_db()
    _report(deal, certificate, redrawn=False)
    return deal


def daily_deal_prepare(*, day: date, variant: str, native: bool | None = None) -> DailyDeal:
    """The certified deal of a game and day, created if missing. A deal missing while
    its day is sealed (a fresh install during the day) is searched for before it is
    created, so that it is created certified; if a request created it meanwhile, that
    deal is kept and certified on its own seed."""
    engine = get_variant(variant)
    started = perf_counter()
    existing = DailyDeal.objects.filter(date=day, variant=engine.key).first()
    if existing is not None:
        return daily_deal_certify(deal_id=existing.id, native=native)
    options = engine.normalize_options(_daily_options(engine.key))
    if not deal_sealed(day=day) or not solver_exists(variant=engine.key):
        deal, _ = DailyDeal.objects.get_or_create(
            date=day, variant=engine.key, defaults={"options": options, "seed": new_seed()}
        )
        return daily_deal_certify(deal_id=deal.id, native=native)
    certificate = certificate_search(
        variant=engine.key, options=options, plan=certify_plan(variant=engine.key), native=native
    )
    deal, created = DailyDeal.objects.get_or_create(
        date=day,
        variant=engine.key,
        defaults={"options": options, "seed": certificate.seed, **certificate_fields(certificate)},
    )
    if not created:
        # A request dealt it during the search: its own seed gets the time that is left.
        spent_ms = int((perf_counter() - started) * 1000)
        plan_ms = certify_plan(variant=engine.key).time_ms
        return daily_deal_certify(deal_id=deal.id, native=native, time_ms=plan_ms - spent_ms)
    _report(deal, certificate, redrawn=True)
    return deal


def _daily_options(variant: str) -> Mapping[str, Any]:
    spec = game_spec(variant)
    if spec is None or not spec.has_daily_deal:
        raise ValueError(f"The site has no daily deal of {variant!r}")
    return spec.daily_options


def daily_deals_to_certify(*, day: date, today: date) -> list[tuple[date, str]]:
    """What the evening run certifies: every game's deal of `day` (tomorrow), and
    today's deals that are missing or were never tried (a fresh install, a run that
    failed), each as (day, game)."""
    games = [spec.key for spec in daily_game_specs()]
    wanted = [(day, variant) for variant in games]
    if day != today:
        tried = set(
            DailyDeal.objects.filter(date=today)
            .exclude(verdict=DailyDeal.Verdict.NOT_CERTIFIED)
            .values_list("variant", flat=True)
        )
        wanted += [(today, variant) for variant in games if variant not in tried]
    return wanted
