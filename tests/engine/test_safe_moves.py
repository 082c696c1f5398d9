"""The automatic moves to the foundations (Variant.safe_foundation_moves): the usual
"safe" rule for the Klondike family, none for the games without such foundations."""

import pytest

from games.engine import format_move, full_deck, get_variant
from games.engine.klondike_family import is_safe_for_foundation
from tests.engine.helpers import KINGSLEY, KLONDIKE, make_kingsley, make_spiderette, make_state
from tests.engine.test_steps_helpers import STEPS, make_steps


def texts(moves) -> list[str]:
    return [format_move(move) for move in moves]


def heights(spades=0, hearts=0, diamonds=0, clubs=0) -> tuple[int, ...]:
    return (spades, hearts, diamonds, clubs)


@pytest.mark.parametrize(
    ("card", "foundations", "safe"),
    [
        ("AH", heights(), True),
        ("2S", heights(spades=1), True),
        ("5H", heights(spades=4, clubs=4, hearts=4), True),
        ("5H", heights(spades=4, clubs=3, hearts=4), False),  # the 4 of clubs may need it
        ("5H", heights(hearts=4, diamonds=12), False),  # its own colour does not count
        ("3C", heights(clubs=2, hearts=2, diamonds=2), True),
        ("3C", heights(clubs=2, hearts=2, diamonds=1), False),
        ("KD", heights(spades=12, clubs=12), True),
    ],
)
def test_the_safe_rule(card, foundations, safe):
    assert is_safe_for_foundation(card, foundations) is safe


def test_a_safe_waste_card_goes_up_and_an_unsafe_pile_top_does_not():
    state = make_state(
        [("", "5H"), ("", "6S")],
        foundations={"S": 4, "C": 4, "H": 4, "D": 2},
        stock="9D",
        waste="5S",
    )
    # The 5 of spades fits, but the red 4s are not both up (the 4 of diamonds may still
    # need it); the 5 of hearts is safe: both black foundations hold the 4.
    assert texts(KLONDIKE.safe_foundation_moves(state)) == ["t1-f"]


def test_each_move_can_make_the_next_safe():
    # The 3 of clubs fits first but waits for the 2 of diamonds; once that is up, the
    # 3 of clubs is safe, and the 3 of hearts with it.
    state = make_state(
        [("", "3C"), ("", "2D"), ("", "3H")],
        foundations={"S": 2, "C": 2, "H": 2, "D": 1},
        stock="9D",
    )
    assert texts(KLONDIKE.safe_foundation_moves(state)) == ["t2-f", "t1-f", "t3-f"]


def test_a_chain_down_one_pile_turning_cards_up():
    state = make_state([("3S 2S", "AS")], stock="9D")
    # The Ace, then the Two it turns up; the Three turned up then waits for both red 2s.
    assert texts(KLONDIKE.safe_foundation_moves(state)) == ["t1-f", "t1-f"]


def test_the_moves_do_not_change_the_state_they_are_given():
    state = make_state([("", "AS")], stock="9D")
    before = KLONDIKE.dump(state)
    KLONDIKE.safe_foundation_moves(state)
    assert KLONDIKE.dump(state) == before


def test_no_safe_card_means_no_move():
    state = make_state([("", "7H"), ("", "KS")], foundations={"H": 6}, stock="9D")
    assert KLONDIKE.safe_foundation_moves(state) == []


def test_nothing_moves_in_a_won_game():
    state = make_state(foundations={"S": 13, "H": 13, "D": 13, "C": 13})
    assert KLONDIKE.safe_foundation_moves(state) == []


def test_the_chain_stops_at_the_move_that_wins():
    state = make_state([("", "KS"), ("", "KH")], foundations={"S": 12, "H": 12, "D": 13, "C": 13})
    moves = KLONDIKE.safe_foundation_moves(state)
    assert texts(moves) == ["t1-f", "t2-f"]
    for move in moves:
        state = KLONDIKE.apply(state, move).state
    assert KLONDIKE.is_won(state)


def test_kingsley_uses_the_family_rule():
    state = make_kingsley([("", "2H")], foundations={"H": 1}, stock="9D", waste="AC")
    assert texts(KINGSLEY.safe_foundation_moves(state)) == ["w-f", "t1-f"]


def test_steps_sends_a_safe_reserve_card_up_too():
    state = make_steps([("", "3D")], foundations={"D": 1}, stock="9D", reserves="2D")
    assert texts(STEPS.safe_foundation_moves(state)) == ["r1-f"]


def test_steps_keeps_an_unsafe_reserve_card():
    state = make_steps(foundations={"D": 4}, stock="9D", reserves="5D")
    assert STEPS.safe_foundation_moves(state) == []


def test_games_without_suit_foundations_have_none():
    spiderette = get_variant("spiderette")
    assert spiderette.safe_foundation_moves(make_spiderette([("", "AS")], stock="9D")) == []
    spike = get_variant("spike")
    state = spike.deal(full_deck())
    assert spike.safe_foundation_moves(state) == []
    assert not spiderette.offers_safe_foundation_moves
    assert not spike.offers_safe_foundation_moves
    assert KLONDIKE.offers_safe_foundation_moves
    assert STEPS.offers_safe_foundation_moves
