"""Helpers for the certified daily deals' tests: a scripted solver standing in for a
game's real one, and whether a real solver is registered."""

from collections.abc import Iterable
from itertools import chain, repeat
from typing import Any

import pytest

from games.engine.solvers import LOST, UNKNOWN, WON, Budget, Solution, Solver, solvers
from games.engine.solvers import registry as solver_registry

REAL_SOLVERS = dict(solvers())


def requires_solver(variant: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        variant not in REAL_SOLVERS, reason=f"no {variant} solver registered yet"
    )


class ScriptedSolver(Solver[Any]):
    """Answers from a script (won answers carry no line): for the paths a real solver
    takes too long or too unpredictably to reach (the uncertified fallback)."""

    variant_key = "scripted"

    def __init__(self, answers: Iterable[str]) -> None:
        self.answers = chain(answers, repeat(UNKNOWN))
        self.calls: list[Budget] = []

    def search(self, variant: Any, state: Any, budget: Budget) -> Solution:
        self.calls.append(budget)
        verdict = next(self.answers)
        assert verdict in (WON, LOST, UNKNOWN)
        return Solution(verdict=verdict, moves=(), nodes=10 * len(self.calls), ms=1)


def script_solver(
    monkeypatch: pytest.MonkeyPatch, variant: str, answers: Iterable[str]
) -> ScriptedSolver:
    solver = ScriptedSolver(answers)
    monkeypatch.setitem(solver_registry._SOLVERS, variant, solver)
    return solver


def remove_solver(monkeypatch: pytest.MonkeyPatch, variant: str) -> None:
    monkeypatch.delitem(solver_registry._SOLVERS, variant, raising=False)


class RefusingSolver(Solver[Any]):
    """Fails the test if it is ever asked: the path under test must not solve."""

    variant_key = "refusing"

    def search(self, variant: Any, state: Any, budget: Budget) -> Solution:
        raise AssertionError("the solver was run where it must not be")

    def native_available(self) -> bool:
        return False


def refuse_solving(monkeypatch: pytest.MonkeyPatch, variants: Iterable[str]) -> None:
    for variant in variants:
        monkeypatch.setitem(solver_registry._SOLVERS, variant, RefusingSolver())
