"""Solving for a win within a number of recycles (Solver.solve_recycling_at_most), what a
hard "win with at most N recycles" challenge is proved with (docs/challenges.md, "More
than a win"): Steps searches with its recycles option lowered, Klondike in one pass, the
games without a waste to recycle cannot bound them; on both paths."""

import pytest

from games.engine import get_variant, shuffled_deck
from games.engine.goals import line_facts
from games.engine.solvers import UNKNOWN, WON, Budget, solver_for

PATHS = [pytest.param(False, id="python"), pytest.param(True, id="native")]


def native_or_skip(key: str, native: bool) -> None:
    if native and not solver_for(key).native_available():
        pytest.skip(f"the compiled {key} core is not built here")


def recycles_of(key: str, state, moves) -> int:
    return int(line_facts(get_variant(key), state, moves)[-1].public["recycles"])


def test_steps_wins_within_fewer_recycles_than_its_own_line() -> None:
    # 74,581 positions: a fraction of a second in the compiled core, half a minute in
    # Python on a loaded machine; the paths' agreement is checked below on a node budget.
    native_or_skip("steps", True)
    steps = get_variant("steps")
    state = steps.deal(steps.deck_of_seed("challenge-steps-1"))
    solver = solver_for("steps")
    own = solver.solve(steps, state, native=True)
    assert own.verdict == WON
    assert recycles_of("steps", state, own.moves) == 3
    bounded = solver.solve_recycling_at_most(
        steps, state, recycles=2, budget=Budget(ms=20_000), native=True
    )
    assert bounded is not None
    assert bounded.verdict == WON
    assert recycles_of("steps", state, bounded.moves) <= 2
    assert line_facts(steps, state, bounded.moves)[-1].status == "won"


def test_the_two_paths_search_the_same_under_a_bound() -> None:
    native_or_skip("steps", True)
    steps = get_variant("steps")
    state = steps.deal(steps.deck_of_seed("challenge-steps-1"))
    solver = solver_for("steps")
    answers = [
        solver.solve_recycling_at_most(
            steps, state, recycles=2, budget=Budget(nodes=3_000), native=native
        )
        for native in (False, True)
    ]
    assert answers[0] is not None
    assert answers[1] is not None
    assert (answers[0].verdict, answers[0].nodes) == (answers[1].verdict, answers[1].nodes)


@pytest.mark.parametrize("native", PATHS)
def test_klondike_wins_in_one_pass_where_it_can(native) -> None:
    native_or_skip("klondike", native)
    klondike = get_variant("klondike")
    solver = solver_for("klondike")
    state = klondike.deal(klondike.deck_of_seed("h-klondike-5"))
    assert recycles_of("klondike", state, solver.solve(klondike, state, native=native).moves) == 9
    one_pass = solver.solve_recycling_at_most(klondike, state, recycles=3, native=native)
    assert one_pass is not None
    assert one_pass.verdict == WON
    assert "recycle" not in one_pass.moves
    assert line_facts(klondike, state, one_pass.moves)[-1].status == "won"


@pytest.mark.parametrize("native", PATHS)
def test_a_loss_in_one_pass_proves_nothing_of_a_bound_above_none(native) -> None:
    native_or_skip("klondike", native)
    klondike = get_variant("klondike")
    solver = solver_for("klondike")
    state = klondike.deal(klondike.deck_of_seed("c0689ae6b65e31870e8cb1355104707b"))
    assert solver.solve(klondike, state, native=native).verdict == WON
    none_at_all = solver.solve_recycling_at_most(klondike, state, recycles=0, native=native)
    assert none_at_all is not None
    assert none_at_all.verdict == "lost"
    some = solver.solve_recycling_at_most(klondike, state, recycles=2, native=native)
    assert some is not None
    assert some.verdict == UNKNOWN


@pytest.mark.parametrize("key", ["spike", "spiderette"])
def test_the_games_without_a_waste_to_recycle_cannot_bound_recycles(key) -> None:
    variant = get_variant(key)
    state = variant.deal(shuffled_deck(f"bound-{key}"))
    assert solver_for(key).solve_recycling_at_most(variant, state, recycles=0) is None
