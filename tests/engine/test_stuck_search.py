"""The lost-game search (stuck.py, spiderette_lost.py, steps/lost.py) after issue 14,
section 6: breadth first, three verdicts (stuck, free, undecided at the cap), Spiderette's
compact public form and a cap that hopeless positions no longer reach."""

import pytest

from games.engine import get_variant, shuffled_deck, spiderette_lost
from games.engine.spiderette import LOST_REASON
from games.engine.stuck import FREE, STUCK, UNDECIDED, is_stuck_among, search, stuck_verdict

from .helpers import make_spiderette

SPIDERETTE = get_variant("spiderette")

# Issue 14, section 6: the stock is empty and no productive move exists in any of the
# positions reachable from here, yet the search stopped at 2,000 positions.
HOPELESS_SEED = "spiderette-rand-487"
HOPELESS_MOVES = [
    "t5-t2", "t7-t3", "t5-t4", "t4-t5/2", "t4-t5", "deal", "t6-t1",
    "t5-t1", "t7-t1", "t7-t4", "deal", "t3-t4", "deal", "deal",
]  # fmt: skip


def hopeless():
    state = SPIDERETTE.deal(shuffled_deck(HOPELESS_SEED), {})
    for move in HOPELESS_MOVES:
        state = SPIDERETTE.play(state, move).state
    return state


@pytest.fixture
def fresh_search(monkeypatch):
    """The Spiderette verdict cache emptied before and after (a test may change the cap)."""
    spiderette_lost._verdict.cache_clear()
    yield monkeypatch
    spiderette_lost._verdict.cache_clear()


def test_the_hopeless_spiderette_position_of_the_issue_is_lost(fresh_search):
    state = hopeless()
    assert state.stock == ()
    assert SPIDERETTE.status(state) == "lost"
    assert SPIDERETTE.legal_moves(state) == []
    view = SPIDERETTE.public_view(state)
    assert (view["status"], view["lost_reason"], view["may_be_stuck"]) == (
        "lost",
        LOST_REASON,
        False,
    )
    # Its space is larger than the old cap of 2,000, and the search walks all of it.
    verdict, seen = search(spiderette_lost.position_of(state.tableau), spiderette_lost.explore)
    assert verdict == STUCK
    assert 2_000 < len(seen) < spiderette_lost.SEARCH_CAP


def test_at_a_cap_too_small_the_position_is_undecided_and_not_lost(fresh_search):
    fresh_search.setattr(spiderette_lost, "SEARCH_CAP", 2_000)
    state = hopeless()
    assert SPIDERETTE.lost_verdict(state) == UNDECIDED
    assert SPIDERETTE.status(state) == "in_progress"
    view = SPIDERETTE.public_view(state)
    assert (view["status"], view["lost_reason"], view["may_be_stuck"]) == (
        "in_progress",
        None,
        True,
    )
    assert SPIDERETTE.legal_moves(state) != []


def test_the_face_down_cards_are_not_part_of_the_position():
    # The same face-up cards over different face-down ones: one position, one verdict,
    # so the proof uses only what the player sees.
    piles = [("", "7H"), ("", "7S 6C"), ("", "JD"), ("", "KH"), ("8D", "9H")]
    one = make_spiderette([("2C", "9S 4D"), ("3H", "QC 2S"), *piles])
    other = make_spiderette([("3H", "9S 4D"), ("2C", "QC 2S"), *piles])
    assert spiderette_lost.position_of(one.tableau) == spiderette_lost.position_of(other.tableau)
    assert SPIDERETTE.status(one) == SPIDERETTE.status(other) == "lost"


def test_an_undecided_search_is_neither_stuck_nor_free():
    def line(position):
        return [position + 1]  # a line that never ends

    assert search(0, line, cap=100)[0] == UNDECIDED
    assert not is_stuck_among(0, line, cap=100)
    assert stuck_verdict((0,), lambda position: [[position[0] + 1]], cap=100) == UNDECIDED
    assert search(0, lambda position: None)[0] == FREE


def test_the_search_goes_breadth_first():
    # From 0: "near" (one move from a productive position) and a line of a million
    # positions. Depth first, newest first, walks the line into its cap; breadth first
    # finds the productive move after a handful of positions.
    def explore(position):
        if position == "productive":
            return None
        if position == 0:
            return ["near", 1]
        if position == "near":
            return ["productive"]
        return [position + 1] if position < 1_000_000 else []

    verdict, seen = search(0, explore, cap=1_000)
    assert verdict == FREE
    assert len(seen) <= 5


def test_after_a_proof_every_position_seen_is_stuck_too(fresh_search):
    verdict, seen = search(spiderette_lost.position_of(hopeless().tableau), spiderette_lost.explore)
    assert verdict == STUCK
    for position in list(seen)[:50]:
        assert search(position, spiderette_lost.explore)[0] == STUCK
