"""The contract of games.engine.solvers, over every registered solver: one solver for
each variant, the registry's refusals, the budget's validation, the Solution's JSON
shape, the path choice (native or pure Python), the difficulty bands, and unknown at a
budget of one node on a deal that is known to be winnable (its fixture's moves win it)."""

import dataclasses
import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

from games.engine import EngineError, get_variant, variant_keys
from games.engine.replay import deal_of_case
from games.engine.solvers import (
    LOST,
    UNKNOWN,
    VERDICTS,
    WON,
    Budget,
    Solution,
    Solver,
    register_solver,
    solver_for,
    solvers,
)
from tests.engine.variants import TWO_PLAYER

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
KEYS = sorted(solvers())


def winnable_deal(key: str) -> tuple[Any, Any]:
    """The deal of the game's winning fixture (tests/engine/fixtures/<key>_win.json)."""
    case = json.loads((FIXTURES / f"{key}_win.json").read_text(encoding="utf-8"))
    case.pop("moves")
    return deal_of_case(case)


def test_every_variant_has_a_solver():
    assert set(solvers()) == set(variant_keys()) - TWO_PLAYER
    for key, solver in solvers().items():
        assert isinstance(solver, Solver)
        assert solver.variant_key == key
        assert solver_for(key) is solver
        assert get_variant(key).key == key


def test_the_registry_refuses_an_unknown_key_and_a_second_solver():
    with pytest.raises(EngineError, match="No solver"):
        solver_for("freecell")

    class Another(Solver[Any]):
        variant_key: ClassVar[str] = KEYS[0]

        def search(self, variant: Any, state: Any, budget: Budget) -> Solution:
            return Solution(verdict=UNKNOWN, nodes=0, ms=0)

    with pytest.raises(EngineError, match="already registered"):
        register_solver(Another)
    assert type(solver_for(KEYS[0])) is not Another


@pytest.mark.parametrize(
    "fields",
    [
        {"ms": 0},
        {"ms": -5},
        {"nodes": 0},
        {"nodes": -1},
        {"ms": 1.5},
        {"nodes": "100"},
        {"ms": True},
        {"nodes": False},
    ],
)
def test_a_budget_is_whole_numbers_from_1(fields):
    with pytest.raises(EngineError, match="whole number from 1 up"):
        Budget(**fields)


def test_a_budget_without_limits_and_its_deadline():
    assert Budget().deadline(10.0) is None
    assert Budget(ms=250).deadline(10.0) == pytest.approx(10.25)
    budget = Budget(ms=1, nodes=1)
    assert (budget.ms, budget.nodes) == (1, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        budget.ms = 5


def test_a_solution_as_json():
    won = Solution(verdict=WON, moves=("draw", "9D"), nodes=12, ms=3, native=True)
    assert won.as_json() == {"verdict": "won", "moves": ["draw", "9D"], "nodes": 12, "ms": 3}
    assert json.loads(json.dumps(won.as_json())) == won.as_json()
    lost = Solution(verdict=LOST, nodes=7, ms=0)
    assert lost.as_json() == {"verdict": "lost", "moves": [], "nodes": 7, "ms": 0}
    assert lost.native is False
    assert set(VERDICTS) == {WON, LOST, UNKNOWN}
    with pytest.raises(dataclasses.FrozenInstanceError):
        won.verdict = LOST


@pytest.mark.parametrize("key", KEYS)
def test_difficulty_bands_rise_with_the_effort(key):
    solver = solvers()[key]
    bounds = solver.difficulty_bounds
    assert len(bounds) == 4
    assert all(isinstance(bound, int) for bound in bounds)
    assert list(bounds) == sorted(set(bounds))
    assert bounds[0] >= 1

    def band(nodes: int) -> int:
        return solver.difficulty(Solution(verdict=WON, moves=("x",), nodes=nodes, ms=0))

    assert band(0) == 1
    assert [band(bound) for bound in bounds] == [2, 3, 4, 5]
    assert [band(bound - 1) for bound in bounds] == [1, 2, 3, 4]
    assert band(10**12) == 5


@pytest.mark.parametrize("key", KEYS)
def test_unknown_at_one_node_on_a_winnable_deal(key):
    variant, state = winnable_deal(key)
    solver = solvers()[key]
    paths = [False] + ([True] if solver.native_available() else [])
    for native in paths:
        solution = solver.solve(variant, state, budget=Budget(nodes=1), native=native)
        assert solution.verdict == UNKNOWN, (key, native)
        assert solution.moves == ()
        assert solution.native is native
        assert solution.nodes >= 0
        assert solution.ms >= 0


@pytest.mark.parametrize("key", KEYS)
def test_the_path_is_the_compiled_core_when_it_is_built(key, monkeypatch):
    variant, state = winnable_deal(key)
    solver = solvers()[key]
    budget = Budget(nodes=1)
    assert solver.solve(variant, state, budget=budget).native is solver.native_available()
    assert solver.solve(variant, state, budget=budget, native=False).native is False
    monkeypatch.setattr(type(solver), "native_available", lambda self: False)
    with pytest.raises(EngineError, match="not built"):
        solver.solve(variant, state, budget=budget, native=True)
    assert solver.solve(variant, state, budget=budget).native is False
