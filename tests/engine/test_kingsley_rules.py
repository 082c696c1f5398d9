"""Each rule of kingsley.txt, with the readings of docs/rules/kingsley.md, on small
hand-built positions. Losing is in test_stuck.py."""

import pytest

from games.engine import EngineError, format_move, shuffled_deck

from .helpers import KINGSLEY, cards, deck_from_layout, make_kingsley


def play(state, text):
    return KINGSLEY.play(state, text)


def refused(state, text, message):
    # Positions here keep a card in the stock (or a productive move) where the refusal
    # matters: in a lost game every move is refused as "already lost" (test_stuck.py).
    with pytest.raises(EngineError, match=message):
        KINGSLEY.play(state, text)


# The deal


def test_the_seven_pile_deal_and_a_24_card_stock():
    deck = shuffled_deck("kingsley deal")
    state = KINGSLEY.deal(deck)
    assert [len(pile.down) for pile in state.tableau] == [0, 1, 2, 3, 4, 5, 6]
    assert [pile.up for pile in state.tableau] == [
        (deck[n * (n + 1) // 2 - 1],) for n in range(1, 8)
    ]
    assert state.stock == tuple(deck[28:])
    assert state.waste == ()
    assert state.foundations == (0, 0, 0, 0)
    assert KINGSLEY.score(state) == 0


def test_kingsley_takes_no_options():
    deck = shuffled_deck("x")
    with pytest.raises(EngineError, match="Kingsley takes no options"):
        KINGSLEY.deal(deck, {"draw": 3})
    assert KINGSLEY.deal(deck, {}) == KINGSLEY.deal(deck)


# The stock: draw 1, one pass


def test_draw_turns_one_card_the_last_of_the_deck_first():
    deck = deck_from_layout(stock_draw_order="5H 9C")
    assert deck[51] == "5H"
    step = play(KINGSLEY.deal(deck), "draw")
    assert step.state.waste == ("5H",)
    assert step.revealed == ("5H",)
    assert len(step.state.stock) == 23
    assert step.points == 0
    assert play(step.state, "draw").state.waste == cards("5H 9C")


def test_a_whole_pass_takes_24_draws_and_there_is_no_second():
    state = KINGSLEY.deal(shuffled_deck("one pass"))
    for _ in range(24):
        state = play(state, "draw").state
    assert state.stock == ()
    assert len(state.waste) == 24
    refused(state, "draw", "The stock is empty: Kingsley allows one pass through the stock")
    refused(state, "recycle", "^Kingsley allows one pass through the stock$")
    assert "recycle" not in [format_move(move) for move in KINGSLEY.legal_moves(state)]


def test_recycle_is_refused_even_with_cards_in_the_stock():
    refused(make_kingsley(stock="2S", waste="3S"), "recycle", "one pass through the stock")


def test_only_the_top_waste_card_moves():
    state = make_kingsley([("", "5S")], waste="4H 4D 9C", stock="QC")
    refused(state, "w-t1", "The 9 of clubs cannot go on the 5 of spades")
    state = make_kingsley([("", "5S")], waste="4H 9C 4D")
    step = play(state, "w-t1")
    assert step.state.waste == cards("4H 9C")
    assert step.state.tableau[0].up == cards("5S 4D")
    refused(state, "w-t1/2", "only a tableau pile moves several cards")
    refused(make_kingsley([("", "5S")], stock="QC"), "w-t1", "The waste is empty")


# Building


def test_builds_down_in_alternating_colours():
    # A card in the stock keeps these tiny positions from being lost (test_stuck.py).
    state = make_kingsley([("", "8S"), ("", "7H")], stock="2C")
    assert play(state, "t2-t1").state.tableau[0].up == cards("8S 7H")
    refused(make_kingsley([("", "8D"), ("", "7H")], stock="2C"), "t2-t1", "colours must alternate")
    refused(make_kingsley([("", "9S"), ("", "7H")], stock="2C"), "t2-t1", "one rank higher")


def test_a_sequence_moves_as_a_unit_and_part_of_one_too():
    state = make_kingsley([("4C", "9S 8H 7C"), ("", "TD"), ("", "9C")])
    step = play(state, "t1-t2/3")
    assert step.state.tableau[1].up == cards("TD 9S 8H 7C")
    assert step.revealed == ("4C",)
    step = play(state, "t1-t3/2")
    assert step.state.tableau[0].up == ("9S",)
    assert step.state.tableau[2].up == cards("9C 8H 7C")
    assert step.revealed == ()


def test_an_invalid_sequence_is_refused():
    state = make_kingsley([("", "9D 8H 7C"), ("", "TS")], stock="2C")
    refused(state, "t1-t2/3", "not a valid sequence: the 8 of hearts lies on the 9 of diamonds")
    refused(make_kingsley([("KH QS", "JD"), ("", "QC")]), "t1-t2/2", "face-down cards")


def test_an_empty_pile_takes_only_a_king_or_a_king_headed_sequence():
    state = make_kingsley([("", ""), ("3D", "KC QH JS"), ("", "QD")])
    assert play(state, "t2-t1/3").state.tableau[0].up == cards("KC QH JS")
    assert play(state, "t2-t1/3").revealed == ("3D",)
    refused(state, "t3-t1", "Pile 1 is empty and takes only a King")
    refused(state, "t2-t1/2", "Pile 1 is empty and takes only a King")
    assert play(make_kingsley(waste="KH"), "w-t4").state.tableau[3].up == ("KH",)


# Foundations


def test_foundations_build_by_suit_from_ace_to_king():
    state = make_kingsley([("", "AS"), ("", "2S")], waste="AH")
    state = play(state, "t1-f").state
    state = play(state, "t2-f").state
    state = play(state, "w-f").state
    assert state.foundations == (2, 1, 0, 0)
    refused(make_kingsley([("", "2H")], stock="5C"), "t1-f", "the hearts foundation starts with")
    state = make_kingsley([("", "4C")], foundations={"C": 2}, stock="5C")
    refused(state, "t1-f", "needs the 3 of clubs next")


def test_only_the_top_card_goes_to_a_foundation():
    state = make_kingsley([("", "2H AS")], foundations={"H": 1})
    refused(state, "t1-f/2", "Only one card at a time goes to a foundation")
    state = make_kingsley([("", "AS 9H")], stock="5C")
    refused(state, "t1-f", "The 9 of hearts cannot go to its foundation")


def test_foundation_cards_never_come_back():
    state = make_kingsley([("", "8D")], foundations={"S": 7}, stock="5C")
    refused(state, "fS-t1", "never return")


def test_the_score_is_the_number_of_cards_on_the_foundations():
    state = make_kingsley([("7C", "3H"), ("", "8S")], waste="7D", foundations={"S": 4, "H": 2})
    assert KINGSLEY.score(state) == 6
    step = play(state, "t1-f")
    assert step.points == 1
    assert KINGSLEY.score(step.state) == 7
    assert KINGSLEY.public_view(step.state)["score"] == 7
    assert play(state, "w-t2").points == 0
    assert KINGSLEY.score(KINGSLEY.undo(step.state, step.undo)) == 6


# Winning


def test_all_52_cards_on_the_foundations_win():
    state = make_kingsley(waste="KC", foundations={"S": 13, "H": 13, "D": 13, "C": 12})
    step = play(state, "w-f")
    assert step.won
    assert not step.lost
    assert step.events == ("won",)
    assert KINGSLEY.status(step.state) == "won"
    assert KINGSLEY.score(step.state) == 52
    assert KINGSLEY.legal_moves(step.state) == []
    refused(step.state, "draw", "already won")


def test_ordinary_moves_carry_no_events():
    state = make_kingsley([("", "8S"), ("", "7H")], stock="2C 3C")
    assert play(state, "t2-t1").events == ()
    assert play(state, "draw").events == ()


# Moves Kingsley does not have


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("deal", "Kingsley has no 'deal' move"),
        ("wild", "Kingsley has no 'wild' move"),
        ("9D", "Kingsley has no '9D' move"),
        ("r1-t1", "Kingsley has no reserve slots"),
        ("t1-r2", "Kingsley has no reserve slots"),
    ],
)
def test_moves_of_other_variants_are_refused(text, message):
    refused(make_kingsley([("", "KS")], stock="2S"), text, message)


def test_legal_moves_lists_every_kind_and_never_recycle():
    state = make_kingsley(
        [("", "AH"), ("4C", "9S 8D"), ("", ""), ("", "TH"), ("", "KC QD")], waste="7C", stock="2C"
    )
    texts = [format_move(move) for move in KINGSLEY.legal_moves(state)]
    assert texts == ["t1-f", "w-t2", "t2-t4/2", "t5-t3/2", "t5-t6/2", "t5-t7/2", "draw"]
    for move in KINGSLEY.legal_moves(state):
        KINGSLEY.apply(state, move)
