"""Solving a case: ``{"variant", "options", "deck" or "seed"}``, a replay case without
moves (docs/solvers.md#the-solve-command)."""

from collections.abc import Mapping
from typing import Any

from ..errors import EngineError
from ..replay import deal_of_case
from .base import Budget, Solution
from .registry import solver_for

CASE_KEYS = frozenset({"variant", "options", "deck", "seed", "rules_version"})


def solve_case(
    case: Mapping[str, Any], *, budget: Budget | None = None, native: bool | None = None
) -> Solution:
    """The solver's answer for the deal of a case; EngineError on a bad case."""
    if not isinstance(case, Mapping):
        raise EngineError("A case must be a JSON object")
    unknown = sorted(set(case) - CASE_KEYS)
    if unknown:
        extra = " (a solve case has no moves)" if "moves" in unknown else ""
        raise EngineError(f"Unknown key(s) in the case: {', '.join(unknown)}{extra}")
    variant, state = deal_of_case(case)
    return solver_for(variant.key).solve(variant, state, budget=budget, native=native)
