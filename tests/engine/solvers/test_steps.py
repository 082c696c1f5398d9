"""The Steps solver: won verdicts whose line replays to a win (fresh deals and a game in
progress, several option sets), lost verdicts checked against an independent exhaustive
search over the engine's own moves, unknown at a tiny budget, and the compiled core
agreeing with the pure-Python search move for move."""

import os
from typing import Any

import pytest

from games.engine.cards import full_deck
from games.engine.errors import EngineError
from games.engine.notation import format_move
from games.engine.registry import get_variant
from games.engine.replay import deal_of_case, replay
from games.engine.solvers import LOST, UNKNOWN, WON, Budget, solve_case, solver_for
from games.engine.solvers.steps_search import MAX_DEPTH, talon_moves, talon_reach
from games.engine.steps import Steps, StepsState

STEPS = get_variant("steps")
SOLVER = solver_for("steps")
NATIVE = SOLVER.native_available()
BUDGET = Budget(ms=20_000)

needs_native = pytest.mark.skipif(
    not NATIVE and not os.environ.get("CI"),
    reason="the compiled core is not built (python scripts/build_native.py)",
)


def case(seed: str, **options: Any) -> dict[str, Any]:
    return {"variant": "steps", "seed": seed, "options": options}


def replays_to_win(game: dict[str, Any], moves: tuple[str, ...]) -> bool:
    result = replay({**game, "moves": list(moves)})
    return result["error"] is None and result["status"] == "won"


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        ("bench-steps-1", {}),
        ("bench-steps-17", {"draw": 3}),
        ("test-steps-3", {"buffers": 0}),
        ("bench-steps-1", {"retrieval": True}),
        ("bench-steps-4", {"buffers": 0, "recycles": 0}),
    ],
)
def test_won_deals_replay_to_a_win(seed: str, options: dict[str, Any]) -> None:
    game = case(seed, **options)
    solution = solve_case(game, budget=BUDGET, native=False)
    assert solution.verdict == WON
    assert not solution.native
    assert solution.nodes >= 1
    assert replays_to_win(game, solution.moves)
    assert 1 <= SOLVER.difficulty(solution) <= 5


def test_a_game_in_progress_is_solved_from_where_it_stands() -> None:
    game = case("bench-steps-1")
    _, state = deal_of_case(game)
    # Some draws, a recycle pass and a few moves: the waste is not empty, a recycle is
    # used and the talon is no longer in its dealt order.
    opening = ["draw"] * 24 + ["recycle"] + ["draw"] * 5
    for move in opening:
        state = STEPS.play(state, move).state
    played = list(opening)
    for _ in range(3):
        move = next(m for m in STEPS.legal_moves(state) if m.kind == "transfer")
        step = STEPS.apply(state, move)
        state = step.state
        played.append(format_move(move))
    assert state.recycles == 1
    assert state.waste
    solution = SOLVER.solve(STEPS, state, budget=BUDGET, native=False)
    assert solution.verdict == WON
    for move in solution.moves:
        state = STEPS.play(state, move).state
    assert STEPS.status(state) == "won"
    assert replays_to_win(game, (*played, *solution.moves))


def snapshot(tableau: list[tuple[list[str], list[str]]], **extra: Any) -> StepsState:
    """A Steps position: the piles given, the other cards on the foundations."""
    options = {"draw": 1, "buffers": 0, "recycles": 0, "retrieval": False}
    options.update(extra.pop("options", {}))
    piles = [{"down": down, "up": up} for down, up in tableau]
    piles += [{"down": [], "up": []}] * (7 - len(piles))
    data = {
        "variant": "steps",
        "tableau": piles,
        "foundations": extra.pop("foundations"),
        "stock": extra.pop("stock", []),
        "waste": extra.pop("waste", []),
        "options": options,
        "reserves": [None] * 4,
        "recycles": 0,
        "points": 0,
        "reserve_uses": 0,
    }
    state = STEPS.load(data)
    assert isinstance(state, StepsState)
    return state


def exhaustively_won(variant: Steps, state: StepsState, limit: int = 50_000) -> bool:
    """An independent check by brute force over the engine's legal moves (no solver
    code): whether any reachable position is won."""
    seen = {repr(variant.dump(state))}
    frontier = [state]
    while frontier:
        position = frontier.pop()
        if variant.is_won(position):
            return True
        for move in variant.legal_moves(position):
            after = variant.apply(position, move).state
            key = repr({**variant.dump(after), "points": 0, "reserve_uses": 0})
            if key not in seen:
                seen.add(key)
                assert len(seen) < limit, "the brute force is too large for a test"
                frontier.append(after)
    return False


def stuck_position(buffers: int) -> StepsState:
    """Spades up to the 9, every other suit complete: the jack of spades lies on the
    face-down 10 and nothing takes it but a reserve slot."""
    tableau = [(["TS"], ["JS"]), (["QS"], ["KS"])]
    return snapshot(tableau, foundations=[9, 13, 13, 13], options={"buffers": buffers})


def test_a_lost_position_is_proved_lost_and_the_proof_is_checked_by_brute_force() -> None:
    state = stuck_position(buffers=0)
    solution = SOLVER.solve(STEPS, state, budget=BUDGET, native=False)
    assert solution.verdict == LOST
    assert solution.moves == ()
    assert not exhaustively_won(STEPS, state)
    # The same position with one reserve slot is won: the jack waits in the slot.
    freed = stuck_position(buffers=1)
    won = SOLVER.solve(STEPS, freed, budget=BUDGET, native=False)
    assert won.verdict == WON
    assert exhaustively_won(STEPS, freed)
    for move in won.moves:
        freed = STEPS.play(freed, move).state
    assert STEPS.status(freed) == "won"


def test_a_position_needing_a_retrieval_is_lost_without_it_and_won_with_it() -> None:
    # Spades up to the 10, every other suit complete: the queen of spades lies on the
    # face-down jack. Only the king of hearts, back from its foundation onto an empty
    # pile, can take the queen.
    tableau = [(["JS"], ["QS"]), ([], []), ([], ["KS"])]
    found = [10, 13, 13, 13]
    closed = snapshot(tableau, foundations=found)
    assert SOLVER.solve(STEPS, closed, budget=BUDGET, native=False).verdict == LOST
    assert not exhaustively_won(STEPS, closed)
    opened = snapshot(tableau, foundations=found, options={"retrieval": True})
    solution = SOLVER.solve(STEPS, opened, budget=BUDGET, native=False)
    assert solution.verdict == WON
    assert "fH-t2" in solution.moves
    for move in solution.moves:
        opened = STEPS.play(opened, move).state
    assert STEPS.status(opened) == "won"


def test_a_deal_proved_lost() -> None:
    # No reserve slot and no recycle: this deal is lost, and the search says so after
    # expanding every reachable position.
    solution = solve_case(case("bench-steps-0", buffers=0, recycles=0), native=False)
    assert solution.verdict == LOST
    assert solution.nodes > 100


def test_unknown_at_a_tiny_budget() -> None:
    solution = solve_case(case("bench-steps-0"), budget=Budget(nodes=1), native=False)
    assert solution.verdict == UNKNOWN
    assert solution.moves == ()
    assert solution.nodes == 1


def test_talon_macro_moves_reach_every_card_the_draws_reach() -> None:
    # Draw 3 from 2 cards on the waste of 8: this pass reaches 2 (the top), 5, 8; the next
    # pass (after a recycle) 3 and 6.
    assert talon_reach(8, 2, 3, True) == [(2, 0), (5, 0), (8, 0), (3, 1), (6, 1)]
    assert talon_reach(8, 2, 3, False) == [(2, 0), (5, 0), (8, 0)]
    assert talon_reach(3, 0, 1, True) == [(1, 0), (2, 0), (3, 0)]
    assert talon_moves(8, 2, 6, 1, 3) == ["draw", "draw", "recycle", "draw", "draw"]
    assert talon_moves(8, 2, 8, 0, 3) == ["draw", "draw"]
    assert MAX_DEPTH > 52 * 4


AGREEMENT = [
    ("bench-steps-3", {}, 1_000),  # won
    ("bench-steps-0", {}, 1_000),  # the budget runs out first
    ("bench-steps-4", {"draw": 3}, 1_000),  # won
    ("bench-steps-1", {"retrieval": True}, 1_000),  # won
    ("bench-steps-0", {"buffers": 0, "recycles": 0}, 1_500),  # lost
    ("test-steps-4", {"draw": 3, "buffers": 2, "recycles": 1, "retrieval": True}, 600),
]


@needs_native
@pytest.mark.parametrize(("seed", "options", "nodes"), AGREEMENT)
def test_the_compiled_core_agrees_with_the_python_search(
    seed: str, options: dict[str, Any], nodes: int
) -> None:
    # The same search: the same verdict, node count and line within the same budget.
    game = case(seed, **options)
    budget = Budget(nodes=nodes)
    python = solve_case(game, budget=budget, native=False)
    native = solve_case(game, budget=budget, native=True)
    assert native.native
    assert (native.verdict, native.nodes, native.moves) == (
        python.verdict,
        python.nodes,
        python.moves,
    )
    if native.verdict == WON:
        assert replays_to_win(game, native.moves)


def test_the_agreement_cases_cover_every_verdict() -> None:
    verdicts = {
        solve_case(case(seed, **options), budget=Budget(nodes=nodes), native=False).verdict
        for seed, options, nodes in AGREEMENT
    }
    assert verdicts == {WON, LOST, UNKNOWN}


@needs_native
def test_the_compiled_core_wins_and_proves_like_the_python_search() -> None:
    for game in (case("bench-steps-7"), case("bench-steps-0", buffers=0, recycles=0)):
        native = solve_case(game, budget=BUDGET, native=True)
        assert native.verdict == solve_case(game, budget=BUDGET, native=False).verdict
        if native.verdict == WON:
            assert replays_to_win(game, native.moves)
    lost = SOLVER.solve(STEPS, stuck_position(buffers=0), budget=BUDGET, native=True)
    assert lost.verdict == LOST


def test_native_demanded_where_it_is_not_built_is_refused(monkeypatch: Any) -> None:
    monkeypatch.setattr(type(SOLVER), "native_available", lambda self: False)
    with pytest.raises(EngineError):
        solve_case(case("bench-steps-1"), native=True)


def test_a_position_beyond_the_compiled_cores_sizes_is_answered_in_python() -> None:
    # A hand-made snapshot with 17 face-down cards in one pile (no deal has more than 6).
    deck = list(full_deck())
    piles = [{"down": deck[:17], "up": [deck[17]]}] + [{"down": [], "up": []}] * 6
    data = {
        "variant": "steps",
        "tableau": piles,
        "foundations": [0, 0, 0, 0],
        "stock": deck[18:],
        "waste": [],
        "options": {"draw": 1, "buffers": 4, "recycles": 3, "retrieval": False},
        "reserves": [None] * 4,
        "recycles": 0,
        "points": 0,
        "reserve_uses": 0,
    }
    state = STEPS.load(data)
    solution = SOLVER.solve(STEPS, state, budget=Budget(nodes=200))
    assert solution.verdict == UNKNOWN
    assert not solution.native
    assert solution.nodes == 200
