"""The Spike solver: won with a line that replays to a win (every mode, from a deal and
from a game in progress), lost only when nothing wins (checked against an exhaustive
search over the engine's own moves), unknown when the budget runs out, and the compiled
core giving the pure-Python answers node for node."""

import json
import os
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from games.engine import RANKS, EngineError, full_deck, get_variant, replay, shuffled_deck
from games.engine.solvers import LOST, UNKNOWN, WON, Budget, solver_for, solvers
from games.engine.solvers import spike as spike_solver
from games.engine.solvers.spike import SpikePosition, SpikeSolver, catchments
from games.engine.spike import MODES, WILD_MARK, SpikeState

SPIKE = get_variant("spike")
SOLVER = solver_for("spike")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PATHS = [False, True]
HARD_SEED = "spike-20391"
"""A won deal that takes the search over a million positions."""


def native_or_skip(native: bool) -> None:
    if native and not SOLVER.native_available():
        if os.environ.get("CI"):
            pytest.fail("the compiled Spike core is not built (scripts/build_native.py)")
        pytest.skip("the compiled Spike core is not built here")


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def after(game: dict[str, Any], moves: list[str]) -> SpikeState:
    state: SpikeState = SPIKE.deal(game["deck"], game["options"])
    for move in moves:
        state = SPIKE.play(state, move).state
    return state


def replays_to_win(game: dict[str, Any], moves: list[str]) -> bool:
    result = replay({**game, "moves": moves})
    return result["error"] is None and result["status"] == "won"


def locked_deck() -> list[str]:
    """A deal that no play wins: every Queen and Ace lies above a King, and every Ace and
    Three above a Two, none of them in the stock or on the waste. So the first King played
    needs the wild card (a Queen or Ace before it would need a King before it), and so
    does the first Two: two demands on one wild card."""
    layout = {
        3: "QS", 4: "QH", 5: "QD", 7: "KS",  # spike 2: three Queens above the middle King
        9: "AS", 10: "AH", 11: "AD", 12: "AC", 13: "QC", 14: "3C",  # spike 3, above ...
        15: "KH", 16: "2H", 17: "KD", 18: "2D",  # ... its bottom row K 2 K 2
        19: "3S", 20: "3H", 21: "3D", 23: "2S",  # spike 4: three Threes above the middle Two
    }  # fmt: skip
    rest = iter(card for card in full_deck() if card not in layout.values())
    deck = [layout.get(place) or next(rest) for place in range(28)]
    return [*deck, *rest]


def exhaustive(state: SpikeState, seen: dict[tuple[Any, ...], bool]) -> bool:
    """Whether some sequence of the engine's legal moves wins: every one tried."""
    if SPIKE.is_won(state):
        return True
    key = (state.spikes, len(state.stock), state.waste[-1], state.wild_used)
    if key not in seen:
        seen[key] = any(
            exhaustive(SPIKE.apply(state, move).state, seen) for move in SPIKE.legal_moves(state)
        )
    return seen[key]


def test_registered_for_spike():
    assert isinstance(SOLVER, SpikeSolver)
    assert solvers()["spike"] is SOLVER
    assert SOLVER.variant_key == SPIKE.key


@pytest.mark.parametrize("native", PATHS)
@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_deal_is_won_in_every_mode_with_a_line_that_replays_to_a_win(mode, native):
    native_or_skip(native)
    for number in range(3):
        game = {"variant": "spike", "options": {"mode": mode}, "seed": f"bench-spike-{number}"}
        state = SPIKE.deal(shuffled_deck(game["seed"]), game["options"])
        solution = SOLVER.solve(SPIKE, state, budget=Budget(ms=10_000), native=native)
        assert solution.verdict == WON
        assert solution.native is native
        assert solution.nodes >= 28  # one position at least for each spike card played
        assert replays_to_win(game, list(solution.moves))


@pytest.mark.parametrize("native", PATHS)
def test_the_modes_share_one_answer(native):
    """The modes score differently; the legal moves, and so the search, are the same."""
    native_or_skip(native)
    deck = shuffled_deck("bench-spike-19")
    answers = {
        mode: SOLVER.solve(SPIKE, SPIKE.deal(deck, {"mode": mode}), native=native) for mode in MODES
    }
    assert {(a.verdict, a.moves, a.nodes) for a in answers.values()} == {
        (answers["classic"].verdict, answers["classic"].moves, answers["classic"].nodes)
    }
    assert answers["classic"].verdict == WON
    assert "wild" in answers["classic"].moves


@pytest.mark.parametrize("native", PATHS)
def test_a_locked_deal_is_proved_lost(native):
    native_or_skip(native)
    deck = locked_deck()
    state = SPIKE.deal(deck, {"mode": "relaxed"})
    assert state.waste == ("KC",)  # the last King starts the waste: no Queen, Ace or Three
    solution = SOLVER.solve(SPIKE, state, native=native)
    assert solution.verdict == LOST
    assert solution.moves == ()
    assert solution.nodes >= 1


@pytest.mark.parametrize("native", PATHS)
def test_a_game_in_progress_is_won_or_lost_as_an_exhaustive_search_says(native):
    """The lost fixture's game: still winnable 36 moves in, lost one move later (the 37th
    move threw the win away), and at its end."""
    native_or_skip(native)
    game = fixture("spike_lost.json")
    moves = game.pop("moves")
    for count, verdict in ((20, WON), (36, WON), (37, LOST), (40, LOST), (len(moves), LOST)):
        state = after(game, moves[:count])
        solution = SOLVER.solve(SPIKE, state, native=native)
        assert solution.verdict == verdict, count
        assert exhaustive(state, {}) is (verdict == WON)
        if verdict == WON:
            assert replays_to_win(game, moves[:count] + list(solution.moves))
        else:
            assert solution.moves == ()
    assert SPIKE.is_lost(after(game, moves))


@pytest.mark.parametrize("native", PATHS)
def test_a_won_game_needs_no_move(native):
    native_or_skip(native)
    game = fixture("spike_win.json")
    state = after(game, game.pop("moves"))
    solution = SOLVER.solve(SPIKE, state, native=native)
    assert (solution.verdict, solution.moves, solution.nodes) == (WON, (), 0)


@pytest.mark.parametrize("native", PATHS)
def test_random_positions_match_an_exhaustive_search(native):
    """Late positions of random games (with the wild card on the waste, used or not):
    the verdict is what trying every move says, and each won line wins."""
    native_or_skip(native)
    rng = random.Random(14)
    verdicts = set()
    for number in range(24):
        state = SPIKE.deal(shuffled_deck(f"spike-random-{number}"))
        for _ in range(rng.randrange(30, 45)):
            moves = SPIKE.legal_moves(state)
            if not moves:
                break
            state = SPIKE.apply(state, rng.choice(moves)).state
        solution = SOLVER.solve(SPIKE, state, native=native)
        assert solution.verdict == (WON if exhaustive(state, {}) else LOST)
        verdicts.add(solution.verdict)
        for move in solution.moves:
            state = SPIKE.play(state, move).state
        assert SPIKE.is_won(state) is (solution.verdict == WON)
    assert verdicts == {WON, LOST}


def test_every_position_the_pruning_calls_hopeless_is_lost(monkeypatch):
    """The pruning's proofs of loss, each checked by trying every move of the engine from
    the position it judged (rebuilt as a state: the cards gone, the stock left, a card of
    the top's rank or the wild card on the waste)."""
    judged: list[tuple[SpikeState, tuple[int, int, int, bool]]] = []
    hopeless = spike_solver._Search.hopeless

    def recording(search: Any, remaining: int, exposed: int, present: int, *rest: Any) -> bool:
        verdict: bool = hopeless(search, remaining, exposed, present, *rest)
        if verdict:
            judged.append((root, (remaining, *rest)))
        return verdict

    monkeypatch.setattr(spike_solver._Search, "hopeless", recording)
    rng = random.Random(21)
    for number in range(24):
        root = SPIKE.deal(shuffled_deck(f"spike-pruned-{number}"))
        for _ in range(rng.randrange(30, 45)):
            moves = SPIKE.legal_moves(root)
            if not moves:
                break
            root = SPIKE.apply(root, rng.choice(moves)).state
        spike_solver.search_position(SpikePosition.of(root), Budget())
    assert len(judged) > 50
    for state, (remaining, stock, top, wild_used) in judged:
        spikes = tuple(
            card if remaining >> place & 1 else None for place, card in enumerate(state.spikes)
        )
        top_card = WILD_MARK if top == spike_solver.WILD_TOP else RANKS[top] + "S"
        position = replace(
            state,
            spikes=spikes,
            stock=state.stock[:stock],
            waste=(top_card,),
            wild_used=wild_used,
        )
        assert not exhaustive(position, {})


@pytest.mark.parametrize("native", PATHS)
def test_unknown_when_the_node_budget_runs_out(native):
    native_or_skip(native)
    state = SPIKE.deal(shuffled_deck("bench-spike-0"))
    solution = SOLVER.solve(SPIKE, state, budget=Budget(nodes=1), native=native)
    assert (solution.verdict, solution.moves, solution.nodes) == (UNKNOWN, (), 1)


@pytest.mark.parametrize("native", PATHS)
def test_unknown_when_the_time_budget_runs_out(native):
    native_or_skip(native)
    state = SPIKE.deal(shuffled_deck(HARD_SEED))
    solution = SOLVER.solve(SPIKE, state, budget=Budget(ms=30), native=native)
    assert solution.verdict == UNKNOWN
    assert solution.moves == ()
    assert 0 < solution.nodes < 1_000_000
    assert solution.ms < 1_000


def positions(count: int, seed: int) -> list[SpikeState]:
    rng = random.Random(seed)
    states = []
    for number in range(count):
        state = SPIKE.deal(shuffled_deck(f"spike-paths-{number}"))
        for _ in range(rng.randrange(0, 40)):
            moves = SPIKE.legal_moves(state)
            if not moves:
                break
            state = SPIKE.apply(state, rng.choice(moves)).state
        states.append(state)
    return states


def answer(state: SpikeState, budget: Budget, native: bool) -> tuple[str, tuple[str, ...], int]:
    solution = SOLVER.solve(SPIKE, state, budget=budget, native=native)
    assert solution.native is native
    return solution.verdict, solution.moves, solution.nodes


def test_both_paths_agree_node_for_node():
    native_or_skip(True)
    verdicts = set()
    for number, state in enumerate(positions(40, 5)):
        for budget in (Budget(nodes=20_000), Budget(nodes=1 + 37 * number)):
            python = answer(state, budget, native=False)
            assert answer(state, budget, native=True) == python
            verdicts.add(python[0])
    assert verdicts == {WON, LOST, UNKNOWN}


def test_both_paths_agree_when_the_table_forgets(monkeypatch):
    """A table of a few positions a generation: positions are searched again, and the
    answers stay the same, and the same on both paths."""
    native_or_skip(True)
    for state in positions(12, 6):
        full = answer(state, Budget(), native=False)
        monkeypatch.setattr(spike_solver, "TT_CAPACITY", 3)
        small = answer(state, Budget(nodes=200_000), native=False)
        assert answer(state, Budget(nodes=200_000), native=True) == small
        monkeypatch.undo()
        assert small[0] in (full[0], UNKNOWN)
        assert small[2] >= full[2]


def test_the_native_core_refuses_a_bad_position():
    native_or_skip(True)
    search = spike_solver._native
    assert search is not None
    good = (bytes(28), b"", 0, False, 0, 0, 1)
    assert search(*good)[0] in (0, 1)
    for bad in (
        (bytes(27), *good[1:]),
        (bytes([13] * 28), *good[1:]),
        (bytes(28), bytes([13]), *good[2:]),
        (bytes(28), bytes(25), *good[2:]),
        (*good[:2], 14, *good[3:]),
        (*good[:4], -1, 0, 1),
        (*good[:6], 0),
    ):
        with pytest.raises(ValueError, match=r"ranks?|stock|top|budget"):
            search(*bad)


def test_a_position_that_no_deal_gives_is_refused():
    state = SPIKE.deal(shuffled_deck("bench-spike-0"))
    for bad in (
        replace(state, spikes=state.spikes[:27]),
        replace(state, waste=()),
        replace(state, stock=state.stock + state.spikes[:2]),
    ):
        with pytest.raises(EngineError, match="28 spike places"):
            SOLVER.solve(SPIKE, bad, native=False)


def test_native_true_demands_the_core(monkeypatch):
    monkeypatch.setattr(spike_solver, "_native", None)
    assert not SOLVER.native_available()
    with pytest.raises(EngineError):
        SOLVER.solve(SPIKE, SPIKE.deal(shuffled_deck("bench-spike-0")), native=True)
    assert SOLVER.solve(SPIKE, SPIKE.deal(shuffled_deck("bench-spike-0"))).native is False


def test_catchments_are_the_arcs_of_ranks_and_their_neighbours():
    ace, two, four, king = 1 << 0, 1 << 1, 1 << 3, 1 << 12
    assert catchments((1 << 13) - 1) == ((1 << 13) - 1,)
    assert catchments(ace | king) == (ace | two | king | 1 << 11,)  # K-A wraps: one arc
    assert sorted(catchments(two | four)) == sorted([ace | two | 1 << 2, 1 << 2 | four | 1 << 4])


def test_difficulty_bands_spread_the_benchmark():
    solutions = {
        number: SOLVER.solve(SPIKE, SPIKE.deal(shuffled_deck(f"bench-spike-{number}")))
        for number in (*range(12), 19)
    }
    bands = {number: SOLVER.difficulty(solution) for number, solution in solutions.items()}
    assert bands[19] == 5  # tens of thousands of positions
    assert set(bands.values()) <= {1, 2, 3, 4, 5}
    assert len(set(bands.values())) >= 4
    for number, solution in solutions.items():
        assert (bands[number] == 5) is (solution.nodes > len(solution.moves) + 1)
