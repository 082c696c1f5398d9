"""The Spiderette solver: won with a line that replays to a win, lost with the whole
reachable space searched, unknown at a tiny budget, from a deal and from a game in
progress, and the compiled core giving the pure-Python answers move for move."""

import json
import os
from pathlib import Path

import pytest

from games.engine import get_variant, replay, shuffled_deck
from games.engine.solvers import LOST, UNKNOWN, WON, Budget, solver_for
from games.engine.solvers.spiderette import SpideretteSolver, encode, move_text
from games.engine.solvers.spiderette_search import canonical, search, shortened

SPIDERETTE = get_variant("spiderette")
SOLVER = solver_for("spiderette")
WON_SEED = "bench-spiderette-6"
LOST_SEED = "bench-spiderette-9"
HARD_SEED = "bench-spiderette-0"
PATHS = [False, True]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# Issue 14's dead game: the stock is empty and no productive move is reachable.
DEAD_GAME = {
    "variant": "spiderette",
    "seed": "spiderette-rand-487",
    "moves": [
        "t5-t2", "t7-t3", "t5-t4", "t4-t5/2", "t4-t5", "deal", "t6-t1", "t5-t1", "t7-t1",
        "t7-t4", "deal", "t3-t4", "deal", "deal",
    ],
}  # fmt: skip


def native_or_skip(native: bool) -> None:
    if native and not SOLVER.native_available():
        if os.environ.get("CI"):
            pytest.fail("the compiled Spiderette core is not built (scripts/build_native.py)")
        pytest.skip("the compiled Spiderette core is not built here")


def dealt(seed):
    return SPIDERETTE.deal(shuffled_deck(seed))


def played(state, moves):
    for move in moves:
        state = SPIDERETTE.play(state, move).state
    return state


def test_registered():
    assert isinstance(SOLVER, SpideretteSolver)
    assert SOLVER.variant_key == "spiderette"


@pytest.mark.parametrize("native", PATHS)
def test_a_winnable_deal_is_won_with_a_line_that_replays_to_a_win(native):
    native_or_skip(native)
    solution = SOLVER.solve(SPIDERETTE, dealt(WON_SEED), native=native)
    assert solution.verdict == WON
    assert solution.native is native
    assert solution.moves.count("deal") == 4
    result = replay({"variant": "spiderette", "seed": WON_SEED, "moves": list(solution.moves)})
    assert result["error"] is None
    assert result["status"] == "won"
    assert SOLVER.difficulty(solution) in range(1, 6)


@pytest.mark.parametrize("native", PATHS)
def test_a_game_in_progress_is_won_from_where_it_stands(native):
    native_or_skip(native)
    case = json.loads((FIXTURES / "spiderette_win.json").read_text())
    state = played(SPIDERETTE.deal(case["deck"]), case["moves"][:100])
    solution = SOLVER.solve(SPIDERETTE, state, budget=Budget(nodes=100_000), native=native)
    assert solution.verdict == WON
    assert SPIDERETTE.is_won(played(state, solution.moves))


@pytest.mark.parametrize("native", PATHS)
def test_a_dead_deal_is_lost_after_the_whole_search(native):
    native_or_skip(native)
    solution = SOLVER.solve(SPIDERETTE, dealt(LOST_SEED), native=native)
    assert solution.verdict == LOST
    assert solution.moves == ()
    assert solution.nodes > 1_000


@pytest.mark.parametrize("native", PATHS)
def test_the_issues_dead_game_is_proved_lost(native):
    native_or_skip(native)
    state = played(dealt(DEAD_GAME["seed"]), DEAD_GAME["moves"])
    assert not state.stock
    solution = SOLVER.solve(SPIDERETTE, state, native=native)
    assert solution.verdict == LOST
    # Both phases ran: the restricted moves, then all of them over the same space.
    assert solution.nodes > 3_000


@pytest.mark.parametrize("native", PATHS)
def test_a_tiny_budget_answers_unknown(native):
    native_or_skip(native)
    by_nodes = SOLVER.solve(SPIDERETTE, dealt(HARD_SEED), budget=Budget(nodes=1), native=native)
    assert (by_nodes.verdict, by_nodes.moves, by_nodes.nodes) == (UNKNOWN, (), 1)
    by_time = SOLVER.solve(SPIDERETTE, dealt(HARD_SEED), budget=Budget(ms=1), native=native)
    assert by_time.verdict == UNKNOWN


@pytest.mark.parametrize("native", PATHS)
def test_the_last_runs_are_won_with_the_deal_that_fills_empty_piles(native):
    """Three runs gone and three cards on the table: the deal is allowed with empty
    piles (docs/rules/spiderette.md), and the solver uses it."""
    native_or_skip(native)
    clubs = ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C", "AC"]
    piles = [{"down": [], "up": [card]} for card in ("KC", "9C", "5C")]
    piles += [{"down": [], "up": []}] * 4
    stock = [card for card in clubs if card not in ("KC", "9C", "5C")]
    state = SPIDERETTE.load(
        {"variant": "spiderette", "tableau": piles, "stock": stock, "removed": ["S", "H", "D"]}
    )
    solution = SOLVER.solve(SPIDERETTE, state, native=native)
    assert solution.verdict == WON
    assert solution.moves.count("deal") == 2
    assert SPIDERETTE.is_won(played(state, solution.moves))


def test_an_already_won_state_is_won_with_no_moves():
    state = SPIDERETTE.load(
        {
            "variant": "spiderette",
            "tableau": [{"down": [], "up": []}] * 7,
            "stock": [],
            "removed": ["S", "H", "D", "C"],
        }
    )
    for native in PATHS:
        if native and not SOLVER.native_available():
            continue
        solution = SOLVER.solve(SPIDERETTE, state, native=native)
        assert (solution.verdict, solution.moves) == (WON, ())


def test_piles_are_interchangeable_only_where_no_deal_tells_them_apart():
    piles, _, _ = encode(dealt(WON_SEED))
    swapped = (piles[1], piles[0], *piles[2:])
    late = (*piles[:3], piles[6], piles[5], piles[4], piles[3])
    assert canonical(swapped, 0) == canonical(piles, 0)
    assert canonical(swapped, 24) != canonical(piles, 24)
    assert canonical(swapped, 3) != canonical(piles, 3)
    assert canonical(late, 3) == canonical(piles, 3)
    assert canonical(late, 10) != canonical(piles, 10)


@pytest.mark.parametrize("seed", [HARD_SEED, "bench-spiderette-2", WON_SEED, LOST_SEED])
def test_the_compiled_core_gives_the_pure_python_answer(seed):
    native_or_skip(True)
    state = dealt(seed)
    budget = Budget(nodes=8_000)
    python = SOLVER.solve(SPIDERETTE, state, budget=budget, native=False)
    compiled = SOLVER.solve(SPIDERETTE, state, budget=budget, native=True)
    assert compiled.native
    assert not python.native
    assert (compiled.verdict, compiled.moves, compiled.nodes) == (
        python.verdict,
        python.moves,
        python.nodes,
    )

    assert compiled.verdict == {HARD_SEED: UNKNOWN, LOST_SEED: LOST}.get(seed, WON)


def test_a_line_is_shortened_but_still_wins():
    """The depth-first line wanders (cards put into empty piles one after another); the
    solver's line goes straight to the latest position of it that a move reaches."""
    clubs = ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C", "AC"]
    piles = [{"down": [], "up": [card]} for card in ("KC", "9C", "5C")]
    piles += [{"down": [], "up": []}] * 4
    state = SPIDERETTE.load(
        {
            "variant": "spiderette",
            "tableau": piles,
            "stock": [card for card in clubs if card not in ("KC", "9C", "5C")],
            "removed": ["S", "H", "D"],
        }
    )
    board, stock, removed = encode(state)
    verdict, line, _ = search(board, stock, removed, max_nodes=None, deadline=None)
    assert verdict == 1
    short = shortened(board, stock, line)
    assert len(short) < len(line) / 2
    assert SPIDERETTE.is_won(played(state, [move_text(move) for move in short]))


def test_the_compiled_core_wins_where_the_budget_is_only_time():
    native_or_skip(True)
    seed = WON_SEED
    solution = SOLVER.solve(SPIDERETTE, dealt(seed), budget=Budget(ms=20_000), native=True)
    assert solution.verdict == WON
    result = replay({"variant": "spiderette", "seed": seed, "moves": list(solution.moves)})
    assert result["status"] == "won"
