"""Lost games: the stock is empty and no productive move is legal in the position or in
any position reachable from it by non-productive moves (docs/engine.md, stuck.py).

Productive: a card to a foundation, a card turned up, a run removed, the waste card
taken, a draw or a deal. Non-productive: every other tableau move (shuttles, a King-headed
pile between empty piles, part of a run)."""

import pytest

from games.engine import EngineError, Move, spiderette_lost
from games.engine.kingsley import LOST_REASON as KINGSLEY_REASON
from games.engine.spiderette import LOST_REASON as SPIDERETTE_REASON
from games.engine.stuck import STUCK, is_stuck, position_of, search

from .helpers import KINGSLEY, SPIDERETTE, make_kingsley, make_spiderette, run_of


def assert_lost(variant, state, reason):
    assert variant.is_lost(state)
    assert variant.status(state) == "lost"
    assert variant.legal_moves(state) == []
    view = variant.public_view(state)
    assert view["status"] == "lost"
    assert view["lost_reason"] == reason


def assert_not_lost(variant, state):
    assert not variant.is_lost(state)
    assert variant.status(state) == "in_progress"
    assert variant.public_view(state)["lost_reason"] is None
    assert variant.legal_moves(state) != []


def productive(step):
    return (
        bool(step.revealed)
        or step.points != 0
        or step.move.kind in ("draw", "deal")
        or (step.move.src == "w")
    )


def no_productive_move_now(variant, state):
    """Only the search can tell: every legal move is non-productive."""
    return not any(productive(variant.apply(state, move)) for move in variant.legal_moves(state))


# Kingsley

# Piles that never move and never take a card in the positions below (the 2s and 4s need
# a black 3 or 5, and take a black ace or 3; there are none).
K_FILLERS = [("9H", "2D"), ("TS", "4D"), ("6S", "2H"), ("5C", "4H")]

# 7H can shuttle between 8S and 8C for ever, but nothing reaches a foundation, the 5 of
# diamonds has nowhere to go and the King on pile 1 never finds an empty pile.
KINGSLEY_SHUTTLE = make_kingsley([("3C", "KD"), ("", "8S 7H"), ("", "8C"), *K_FILLERS], waste="5D")


def test_kingsley_a_position_with_only_shuttles_left_is_lost():
    assert Move("transfer", "t2", "t3") in KINGSLEY.legal_moves(
        make_kingsley([("3C", "KD"), ("", "8S 7H"), ("", "8C"), *K_FILLERS], stock="5D")
    )
    assert_lost(KINGSLEY, KINGSLEY_SHUTTLE, KINGSLEY_REASON)
    assert KINGSLEY_REASON == (
        "The stock is empty and no move can change the outcome: no card can reach a "
        "foundation, leave the waste or turn up."
    )


def test_kingsley_every_move_of_a_lost_game_is_refused():
    # t2-t3 (the 7 of hearts onto the 8 of clubs) is a legal shuttle, yet refused.
    for text in ["t2-t3", "t3-t1", "draw", "recycle", "w-f"]:
        with pytest.raises(EngineError, match=r"^The game is already lost: the stock is empty"):
            KINGSLEY.play(KINGSLEY_SHUTTLE, text)


def test_kingsley_a_stock_with_cards_is_never_lost():
    state = make_kingsley([("3C", "KD"), ("", "8S 7H"), ("", "8C"), *K_FILLERS], stock="5D")
    assert_not_lost(KINGSLEY, state)


def test_kingsley_the_draw_that_empties_the_stock_can_lose():
    state = make_kingsley([("3C", "KD"), ("", "8S 7H"), ("", "8C"), *K_FILLERS], stock="5D")
    step = KINGSLEY.play(state, "draw")
    assert step.lost
    assert not step.won
    assert step.events == ("lost",)
    assert step.state == KINGSLEY_SHUTTLE
    assert_lost(KINGSLEY, step.state, KINGSLEY_REASON)


def test_kingsley_a_king_headed_pile_between_empty_piles_does_not_count():
    piles = [("", "KS QH"), ("", ""), ("4C", "9D"), *K_FILLERS]
    moving = make_kingsley(piles, stock="3H")
    assert Move("transfer", "t1", "t2", 2) in KINGSLEY.legal_moves(moving)
    assert_lost(KINGSLEY, make_kingsley(piles), KINGSLEY_REASON)


def test_kingsley_moving_part_of_a_sequence_to_free_a_foundation_card_is_not_lost():
    # The 7 of clubs goes onto the 8 of diamonds, and the 8 of hearts is free for its
    # foundation: no productive move now, but one after a non-productive move.
    state = make_kingsley(
        [("", "9S 8H 7C"), ("", "9C 8D"), ("2S", "KC"), *K_FILLERS], foundations={"H": 7}
    )
    assert no_productive_move_now(KINGSLEY, state)
    assert_not_lost(KINGSLEY, state)
    state = KINGSLEY.play(state, "t1-t2").state
    assert KINGSLEY.play(state, "t1-f").points == 1


def test_kingsley_without_that_chance_the_same_position_is_lost():
    # "8H 7C" can move onto the 9 of clubs and back, but the 7 of clubs stays on the 8.
    state = make_kingsley(
        [("", "9S 8H 7C"), ("", "9C"), ("2S", "KC"), *K_FILLERS], foundations={"H": 7}
    )
    assert_lost(KINGSLEY, state, KINGSLEY_REASON)


def test_kingsley_emptying_a_pile_for_a_king_with_cards_under_it_is_not_lost():
    # The 8 of spades (a whole pile, nothing under it) goes onto the 9 of diamonds; the
    # King can then leave its face-down card.
    state = make_kingsley([("", "8S"), ("", "9D"), ("4C", "KD"), *K_FILLERS])
    assert no_productive_move_now(KINGSLEY, state)
    assert_not_lost(KINGSLEY, state)


@pytest.mark.parametrize(
    "piles_waste_foundations",
    [
        ([("", "QS")], "JD", {}),  # the waste card onto the tableau
        ([("", "QS")], "2C", {"C": 1}),  # ... or onto a foundation
        ([("", "QS"), ("7C", "JH")], "", {}),  # a card turned up
        ([("", "QS"), ("", "AS")], "", {}),  # a card onto a foundation
        ([("", ""), ("7C", "KH")], "", {}),  # a King leaving its face-down card
    ],
    ids=["waste-to-tableau", "waste-to-foundation", "turn-up", "to-foundation", "king"],
)
def test_kingsley_any_productive_move_keeps_the_game_going(piles_waste_foundations):
    piles, waste, foundations = piles_waste_foundations
    piles = piles + [("3S", "KC")] * (3 - len(piles)) + K_FILLERS
    assert_not_lost(KINGSLEY, make_kingsley(piles, waste=waste, foundations=foundations))


def test_kingsley_a_won_game_is_not_lost():
    state = make_kingsley(foundations={"S": 13, "H": 13, "D": 13, "C": 13})
    assert not KINGSLEY.is_lost(state)
    assert KINGSLEY.status(state) == "won"


# Spiderette

# Each 6 can go onto a 7 and back, but no run can grow to thirteen cards and the piles
# with face-down cards cannot be uncovered.
SPIDERETTE_SHUTTLE_PILES = [
    ("2C", "9S 4D"),
    ("", "7H"),
    ("", "7S 6C"),
    ("3H", "QC 2S"),
    ("", "JD"),
    ("", "KH"),
    ("8D", "9H"),
]
SPIDERETTE_SHUTTLE = make_spiderette(SPIDERETTE_SHUTTLE_PILES)


def test_spiderette_a_position_with_only_shuttles_left_is_lost():
    assert Move("transfer", "t3", "t2") in SPIDERETTE.legal_moves(
        make_spiderette(SPIDERETTE_SHUTTLE_PILES, stock="5H")
    )
    assert_lost(SPIDERETTE, SPIDERETTE_SHUTTLE, SPIDERETTE_REASON)
    assert SPIDERETTE.public_view(SPIDERETTE_SHUTTLE)["deals_left"] == 0
    assert SPIDERETTE_REASON == (
        "The stock is empty and no move can change the outcome: no run can be completed "
        "and no card can turn up."
    )
    with pytest.raises(EngineError, match=r"^The game is already lost"):
        SPIDERETTE.play(SPIDERETTE_SHUTTLE, "t3-t2")  # 6C onto 7H: legal, yet refused
    with pytest.raises(EngineError, match=r"^The game is already lost"):
        SPIDERETTE.play(SPIDERETTE_SHUTTLE, "deal")


def test_spiderette_a_stock_with_cards_is_never_lost():
    state = make_spiderette(SPIDERETTE_SHUTTLE_PILES, stock="AH 2H 3H 4H 5H 6H 8H")
    assert_not_lost(SPIDERETTE, state)


def test_spiderette_a_refused_deal_is_not_a_loss_while_the_stock_has_cards():
    # Pile 1 is empty, so the deal is refused; the stock still has cards: not lost.
    state = make_spiderette([("", ""), ("", "KS QS")] + [("", "KS")] * 5, stock="2H 3H 4H")
    assert SPIDERETTE.public_view(state)["deal_refusal"].startswith("Every pile must hold")
    assert not SPIDERETTE.is_lost(state)
    assert SPIDERETTE.status(state) == "in_progress"


def test_spiderette_the_last_deal_can_lose():
    piles = [("2C", "9S"), ("", "7H"), ("", "7S"), *SPIDERETTE_SHUTTLE_PILES[3:]]
    state = make_spiderette(piles, stock="6C AD 4D")  # 4D to pile 1, AD to 2, 6C to 3
    assert_not_lost(SPIDERETTE, state)
    step = SPIDERETTE.play(state, "deal")
    assert step.lost
    assert step.events == ("lost",)
    assert_lost(SPIDERETTE, step.state, SPIDERETTE_REASON)


def test_spiderette_a_run_that_can_be_completed_by_rearranging_is_not_lost():
    # The 2 of diamonds must leave the 3 of spades for the 3 of hearts before the 3 and
    # 2 of spades can join the King-to-4 of spades and the ace complete the run.
    state = make_spiderette(
        [
            ("", run_of("S", "K", "4")),
            ("", "3S 2D"),
            ("", "2S"),
            ("", "3H"),
            ("", "AS"),
            ("8D", "9H"),
            ("5C", "JD"),
        ]
    )
    assert no_productive_move_now(SPIDERETTE, state)
    assert_not_lost(SPIDERETTE, state)
    for text in ["t2-t4", "t2-t1", "t3-t1", "t5-t1"]:
        step = SPIDERETTE.play(state, text)
        state = step.state
    assert step.events == ("run_removed:S",)


def test_spiderette_without_that_chance_the_same_position_is_lost():
    state = make_spiderette(
        [
            ("", run_of("S", "K", "4")),
            ("", "3S 2D"),
            ("6H", "AS 2S"),
            ("5D", "7C"),
            ("8C", "4H"),
            ("8D", "9H"),
            ("5C", "JD"),
        ]
    )
    assert_lost(SPIDERETTE, state, SPIDERETTE_REASON)


def test_spiderette_an_empty_pile_to_uncover_a_card_is_not_lost():
    # The 8 of hearts goes into the empty pile, then the 9 of spades onto the 10 of
    # diamonds, and the 4 of clubs turns up.
    piles = [("", ""), ("4C", "9S 8H"), ("", "TD"), ("", "KD"), ("", "KC")]
    state = make_spiderette([*piles, ("6C", "7S 2H"), ("6S", "QS 5D")])
    assert no_productive_move_now(SPIDERETTE, state)
    assert_not_lost(SPIDERETTE, state)


def test_spiderette_a_dead_end_move_is_allowed_and_ends_the_game():
    # From a real game: moving the 3 of hearts onto the 4 of spades is a tableau move
    # that turns nothing up, from a position that is not lost into one that is.
    state = make_spiderette(
        [
            ("", "8S KD 3H"),
            ("", "4H 7H 6D QH 3D 2S"),
            ("8C TD", "KC QD 6S 8H 7C 6C 5D 4D 5C"),
            ("7D 5H AH", "JD AD TS JC"),
            ("KH 6H TC", "4C QS JH 7S"),
            ("9H 9S 3S 5S 2D", "2H AS 9C"),
            ("3C KS AC JS TH 9D", "8D QC 2C 4S"),
        ]
    )
    assert_not_lost(SPIDERETTE, state)
    step = SPIDERETTE.play(state, "t1-t7")
    assert step.revealed == ()
    assert step.lost
    assert step.events == ("lost",)
    assert_lost(SPIDERETTE, step.state, SPIDERETTE_REASON)


def test_spiderette_a_won_game_is_not_lost():
    state = make_spiderette(removed="S H D C")
    assert not SPIDERETTE.is_lost(state)
    assert SPIDERETTE.status(state) == "won"


# The search itself


def chain(length, productive_at=None):
    """An explore function over positions 0 .. length-1 in a line: position i leads to
    i + 1 by a non-productive move; ``productive_at`` has a productive move."""

    def explore(position):
        index = position[0]
        if index == productive_at:
            return None
        return [[index + 1]] if index + 1 < length else []

    return explore


def test_the_search_walks_every_rearrangement():
    assert is_stuck((0,), chain(50))
    assert not is_stuck((0,), chain(50, productive_at=49))


def test_at_the_cap_the_position_is_not_declared_lost():
    assert is_stuck((0,), chain(50), cap=50)
    assert not is_stuck((0,), chain(51), cap=50)


def test_the_order_of_the_search_does_not_change_the_answer():
    position = spiderette_lost.position_of(SPIDERETTE_SHUTTLE.tableau)
    explore = spiderette_lost.explore
    assert search(position, explore)[0] == STUCK
    assert search(position, explore, promise=lambda _: 0)[0] == STUCK
    assert search(position, explore, promise=lambda each: -len(each[0]))[0] == STUCK


def test_positions_that_differ_only_in_the_order_of_their_piles_are_one():
    swapped = make_kingsley([*K_FILLERS[::-1], ("", "8C"), ("", "8S 7H"), ("3C", "KD")], waste="5D")
    assert position_of(swapped.tableau) == position_of(KINGSLEY_SHUTTLE.tableau)
    assert_lost(KINGSLEY, swapped, KINGSLEY_REASON)


def test_spiderette_deals_onto_empty_piles_when_too_few_cards_are_left_to_fill_them():
    # Two runs gone before the first deal leave 2 cards for 7 piles: no arrangement fills
    # every pile, so the deal is allowed and fills the empty piles too (docs/rules).
    state = make_spiderette([("", "5H"), ("", "9C")], stock="2D 3D 4D 5D 6D 7D 8D", removed="S H")
    assert SPIDERETTE.public_view(state)["deal_refusal"] is None
    dealt = SPIDERETTE.play(state, "deal").state
    assert all(pile.up for pile in dealt.tableau)
    assert SPIDERETTE.undo(dealt, SPIDERETTE.play(state, "deal").undo) == state


def test_spiderette_with_seven_cards_left_every_pile_must_still_be_filled():
    state = make_spiderette(
        [("", "5H 4H"), ("", "9C"), ("", "8C"), ("", "7C"), ("", "6C"), ("", "JD")],
        stock="2D 3D 4D 5D 6D 7D 8D",
        removed="S H",
    )
    assert SPIDERETTE.public_view(state)["deal_refusal"].startswith("Every pile must hold")
