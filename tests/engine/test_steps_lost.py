"""Stagnation Lockout (docs/rules/steps.md#winning-and-losing): the stock is empty, no
recycle can turn the waste back, and no productive move is legal in the position nor in
any position reachable from it by non-productive moves.

Productive: a card turned up, the waste card leaving the waste (onto a pile, to a
foundation or into a slot), a card put on a foundation (beyond what the position holds),
a draw, a recycle. Non-productive: tableau rearrangements that turn nothing up, moves into
and out of the slots that turn nothing up and reach no foundation, retrievals (and
putting a retrieved card back)."""

import pytest

from games.engine import EngineError
from games.engine.steps import LOST_REASON, position_of
from games.engine.stuck import is_stuck_among

from .test_steps_helpers import STEPS, make_steps

ALREADY_LOST = r"^The game is already lost: the stock is empty, no recycle can turn"


def assert_lost(state):
    assert STEPS.is_lost(state)
    assert STEPS.status(state) == "lost"
    assert STEPS.legal_moves(state) == []
    view = STEPS.public_view(state)
    assert (view["status"], view["lost_reason"]) == ("lost", LOST_REASON)


def assert_not_lost(state):
    assert not STEPS.is_lost(state)
    assert STEPS.status(state) == "in_progress"
    assert STEPS.public_view(state)["lost_reason"] is None
    assert STEPS.legal_moves(state) != []


# Nothing takes the 5 of hearts (no black 6, no hearts up to 4, no empty pile for it) and
# the 9 of spades has nowhere to go but an empty pile, which takes only Kings.
STUCK_PILES = [("3C", "5H"), ("", "9S")]
NO_SLOTS = {"buffers": 0, "recycles": 0}


def test_the_lost_reason():
    assert LOST_REASON == (
        "The stock is empty, no recycle can turn the waste back and no move can change the "
        "outcome: no card can reach a foundation, leave the waste or turn up."
    )


def test_a_position_with_no_productive_move_left_is_lost():
    state = make_steps(STUCK_PILES, waste="2D", options=NO_SLOTS)
    assert_lost(state)
    for text in ["t2-t3", "draw", "recycle", "w-f", "t1-r1", "fS-t1"]:
        with pytest.raises(EngineError, match=ALREADY_LOST):
            STEPS.play(state, text)


def test_a_stock_with_cards_is_never_lost():
    assert_not_lost(make_steps(STUCK_PILES, stock="2D", options=NO_SLOTS))


def test_the_draw_that_empties_the_stock_with_no_recycle_left_loses():
    state = make_steps(STUCK_PILES, stock="2D", options=NO_SLOTS)
    step = STEPS.play(state, "draw")
    assert step.lost
    assert not step.won
    assert step.events == ("lost",)
    assert_lost(step.state)


def test_a_recycle_left_keeps_the_game_going_while_the_waste_has_cards():
    state = make_steps(STUCK_PILES, waste="2D", options={"buffers": 0, "recycles": 1})
    assert_not_lost(state)
    assert [str(move.kind) for move in STEPS.legal_moves(state)] == ["recycle"]
    state = STEPS.play(state, "recycle").state
    step = STEPS.play(state, "draw")
    assert step.lost  # the recycle is used and the waste card still goes nowhere
    assert_lost(step.state)


def test_a_recycle_left_does_not_help_with_an_empty_waste():
    assert_lost(make_steps(STUCK_PILES, options={"buffers": 0, "recycles": 3}))


def test_a_free_slot_takes_the_waste_card_so_the_game_goes_on():
    state = make_steps(STUCK_PILES[1:], waste="2D 7C", options={"buffers": 1, "recycles": 0})
    assert_not_lost(state)
    assert_lost(
        make_steps(
            STUCK_PILES[1:], waste="2D 7C", reserves="4S", options={"buffers": 1, "recycles": 0}
        )
    )


def test_a_free_slot_that_turns_a_card_up_is_a_way_out():
    state = make_steps(STUCK_PILES, options={"buffers": 1, "recycles": 0})
    assert_not_lost(state)
    step = STEPS.play(state, "t1-r1")
    assert step.revealed == ("3C",)


def test_moving_a_card_into_a_slot_and_back_does_not_count():
    # The 9 of spades can go into the slot and come back onto the 10 of hearts, for ever;
    # the 5 of hearts still goes nowhere.
    state = make_steps(
        [("3C", "QD 5H"), ("", "TH 9S")], reserves="4D .", options={"buffers": 2, "recycles": 0}
    )
    assert_lost(state)
    with pytest.raises(EngineError, match=ALREADY_LOST):
        STEPS.play(state, "t2-r2")


def test_a_card_parked_in_a_slot_to_free_a_foundation_card_is_not_lost():
    # The 4 of spades goes into the slot (turning nothing up), then the 5 of hearts up.
    piles = [("", "5H 4S"), ("3C", "9D")]
    state = make_steps(piles, {"H": 4}, options={"buffers": 1, "recycles": 0})
    assert_not_lost(state)
    assert STEPS.play(state, "t1-r1").revealed == ()
    assert_lost(make_steps(piles, {"H": 4}, options=NO_SLOTS))


def test_a_slot_card_that_can_reach_its_foundation_is_not_lost():
    state = make_steps(STUCK_PILES, {"C": 3}, reserves="4C", options={"buffers": 1, "recycles": 0})
    assert_not_lost(state)
    assert STEPS.play(state, "r1-f").state.foundations == (0, 0, 0, 4)


def test_a_dead_end_move_is_allowed_and_ends_the_game():
    # The 9 of spades into the only slot empties pile 2 for nothing: it cannot come back,
    # and the 5 of hearts no longer has a slot to go into (which would turn the 3 of clubs
    # up).
    state = make_steps(STUCK_PILES, options={"buffers": 1, "recycles": 0})
    assert_not_lost(state)
    step = STEPS.play(state, "t2-r1")
    assert step.revealed == ()
    assert step.lost
    assert step.events == ("lost",)
    assert_lost(step.state)


def test_the_order_of_the_slots_does_not_matter():
    one = make_steps(STUCK_PILES, reserves="4S . .", options={"buffers": 3, "recycles": 0})
    other = make_steps(STUCK_PILES, reserves=". . 4S", options={"buffers": 3, "recycles": 0})
    assert position_of(one) == position_of(other)
    assert STEPS.is_lost(one) == STEPS.is_lost(other) is False  # a free slot: 3C turns up


# Retrieval


def test_a_retrieval_that_unlocks_the_tableau_is_a_way_out():
    # The 7 of spades comes back onto the 8 of hearts, then the 6 of diamonds onto it
    # and the 2 of clubs turns up.
    piles = [("", "8H"), ("2C", "6D")]
    state = make_steps(piles, {"S": 7, "H": 4}, options={**NO_SLOTS, "retrieval": True})
    assert_not_lost(state)
    state = STEPS.play(state, "fS-t1").state
    assert STEPS.play(state, "t2-t1").revealed == ("2C",)
    assert_lost(make_steps(piles, {"S": 7, "H": 4}, options=NO_SLOTS))


def test_retrieving_and_putting_back_the_same_card_does_not_count():
    # The 7 of spades can come down onto the 8 of hearts and go back up, for ever.
    piles = [("", "8H"), ("2C", "6S")]
    state = make_steps(piles, {"S": 7, "H": 4}, options={**NO_SLOTS, "retrieval": True})
    assert_lost(state)
    with pytest.raises(EngineError, match=ALREADY_LOST):
        STEPS.play(state, "fS-t1")


def test_after_a_retrieval_putting_the_card_back_is_still_open():
    # Not lost: the player took a card down from a game that was not lost (a card in
    # the stock), and the stock is then drawn; the card can still go back up.
    piles = [("", "8H"), ("2C", "6S")]
    options = {**NO_SLOTS, "retrieval": True}
    state = make_steps(piles, {"S": 7, "H": 4}, stock="3D", options=options)
    state = STEPS.play(state, "fS-t1").state
    step = STEPS.play(state, "draw")
    assert not step.lost
    step = STEPS.play(step.state, "t1-f")
    assert step.lost
    assert_lost(step.state)


# The search


def test_at_the_cap_the_position_is_not_declared_lost():
    def chain(length):
        def explore(position):
            return [position + 1] if position + 1 < length else []

        return explore

    assert is_stuck_among(0, chain(50), cap=50)
    assert not is_stuck_among(0, chain(51), cap=50)
    assert not is_stuck_among(0, lambda position: None)
