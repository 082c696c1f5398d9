"""Why a tap moves nothing, in words a player reads (Variant.tap_refusal): what the
foundation and the piles would need. Every case here is one where tap gives None."""

import pytest

from games.engine import EngineError, get_variant, shuffled_deck

from .helpers import KINGSLEY, KLONDIKE, SPIDERETTE, make_kingsley, make_spiderette, make_state
from .test_steps_helpers import STEPS, make_steps


def refusal(variant, state, source, count=1):
    assert variant.tap(state, source, count) is None
    return variant.tap_refusal(state, source, count)


def test_a_waste_card_says_what_its_foundation_and_the_piles_need():
    state = make_state([("", "KS"), ("", "5C")], foundations={"H": 2}, waste="7H")
    assert refusal(KLONDIKE, state, "w") == (
        "The 7 of hearts has nowhere to go: no foundation takes it (the hearts foundation "
        "needs the 3 of hearts) and no pile ends in a black 8"
    )


def test_an_empty_foundation_needs_its_ace():
    state = make_state([("", "9D")], waste="5S")
    assert "(the spades foundation needs the ace of spades)" in refusal(KLONDIKE, state, "w")
    assert "no pile ends in a red 6" in refusal(KLONDIKE, state, "w")


def test_a_sequence_goes_to_no_foundation_and_says_what_pile_it_needs():
    state = make_state([("3C", "8S 7H 6C"), ("", "9S")])
    assert refusal(KLONDIKE, state, "t1", 2) == (
        "The 2 cards headed by the 7 of hearts has nowhere to go: no pile ends in a black 8"
    )


def test_a_king_needs_an_empty_pile_and_a_whole_king_pile_stays_where_it_is():
    full = make_state([("", "KS")] + [("", f"{rank}D") for rank in "234567"])
    assert refusal(KLONDIKE, full, "t1").endswith("no pile is empty (an empty pile takes a King)")
    alone = make_state([("", "KS")])
    assert refusal(KLONDIKE, alone, "t1").endswith(
        "moving a whole pile headed by a King to an empty pile changes nothing"
    )


def test_nothing_to_tap_says_so():
    state = make_state([("", "")], foundations={"S": 3})
    assert refusal(KLONDIKE, state, "w") == "The waste is empty: draw from the stock first"
    assert refusal(KLONDIKE, state, "t1") == "Pile 1 has no face-up card to move"
    assert refusal(KLONDIKE, state, "fS").startswith("A card on a foundation stays there")
    broken = make_state([("", "9S 5H")])
    assert refusal(KLONDIKE, broken, "t1", 2) == (
        "The 2 cards from the 9 of spades down are not a valid sequence: only a valid "
        "sequence moves as a unit"
    )
    assert refusal(KLONDIKE, broken, "t1", 3) == "Pile 1 has fewer than 3 face-up cards"


def test_kingsley_says_it_the_same_way():
    state = make_kingsley([("", "QD")], waste="4C")
    assert refusal(KINGSLEY, state, "w") == (
        "The 4 of clubs has nowhere to go: no foundation takes it (the clubs foundation "
        "needs the ace of clubs) and no pile ends in a red 5"
    )


def test_a_steps_reserve_slot_card_says_what_it_needs():
    state = make_steps([("", "KS"), ("", "9H")], reserves="7D")
    assert refusal(STEPS, state, "r1") == (
        "The 7 of diamonds has nowhere to go: no foundation takes it (the diamonds "
        "foundation needs the ace of diamonds) and no pile ends in a black 8"
    )
    assert refusal(STEPS, make_steps(reserves=". ."), "r2") == "Reserve slot 2 is empty"


def test_spiderette_says_which_rank_and_whether_a_pile_is_empty():
    full = make_spiderette([("", "9D"), ("", "5C")] + [("", f"{r}S") for r in "2348T"])
    assert refusal(SPIDERETTE, full, "t2") == (
        "The 5 of clubs has nowhere to go: no pile ends in a 6 and no pile is empty"
    )
    alone = make_spiderette([("", "KS 9D")])
    assert refusal(SPIDERETTE, alone, "t1", 2) == (
        "The 2 cards from the king of spades down are not a run of one suit: only a run "
        "of one suit moves as a unit"
    )
    king = make_spiderette([("", "KS")])
    assert refusal(SPIDERETTE, king, "t1") == (
        "The king of spades has nowhere to go: a King goes only to an empty pile, and "
        "moving a whole pile to an empty pile changes nothing"
    )


def test_spike_has_nothing_to_tap_and_says_so():
    spike = get_variant("spike")
    state = spike.deal(shuffled_deck("tap refusal"), {})
    with pytest.raises(EngineError, match="nothing to tap"):
        spike.tap(state, "w", 1)
    assert "nothing to tap" in spike.tap_refusal(state, "w", 1)
