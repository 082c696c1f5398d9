"""Proving a challenge's goal with a solver's winning line, under the rule of "More than a
win" (docs/challenges.md): a goal the solver's line of the deal meets is proved by that
line up to the move that meets it, unless its figure is one the searches do not
economise (``GoalKind.figure_stands``: recycles). Such a bound asks nothing beyond the
win when the solver's own line keeps to it, so it must be one that line breaks, proved
by a search of its own under the bound: a bound the maker chose is tightened below the
line's figure first, a bound given is refused."""

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from challenges.errors import ChallengeRefused
from challenges.generation import HARD, goal_chosen
from games.engine import Variant
from games.engine.goals import (
    Goal,
    GoalFacts,
    goal_candidates,
    goal_description,
    goal_kind,
    goal_proof_length,
    line_facts,
)
from games.engine.solvers import WON, Budget, Solution, solver_for


@dataclass(frozen=True, kw_only=True)
class SolvedDeal:
    seed: str
    solution: Solution


@dataclass(frozen=True, kw_only=True)
class ProvedGoal:
    goal: Goal
    solved: SolvedDeal
    """The solve whose line proves the goal (the deal's, or the search of its own)."""
    proof: list[str]
    """That line up to the move that meets the goal."""


def goal_proved(
    *,
    engine: Variant[Any],
    state: Any,
    solved: SolvedDeal,
    timeline: Sequence[GoalFacts],
    goal: Goal,
    chosen: bool,
    budget: Budget,
) -> ProvedGoal:
    """The goal (tightened where the maker ``chosen`` it) and the line that proves it;
    ChallengeRefused, saying why, where there is none. ``timeline`` is the facts along
    the deal's solved line from ``state``, the deal."""
    kind = goal_kind(goal.kind)
    described = goal_description(goal, engine)
    proof = goal_proof_length(goal, timeline)
    if kind.figure_stands:
        if proof is None:
            raise ChallengeRefused(
                f"The solver's line on this {engine.name} deal does not reach “{described}”: "
                "the challenge is not made"
            )
        return ProvedGoal(goal=goal, solved=solved, proof=list(solved.solution.moves[:proof]))
    if proof is not None:
        if not chosen or goal.count == 0:
            raise ChallengeRefused(
                f"The solver's own line on this {engine.name} deal already keeps to "
                f"“{described}”, without aiming at it: no harder than winning it"
            )
        goal = replace(goal, count=goal.count - 1)  # the figure is a bound: at most count
    solution = kind.search_keeping_to(
        goal, solver=solver_for(engine.key), variant=engine, state=state, budget=budget
    )
    if solution is None or solution.verdict != WON:
        searched = "" if solution is None else f" ({solution.verdict}, {solution.nodes} positions)"
        raise ChallengeRefused(
            f"The solver found no win of this {engine.name} deal that keeps to "
            f"“{goal_description(goal, engine)}”{searched}"
        )
    own = line_facts(engine, state, solution.moves)
    proof = goal_proof_length(goal, own)
    if proof is None:
        raise ChallengeRefused(f"The solver's line does not keep to “{described}”")
    if chosen:  # the figure of the line found, at or below the bound searched
        goal = next(kind.reached(own[-1], len(solution.moves)), goal)
    return ProvedGoal(
        goal=goal,
        solved=SolvedDeal(seed=solved.seed, solution=solution),
        proof=list(solution.moves[:proof]),
    )


def goal_of_difficulty(
    *,
    engine: Variant[Any],
    state: Any,
    solved: SolvedDeal,
    timeline: Sequence[GoalFacts],
    difficulty: int,
    chooser: random.Random,
    budget: Budget,
) -> ProvedGoal:
    """A goal of the difficulty chosen from what the deal's solved line proves, with its
    proof; a kind that cannot be proved on this deal is left out and the choice made
    again. ChallengeRefused when none is left."""
    candidates: Mapping[Goal, int] = goal_candidates(engine, timeline)
    while True:
        wanted = goal_chosen(
            candidates=candidates,
            line_length=len(solved.solution.moves),
            deal=timeline[0],
            difficulty=difficulty,
            chooser=chooser,
        )
        if wanted is None:
            raise ChallengeRefused(
                f"The solver's line on this {engine.name} deal proves no goal of that difficulty"
                + (", more than a win" if difficulty == HARD else "")
            )
        try:
            proved = goal_proved(
                engine=engine,
                state=state,
                solved=solved,
                timeline=timeline,
                goal=wanted,
                chosen=True,
                budget=budget,
            )
        except ChallengeRefused:
            proved = None
        kind = goal_kind(wanted.kind)
        if proved is not None and (
            difficulty != HARD or kind.beyond_a_win(proved.goal, timeline[0])
        ):
            return proved
        candidates = {goal: n for goal, n in candidates.items() if goal.kind != wanted.kind}
