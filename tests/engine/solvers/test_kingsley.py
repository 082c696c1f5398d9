"""The Kingsley solver (draw 1, one pass): won with a line that replays to a win, lost
with the whole reachable space searched, unknown at a tiny budget, from a deal and from a
game in progress, and the compiled core giving the pure-Python answers."""

import os

import pytest

from games.engine import get_variant, replay, shuffled_deck
from games.engine.solvers import LOST, UNKNOWN, WON, Budget, solver_for
from games.engine.solvers.klondike import KingsleySolver

KINGSLEY = get_variant("kingsley")
SOLVER = solver_for("kingsley")
WON_SEED = "bench-kingsley-31"
LOST_SEEDS = ("bench-kingsley-5", "bench-kingsley-30")
HARD_SEED = "bench-kingsley-3"
PATHS = [False, True]


def native_or_skip(native: bool) -> None:
    if native and not SOLVER.native_available():
        if os.environ.get("CI"):
            pytest.fail("the compiled Kingsley core is not built (scripts/build_native.py)")
        pytest.skip("the compiled Kingsley core is not built here")


def test_registered():
    assert isinstance(SOLVER, KingsleySolver)
    assert SOLVER.variant_key == "kingsley"


@pytest.mark.parametrize("native", PATHS)
def test_a_winnable_deal_is_won_with_a_line_that_replays_to_a_win(native):
    native_or_skip(native)
    solution = SOLVER.solve(KINGSLEY, KINGSLEY.deal(shuffled_deck(WON_SEED)), native=native)
    assert solution.verdict == WON
    assert "recycle" not in solution.moves
    result = replay({"variant": "kingsley", "seed": WON_SEED, "moves": list(solution.moves)})
    assert result["error"] is None
    assert result["status"] == "won"
    assert result["score"] == 52


@pytest.mark.parametrize("native", PATHS)
@pytest.mark.parametrize("seed", LOST_SEEDS)
def test_a_dead_deal_is_lost_after_the_whole_search(native, seed):
    native_or_skip(native)
    solution = SOLVER.solve(KINGSLEY, KINGSLEY.deal(shuffled_deck(seed)), native=native)
    assert solution.verdict == LOST
    assert solution.moves == ()
    assert solution.nodes > 50


def spades_in_stock(drawn: str):
    """Every card home but the spades from the two up: the King on pile 1, the rest in
    the stock, drawn in the order given."""
    return KINGSLEY.load(
        {
            "variant": "kingsley",
            "tableau": [{"down": [], "up": ["KS"]}] + [{"down": [], "up": []}] * 6,
            "foundations": [1, 13, 13, 13],
            "stock": drawn.split()[::-1],
            "waste": [],
        }
    )


def test_one_pass_only():
    # Drawn from the Queen down, each spade waits in the waste and goes up in turn.
    assert (
        SOLVER.solve(
            KINGSLEY, spades_in_stock("QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"), native=False
        ).verdict
        == WON
    )
    # The three drawn before the four lies under it, and the four can go nowhere: with a
    # recycle the deal would be won, with one pass it is lost.
    lost = SOLVER.solve(KINGSLEY, spades_in_stock("3S 4S 2S 5S 6S 7S 8S 9S TS JS QS"), native=False)
    assert lost.verdict == LOST


@pytest.mark.parametrize("native", PATHS)
def test_a_tiny_budget_gives_unknown(native):
    native_or_skip(native)
    state = KINGSLEY.deal(shuffled_deck(HARD_SEED))
    solution = SOLVER.solve(KINGSLEY, state, budget=Budget(nodes=1), native=native)
    assert solution.verdict == UNKNOWN
    assert solution.nodes == 1
    assert solution.moves == ()


@pytest.mark.parametrize("native", PATHS)
def test_a_game_in_progress_is_solved_from_where_it_stands(native):
    native_or_skip(native)
    state = KINGSLEY.deal(shuffled_deck(WON_SEED))
    line = SOLVER.solve(KINGSLEY, state, native=False).moves
    for move in line[:30]:
        state = KINGSLEY.play(state, move).state
    assert state.waste
    assert state.stock
    solution = SOLVER.solve(KINGSLEY, state, native=native)
    assert solution.verdict == WON
    for move in solution.moves:
        state = KINGSLEY.play(state, move).state
    assert KINGSLEY.is_won(state)


@pytest.mark.parametrize("native", PATHS)
def test_a_game_already_lost_is_lost(native):
    native_or_skip(native)
    state = KINGSLEY.load(
        {
            "variant": "kingsley",
            "tableau": [{"down": ["2S"], "up": ["3S"]}] + [{"down": [], "up": []}] * 6,
            "foundations": [1, 13, 13, 13],
            "stock": [],
            "waste": ["KS", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"],
        }
    )
    assert KINGSLEY.status(state) == "lost"
    assert SOLVER.solve(KINGSLEY, state, native=native).verdict == LOST


def test_the_two_paths_agree():
    native_or_skip(True)
    for number in range(6):
        seed = f"bench-kingsley-{number}"
        state = KINGSLEY.deal(shuffled_deck(seed))
        budget = Budget(nodes=1_500)
        python = SOLVER.solve(KINGSLEY, state, budget=budget, native=False)
        native = SOLVER.solve(KINGSLEY, state, budget=budget, native=True)
        assert (native.verdict, native.nodes, native.moves) == (
            python.verdict,
            python.nodes,
            python.moves,
        ), seed
        if native.verdict == WON:
            result = replay({"variant": "kingsley", "seed": seed, "moves": list(native.moves)})
            assert result["status"] == "won"
