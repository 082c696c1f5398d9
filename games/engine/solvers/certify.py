"""Finding a deal the solver certifies: seeds are drawn until one is won within the
budget. Used by the daily deals (leaderboards) and the pool of winnable deals (games).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import EngineError
from ..rng import new_seed, shuffled_deck
from ..variant import Variant
from .base import WON, Budget, Solution
from .registry import solver_for


@dataclass(frozen=True, slots=True, kw_only=True)
class Certificate:
    """The outcome of a search for a winnable deal."""

    seed: str
    solution: Solution
    """The won solution of ``seed``; when no seed was won, the last seed's (lost or
    unknown), and ``certified`` is False."""
    difficulty: int | None
    """1 to 5 for a won deal, None otherwise."""
    seeds_tried: int

    @property
    def certified(self) -> bool:
        return self.solution.verdict == WON

    @property
    def par(self) -> int | None:
        return len(self.solution.moves) if self.certified else None


def certify_new_seed(
    variant: Variant[Any],
    options: Mapping[str, object],
    *,
    budget: Budget,
    max_tries: int,
    native: bool | None = None,
    draw_seed: Callable[[], str] = new_seed,
) -> Certificate:
    """Draw seeds (``draw_seed``) until the solver wins one within ``budget``, at most
    ``max_tries`` of them; the last seed tried, uncertified, when none was won."""
    if max_tries < 1:
        raise EngineError("At least one seed must be tried")
    solver = solver_for(variant.key)
    options = variant.normalize_options(options)
    tried = 0
    while True:
        tried += 1
        seed = draw_seed()
        state = variant.deal(shuffled_deck(seed), options)
        solution = solver.solve(variant, state, budget=budget, native=native)
        won = solution.verdict == WON
        if won or tried == max_tries:
            difficulty = solver.difficulty(solution) if won else None
            return Certificate(
                seed=seed, solution=solution, difficulty=difficulty, seeds_tried=tried
            )
