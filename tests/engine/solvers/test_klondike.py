"""The Klondike solver (draw 3, unlimited recycles): won with a line that replays to a
win, lost with the whole reachable space searched, unknown at a tiny budget, from a deal
and from a game in progress, and the compiled core giving the pure-Python answers."""

import os

import pytest

from games.engine import get_variant, replay, shuffled_deck
from games.engine.solvers import LOST, UNKNOWN, WON, Budget, solver_for
from games.engine.solvers.klondike import KlondikeSolver
from games.engine.solvers.klondike_search import (
    canonical_pointer,
    dominators,
    draws_to,
    is_safe,
    reachable,
)

KLONDIKE = get_variant("klondike")
SOLVER = solver_for("klondike")
WON_SEED = "bench-klondike-1"
LOST_SEED = "bench-klondike-0"
HARD_SEED = "bench-klondike-4"
PATHS = [False, True]


def native_or_skip(native: bool) -> None:
    if native and not SOLVER.native_available():
        if os.environ.get("CI"):
            pytest.fail("the compiled Klondike core is not built (scripts/build_native.py)")
        pytest.skip("the compiled Klondike core is not built here")


def test_registered():
    assert isinstance(SOLVER, KlondikeSolver)
    assert SOLVER.variant_key == "klondike"


@pytest.mark.parametrize("native", PATHS)
def test_a_winnable_deal_is_won_with_a_line_that_replays_to_a_win(native):
    native_or_skip(native)
    solution = SOLVER.solve(KLONDIKE, KLONDIKE.deal(shuffled_deck(WON_SEED)), native=native)
    assert solution.verdict == WON
    assert solution.native is native
    assert "recycle" in solution.moves or solution.moves.count("draw") > 8
    result = replay({"variant": "klondike", "seed": WON_SEED, "moves": list(solution.moves)})
    assert result["error"] is None
    assert result["status"] == "won"


@pytest.mark.parametrize("native", PATHS)
def test_a_dead_deal_is_lost_after_the_whole_search(native):
    native_or_skip(native)
    solution = SOLVER.solve(KLONDIKE, KLONDIKE.deal(shuffled_deck(LOST_SEED)), native=native)
    assert solution.verdict == LOST
    assert solution.moves == ()
    assert solution.nodes > 100


def blocked_position():
    """The two of spades lies under the three: the three can go nowhere (both red fours
    are home) and the two is the only way up for every other spade."""
    spades = ["4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"]
    return KLONDIKE.load(
        {
            "variant": "klondike",
            "tableau": [{"down": ["2S"], "up": ["3S"]}] + [{"down": [], "up": []}] * 6,
            "foundations": [1, 13, 13, 13],
            "stock": spades[:6],
            "waste": spades[6:],
            "recycles": 5,
            "score": -40,
        }
    )


@pytest.mark.parametrize("native", PATHS)
def test_a_blocked_position_is_lost(native):
    native_or_skip(native)
    solution = SOLVER.solve(KLONDIKE, blocked_position(), native=native)
    assert solution.verdict == LOST
    assert solution.nodes > 1  # the Kings' moves into the empty piles were searched


def test_a_position_with_the_blocking_card_movable_is_won():
    state = KLONDIKE.load(
        {
            "variant": "klondike",
            "tableau": [{"down": ["2S"], "up": ["3S"]}, {"down": [], "up": ["4H"]}]
            + [{"down": [], "up": []}] * 5,
            "foundations": [1, 3, 13, 13],
            "stock": [rank + suit for suit in "SH" for rank in "56789TJQK"],
            "waste": ["4S"],
            "recycles": 0,
            "score": 0,
        }
    )
    solution = SOLVER.solve(KLONDIKE, state, native=False)
    assert solution.verdict == WON
    assert solution.moves[0] == "t1-t2"
    for move in solution.moves:
        state = KLONDIKE.play(state, move).state
    assert KLONDIKE.is_won(state)


@pytest.mark.parametrize("native", PATHS)
def test_a_tiny_budget_gives_unknown(native):
    native_or_skip(native)
    state = KLONDIKE.deal(shuffled_deck(HARD_SEED))
    solution = SOLVER.solve(KLONDIKE, state, budget=Budget(nodes=1), native=native)
    assert solution.verdict == UNKNOWN
    assert solution.nodes == 1
    assert solution.moves == ()
    timed = SOLVER.solve(KLONDIKE, state, budget=Budget(ms=1, nodes=5_000), native=native)
    assert timed.verdict == UNKNOWN


@pytest.mark.parametrize("native", PATHS)
def test_a_game_in_progress_is_solved_from_where_it_stands(native):
    native_or_skip(native)
    state = KLONDIKE.deal(shuffled_deck(WON_SEED))
    line = SOLVER.solve(KLONDIKE, state, native=False).moves
    for move in line[:25]:
        state = KLONDIKE.play(state, move).state
    assert state.waste  # mid-way through the stock, which the solver must read as it is
    solution = SOLVER.solve(KLONDIKE, state, native=native)
    assert solution.verdict == WON
    for move in solution.moves:
        state = KLONDIKE.play(state, move).state
    assert KLONDIKE.is_won(state)


def test_the_talon_positions_and_their_draws():
    # 10 cards, 1 in the waste: draws reach 4, 7, 10; after a recycle 3, 6, 9.
    assert reachable(1, 10, 3, True) == [1, 4, 7, 10, 3, 6, 9]
    assert reachable(1, 10, 3, False) == [1, 4, 7, 10]
    assert reachable(0, 5, 1, False) == [1, 2, 3, 4, 5]
    assert draws_to(1, 7, 10, 3) == ["draw", "draw"]
    assert draws_to(1, 10, 10, 3) == ["draw"] * 3
    assert draws_to(1, 6, 10, 3) == ["draw"] * 3 + ["recycle"] + ["draw"] * 2
    assert draws_to(10, 10, 10, 3) == []


def card_number(rank: int, suit: str) -> int:
    return "SHDC".index(suit) * 13 + rank - 1


def test_a_card_goes_home_by_itself_once_nothing_could_need_it():
    # Foundations in the order spades, hearts, diamonds, clubs.
    assert is_safe(card_number(2, "H"), (0, 0, 0, 0))
    assert is_safe(card_number(5, "H"), (4, 4, 0, 4))  # both black fours are home
    # The black fours can go home at once, and so can the 3 of diamonds that could go on
    # them: nothing will ever need the 5 of hearts.
    assert is_safe(card_number(5, "H"), (3, 4, 2, 3))
    assert not is_safe(card_number(5, "H"), (3, 4, 1, 3))  # the 3 of diamonds may need a 4
    assert not is_safe(card_number(5, "H"), (2, 4, 2, 3))  # the 4 of spades may need it
    assert not is_safe(card_number(5, "S"), (4, 2, 3, 4))  # the 4 of hearts may need it


def test_a_pointer_gives_way_only_to_pointers_that_reach_every_card_it_reaches():
    assert dominators(5, 3, True) == 1 << 2 | 1 << 5
    assert dominators(0, 3, True) & (1 << 25) - 1 == (1 << 25) - 1
    assert dominators(5, 1, False) == 1 << 5  # one pass: every pointer is its own
    for length in range(25):
        pointers = {canonical_pointer(pointer, length, 3, True) for pointer in range(length + 1)}
        for pointer in pointers:
            reach = set(reachable(pointer, length, 3, True))
            for other in pointers:
                if dominators(pointer, 3, True) >> other & 1:
                    assert set(reachable(other, length, 3, True)) >= reach, (length, pointer)


def test_the_two_paths_agree():
    native_or_skip(True)
    for number in range(6):
        seed = f"bench-klondike-{number}"
        state = KLONDIKE.deal(shuffled_deck(seed))
        budget = Budget(nodes=1_000)
        python = SOLVER.solve(KLONDIKE, state, budget=budget, native=False)
        native = SOLVER.solve(KLONDIKE, state, budget=budget, native=True)
        assert (native.verdict, native.nodes, native.moves) == (
            python.verdict,
            python.nodes,
            python.moves,
        ), seed
        if native.verdict == WON:
            result = replay({"variant": "klondike", "seed": seed, "moves": list(native.moves)})
            assert result["status"] == "won"
