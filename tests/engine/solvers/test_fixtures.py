"""Every registered solver on every replay fixture of its game (tests/engine/fixtures):
the deal (the case without its moves) solved on both paths, each won line replaying to a
win, the two paths never contradicting each other, a winning fixture's deal never called
lost, and the fixture's last position answered as its status says.

The budgets are short (the whole file takes a few seconds): Spike must decide every
deal; the other games' deals may take their solvers longer, so there unknown is an
acceptable answer, but a won line must still replay to a win and a lost verdict must not
meet a won one from the other path."""

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from games.engine import replay
from games.engine.replay import deal_of_case
from games.engine.solvers import LOST, UNKNOWN, WON, Budget, Solution, Solver, solvers

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MUST_DECIDE = {"spike": Budget(ms=10_000)}
"""Games whose solver decides each fixture within this budget (milliseconds here)."""
SHORT = Budget(ms=150)
"""The budget of every other game's solver, per deal and path."""


def replay_cases() -> dict[str, dict[str, Any]]:
    cases = {}
    for path in sorted(FIXTURES.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "variant" in data and "moves" in data:
            cases[path.stem] = data
    return cases


CASES = replay_cases()
SOLVED = sorted(name for name, case in CASES.items() if case["variant"] in solvers())


def budget_of(key: str) -> Budget:
    return MUST_DECIDE.get(key, SHORT)


def has_core(solver: Solver[Any]) -> bool:
    """Whether the solver comes with a compiled core (built here or not)."""
    return type(solver).native_search is not Solver.native_search


def path_or_skip(solver: Solver[Any], native: bool) -> None:
    if not native:
        return
    if not has_core(solver):
        pytest.skip(f"the {solver.variant_key} solver has no compiled core")
    if not solver.native_available():
        if os.environ.get("CI"):
            pytest.fail(f"the compiled {solver.variant_key} core is not built (build_native.py)")
        pytest.skip(f"the compiled {solver.variant_key} core is not built here")


def deal_case(name: str) -> dict[str, Any]:
    return {key: value for key, value in CASES[name].items() if key != "moves"}


@cache
def solve_deal(name: str, native: bool) -> Solution:
    """The solver's answer for a fixture's deal, checked (once per path for the whole
    file: a replay of a long line takes a while in some games)."""
    case = deal_case(name)
    variant, state = deal_of_case(case)
    solver = solvers()[variant.key]
    solution = solver.solve(variant, state, budget=budget_of(variant.key), native=native)
    check(name, solution)
    return solution


def check(name: str, solution: Solution) -> None:
    """What every answer on a fixture's deal must satisfy."""
    case = deal_case(name)
    assert solution.verdict in (WON, LOST, UNKNOWN)
    if case["variant"] in MUST_DECIDE:
        assert solution.verdict != UNKNOWN, f"{name}: not decided within the budget"
    if solution.verdict == WON:
        result = replay({**case, "moves": list(solution.moves)})
        assert result["error"] is None, f"{name}: {result['error']}"
        assert result["status"] == WON, name
    else:
        assert solution.moves == ()
    if replay(CASES[name])["status"] == WON:  # the fixture's own moves win this deal
        assert solution.verdict != LOST, f"{name}: a winnable deal called lost"


def test_every_game_with_a_solver_has_a_fixture():
    games = {CASES[name]["variant"] for name in SOLVED}
    assert games == set(solvers())


@pytest.mark.parametrize("native", [False, True], ids=["python", "native"])
@pytest.mark.parametrize("name", SOLVED)
def test_the_deal_of_each_fixture(name, native):
    solver = solvers()[CASES[name]["variant"]]
    path_or_skip(solver, native)
    assert solve_deal(name, native).native is native


@pytest.mark.parametrize("name", SOLVED)
def test_both_paths_agree_on_each_fixture(name):
    solver = solvers()[CASES[name]["variant"]]
    path_or_skip(solver, True)
    python, native = solve_deal(name, False), solve_deal(name, True)
    if UNKNOWN not in (python.verdict, native.verdict):
        assert python.verdict == native.verdict, name


@pytest.mark.parametrize("name", SOLVED)
def test_the_last_position_of_each_fixture(name):
    """Where the fixture's moves lead: a won game is won with nothing left to play, a
    lost one is never won; a game in progress is solved like a deal."""
    case = CASES[name]
    variant, state = deal_of_case(deal_case(name))
    for move in case["moves"]:
        state = variant.play(state, move).state
    solver = solvers()[variant.key]
    solution = solver.solve(variant, state, budget=budget_of(variant.key))
    status = variant.status(state)
    if status == WON:
        assert (solution.verdict, solution.moves) == (WON, ())
    elif status == LOST:
        assert solution.verdict in (LOST, UNKNOWN)
        if variant.key in MUST_DECIDE:
            assert solution.verdict == LOST
    elif solution.verdict == WON:
        for move in solution.moves:
            state = variant.play(state, move).state
        assert variant.is_won(state)
