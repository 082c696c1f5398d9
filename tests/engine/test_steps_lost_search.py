"""Stagnation Lockout with retrieval on is decided breadth first (issue 14, section 6):
where a productive move is a few moves away, the search finds it after a few dozen
positions; depth first it wandered through hundreds of thousands of retrievals and
put-backs first, so a move could take most of a second."""

import json
from pathlib import Path

from games.engine.steps import lost
from games.engine.stuck import FREE, UNDECIDED, search

from .test_steps_helpers import STEPS

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "positions" / "steps_retrieval_search.json"


def position_and_explore():
    state = STEPS.load(json.loads(FIXTURE.read_text())["state"])
    assert state.options.retrieval
    assert not state.stock
    waste = state.waste[-1] if state.waste else None
    context = (waste, state.options.buffers, sum(state.foundations), state.options.retrieval)
    position = lost.position_of(state)
    return state, position, lambda each: lost.explore(each, *context)


def depth_first(start, explore, cap):
    """The search as it was: newest position first."""
    seen = {start}
    stack = [start]
    while stack:
        successors = explore(stack.pop())
        if successors is None:
            return FREE
        for position in successors:
            if position not in seen:
                if len(seen) >= cap:
                    return UNDECIDED
                seen.add(position)
                stack.append(position)
    return "stuck"


def test_no_productive_move_is_legal_now_but_one_is_a_few_moves_away():
    state, position, explore = position_and_explore()
    assert explore(position) is not None  # only the search can tell
    verdict, seen = search(position, explore)
    assert verdict == FREE
    assert len(seen) < 100
    assert STEPS.status(state) == "in_progress"
    assert STEPS.public_view(state)["may_be_stuck"] is False
    assert STEPS.legal_moves(state) != []


def test_depth_first_the_same_position_was_not_decided():
    _, position, explore = position_and_explore()
    assert depth_first(position, explore, cap=lost.RETRIEVAL_SEARCH_CAP) == UNDECIDED


def test_with_retrieval_the_cap_is_smaller():
    assert lost.RETRIEVAL_SEARCH_CAP < lost.SEARCH_CAP
