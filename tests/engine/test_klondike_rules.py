"""Each rule of klondike.txt on small hand-built positions."""

import pytest

from games.engine import EngineError, Move, format_move, parse_move

from .helpers import KLONDIKE, cards, make_state


def play(state, text):
    return KLONDIKE.play(state, text)


def refused(state, text, message):
    with pytest.raises(EngineError, match=message):
        KLONDIKE.play(state, text)


# Building on the tableau


def test_builds_down_in_alternating_colours():
    state = make_state([("", "8S"), ("", "7H")])
    step = play(state, "t2-t1")
    assert step.state.tableau[0].up == cards("8S 7H")
    assert step.state.tableau[1].up == ()
    assert step.points == 0
    assert not step.won


def test_same_colour_is_refused_with_readable_names():
    state = make_state([("", "8D"), ("", "7H")])
    refused(
        state, "t2-t1", "The 7 of hearts cannot go on the 8 of diamonds: colours must alternate"
    )


@pytest.mark.parametrize("onto", ["9S", "7S", "7D", "KS"])
def test_wrong_rank_is_refused(onto):
    state = make_state([("", onto), ("", "7H")])
    refused(state, "t2-t1", "one rank higher")


def test_apply_never_mutates_the_state_it_is_given():
    state = make_state([("", "8S"), ("", "7H")], stock="AS 2S 3S 4S")
    before = KLONDIKE.dump(state)
    play(state, "t2-t1")
    play(state, "draw")
    assert KLONDIKE.dump(state) == before


# Sequences


def test_a_valid_sequence_moves_as_one_unit():
    state = make_state([("4C", "9S 8H 7C"), ("", "TD")])
    step = play(state, "t1-t2/3")
    assert step.state.tableau[1].up == cards("TD 9S 8H 7C")
    assert step.state.tableau[0] == make_state([("", "4C")]).tableau[0]
    assert step.revealed == ("4C",)


def test_part_of_a_sequence_can_move():
    state = make_state([("", "9S 8H 7C"), ("", "9C")])
    step = play(state, "t1-t2/2")
    assert step.state.tableau[0].up == ("9S",)
    assert step.state.tableau[1].up == cards("9C 8H 7C")


def test_an_invalid_sequence_is_refused():
    # Hand-built: 8H on 9D breaks the alternation, so the three do not move together.
    state = make_state([("", "9D 8H 7C"), ("", "TS")])
    refused(
        state,
        "t1-t2/3",
        "The top 3 cards of pile 1 are not a valid sequence: the 8 of hearts lies on the "
        "9 of diamonds and colours must alternate",
    )
    state = make_state([("", "9S 7H"), ("", "TD")])
    refused(state, "t1-t2/2", "not a valid sequence")


def test_face_down_cards_cannot_be_moved():
    state = make_state([("KH QS", "JD"), ("", "KC")])
    refused(
        state, "t1-t2/2", "Pile 1 has only 1 face-up card\\(s\\): face-down cards cannot be moved"
    )
    refused(state, "t1-t2/20", "face-down cards cannot be moved")


def test_moving_from_an_empty_pile_is_refused():
    state = make_state([("", ""), ("", "KC")])
    refused(state, "t1-t2", "Pile 1 is empty")


# Empty piles


def test_an_empty_pile_takes_a_king():
    state = make_state([("", ""), ("3D", "KC")])
    step = play(state, "t2-t1")
    assert step.state.tableau[0].up == ("KC",)
    assert step.state.tableau[1].up == ("3D",)
    assert step.revealed == ("3D",)


def test_an_empty_pile_takes_a_king_headed_sequence():
    state = make_state([("", ""), ("AS", "KC QH JS")])
    step = play(state, "t2-t1/3")
    assert step.state.tableau[0].up == cards("KC QH JS")


def test_an_empty_pile_takes_a_king_from_the_waste():
    state = make_state(waste="KH")
    assert play(state, "w-t4").state.tableau[3].up == ("KH",)


@pytest.mark.parametrize(
    ("tableau", "move"), [([("", "QH")], "t1-t2"), ([("", "QH JS")], "t1-t2/2")]
)
def test_an_empty_pile_refuses_anything_else(tableau, move):
    state = make_state(tableau)
    refused(state, move, "Pile 2 is empty and takes only a King or a sequence headed by a King")


# Foundations


def test_foundations_build_by_suit_from_ace_to_king():
    state = make_state([("", "AS"), ("", "2S")])
    state = play(state, "t1-f").state
    assert state.foundations == (1, 0, 0, 0)
    state = play(state, "t2-f").state
    assert state.foundations == (2, 0, 0, 0)


def test_a_foundation_starts_with_its_ace():
    refused(make_state([("", "2H")]), "t1-f", "the hearts foundation starts with the ace of hearts")


def test_a_foundation_takes_only_the_next_card_of_its_suit():
    state = make_state([("", "4C")], foundations={"C": 2, "S": 3})
    refused(
        state,
        "t1-f",
        "The 4 of clubs cannot go to its foundation: the clubs foundation needs the 3 of clubs",
    )


def test_one_card_at_a_time_goes_to_a_foundation():
    state = make_state([("", "2H AS")], foundations={"S": 0, "H": 1})
    refused(state, "t1-f/2", "Only one card at a time goes to a foundation")


def test_foundation_cards_never_return():
    state = make_state([("", "8D")], foundations={"S": 7})
    refused(state, "fS-t1", "Foundation cards never return")


def test_a_king_completes_a_foundation():
    state = make_state(waste="KD", foundations={"D": 12})
    assert play(state, "w-f").state.foundations == (0, 0, 13, 0)


# Turning up


def test_a_card_left_face_down_on_top_turns_up_by_itself():
    state = make_state([("2C 3C", "AH")])
    step = play(state, "t1-f")
    assert step.state.tableau[0].down == ("2C",)
    assert step.state.tableau[0].up == ("3C",)
    assert step.revealed == ("3C",)


def test_nothing_is_revealed_when_face_up_cards_remain():
    state = make_state([("2C", "9S 8H"), ("", "9C")])
    step = play(state, "t1-t2")
    assert step.revealed == ()
    assert step.state.tableau[0].up == ("9S",)


# Stock and waste


def test_draw_turns_three_cards_the_last_stock_card_first():
    state = make_state(stock="2S 3S 4S 5S 6S")
    step = play(state, "draw")
    assert step.state.waste == cards("6S 5S 4S")  # 4S is on top
    assert step.state.stock == cards("2S 3S")
    assert step.revealed == cards("6S 5S 4S")
    assert step.points == 0


def test_the_last_draw_may_be_shorter():
    state = play(make_state(stock="2S 3S 4S 5S 6S"), "draw").state
    step = play(state, "draw")
    assert step.state.waste == cards("6S 5S 4S 3S 2S")
    assert step.state.stock == ()


def test_only_the_top_waste_card_is_movable():
    state = make_state([("", "5S")], waste="4H 4D 9C")
    refused(state, "w-t1", "The 9 of clubs cannot go on the 5 of spades")
    state = make_state([("", "5S")], waste="4H 9C 4D")
    assert play(state, "w-t1").state.waste == cards("4H 9C")
    refused(state, "w-t1/2", "only a tableau pile moves several cards")


def test_moving_from_an_empty_waste_is_refused():
    refused(make_state([("", "5S")]), "w-t1", "The waste is empty")


def test_draw_only_while_the_stock_has_cards():
    refused(make_state(waste="2S"), "draw", "The stock is empty: recycle the waste")
    refused(make_state(), "draw", "The stock and the waste are both empty")


def test_recycle_only_when_the_stock_is_empty_and_the_waste_is_not():
    refused(make_state(stock="2S", waste="3S"), "recycle", "The stock still has cards")
    refused(make_state(), "recycle", "the waste is empty")


def test_recycle_keeps_the_order_so_the_next_pass_draws_the_same_cards():
    state = make_state(stock="2S 3S 4S 5S 6S 7S 8S")
    first_pass = []
    while state.stock:
        step = play(state, "draw")
        first_pass.append(step.revealed)
        state = step.state
    state = play(state, "recycle").state
    assert state.waste == ()
    assert state.stock == cards("2S 3S 4S 5S 6S 7S 8S")
    second_pass = []
    while state.stock:
        step = play(state, "draw")
        second_pass.append(step.revealed)
        state = step.state
    assert second_pass == first_pass


def test_the_first_three_recycles_are_free_and_later_ones_cost_20_each():
    state = make_state(stock="2S 3S 4S 5S")
    points = []
    for _ in range(5):
        while state.stock:
            state = play(state, "draw").state
        step = play(state, "recycle")
        points.append(step.points)
        state = step.state
    assert points == [0, 0, 0, -20, -20]
    assert state.recycles == 5
    assert state.score == KLONDIKE.score(state) == -40


def test_undoing_a_charged_recycle_gives_the_points_back_and_redoing_charges_again():
    state = make_state(waste="2S 3S", recycles=3)
    step = play(state, "recycle")
    assert step.points == -20
    assert step.state.score == -20
    undone = KLONDIKE.undo(step.state, step.undo)
    assert undone == state
    assert undone.score == 0
    again = play(undone, "recycle")
    assert again.points == -20
    assert again.state == step.state


# Moves Klondike does not have


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("deal", "Klondike has no 'deal' move"),
        ("wild", "Klondike has no 'wild' move"),
        ("9D", "Klondike has no '9D' move"),
        ("r1-t1", "Klondike has no reserve slots"),
        ("t1-r2", "Klondike has no reserve slots"),
    ],
)
def test_moves_of_other_variants_are_refused(text, message):
    refused(make_state([("", "KS")], stock="2S"), text, message)


def test_moves_that_are_not_in_the_notation_are_refused():
    with pytest.raises(EngineError, match="Not a valid move"):
        KLONDIKE.apply(make_state([("", "KS")]), Move("transfer", "t1", "t2", 0))


# Winning


def test_all_52_cards_on_the_foundations_is_a_win():
    state = make_state(waste="KC", foundations={"S": 13, "H": 13, "D": 13, "C": 12})
    assert KLONDIKE.status(state) == "in_progress"
    step = play(state, "w-f")
    assert step.won
    assert not step.lost
    assert KLONDIKE.is_won(step.state)
    assert KLONDIKE.status(step.state) == "won"
    assert KLONDIKE.legal_moves(step.state) == []
    refused(step.state, "draw", "already won")


def test_klondike_never_loses():
    state = make_state([("", "2H")], foundations={"S": 13})
    assert KLONDIKE.legal_moves(state) == []
    assert not KLONDIKE.is_lost(state)
    assert KLONDIKE.status(state) == "in_progress"


# Legal moves


def test_legal_moves_lists_every_kind_of_legal_move():
    state = make_state(
        [("", "AH"), ("4C", "9S 8D"), ("", ""), ("", "TH"), ("", "KC QD")],
        waste="7C",
        stock="2C",
    )
    texts = [format_move(move) for move in KLONDIKE.legal_moves(state)]
    # The King-headed pile 5 may go to any empty pile. The order is stable: foundation
    # moves, builds on each pile from the left, Kings to empty piles, the stock.
    assert texts == ["t1-f", "w-t2", "t2-t4/2", "t5-t3/2", "t5-t6/2", "t5-t7/2", "draw"]


def test_every_legal_move_applies():
    state = make_state(
        [("", "AH"), ("4C", "9S 8D"), ("", ""), ("", "TH"), ("", "KC QD")], waste="7C"
    )
    moves = KLONDIKE.legal_moves(state)
    assert parse_move("recycle") in moves
    for move in moves:
        KLONDIKE.apply(state, move)
