"""Each rule of spiderette.txt, with the readings of docs/rules/spiderette.md, on small
hand-built positions. Losing is in test_stuck.py."""

import pytest

from games.engine import EngineError, format_move, shuffled_deck

from .helpers import SPIDERETTE, cards, deck_from_layout, make_spiderette, run_of

# A few stock cards keep the small positions below from being lost (test_stuck.py): in a
# lost game every move is refused as "already lost".
STOCK = "2C 3C 4C"


def play(state, text):
    return SPIDERETTE.play(state, text)


def refused(state, text, message):
    with pytest.raises(EngineError, match=message):
        SPIDERETTE.play(state, text)


# The deal


def test_the_seven_pile_deal_and_a_24_card_stock():
    deck = shuffled_deck("spiderette deal")
    state = SPIDERETTE.deal(deck)
    assert [len(pile.down) for pile in state.tableau] == [0, 1, 2, 3, 4, 5, 6]
    assert [pile.up for pile in state.tableau] == [
        (deck[n * (n + 1) // 2 - 1],) for n in range(1, 8)
    ]
    assert state.stock == tuple(deck[28:])
    assert state.removed == ()
    assert SPIDERETTE.score(state) == 0


def test_spiderette_takes_no_options():
    with pytest.raises(EngineError, match="Spiderette takes no options"):
        SPIDERETTE.deal(shuffled_deck("x"), {"suits": 2})


# Building


@pytest.mark.parametrize("onto", ["8S", "8H", "8D", "8C"])
def test_a_single_card_goes_on_any_card_one_rank_higher(onto):
    state = make_spiderette([("", onto), ("4D", "7H")], stock=STOCK)
    step = play(state, "t2-t1")
    assert step.state.tableau[0].up == (onto, "7H")
    assert step.revealed == ("4D",)
    assert step.points == 0
    assert step.events == ()


@pytest.mark.parametrize("onto", ["9S", "7S", "KH"])
def test_a_card_goes_only_on_a_card_one_rank_higher(onto):
    state = make_spiderette([("", onto), ("", "7H")], stock=STOCK)
    refused(
        state,
        "t2-t1",
        "The 7 of hearts cannot go on the .*: a card goes only on a card one rank higher",
    )


def test_a_king_goes_on_nothing_but_an_empty_pile():
    state = make_spiderette([("", "AS"), ("", "KH"), ("", "")], stock=STOCK)
    refused(state, "t2-t1", "one rank higher")
    assert play(state, "t2-t3").state.tableau[2].up == ("KH",)


def test_a_descending_run_of_one_suit_moves_together():
    state = make_spiderette([("", "9C"), ("5S", "8H 7H 6H"), ("", "8D")], stock=STOCK)
    step = play(state, "t2-t1/3")
    assert step.state.tableau[0].up == cards("9C 8H 7H 6H")
    assert step.revealed == ("5S",)
    step = play(state, "t2-t3/2")  # part of a run
    assert step.state.tableau[1].up == ("8H",)
    assert step.state.tableau[2].up == cards("8D 7H 6H")


def test_several_cards_of_mixed_suits_do_not_move_together():
    state = make_spiderette([("", "9C"), ("", "8H 7S")], stock=STOCK)
    refused(
        state,
        "t2-t1/2",
        "The top 2 cards of pile 2 are not a run of one suit: the 7 of spades lies on the "
        "8 of hearts and a group moves together only when it is all one suit",
    )
    state = make_spiderette([("", "TC"), ("", "9H 7H")], stock=STOCK)
    refused(state, "t2-t1/2", "each card is one rank below the one under it")


def test_the_single_top_card_of_a_mixed_stack_still_moves():
    state = make_spiderette([("", "8C"), ("", "8H 7S")], stock=STOCK)
    assert play(state, "t2-t1").state.tableau[0].up == cards("8C 7S")


def test_an_empty_pile_takes_any_card_or_any_run():
    state = make_spiderette([("", ""), ("2D", "5D"), ("3S", "9H 8H 7H")], stock=STOCK)
    assert play(state, "t2-t1").state.tableau[0].up == ("5D",)
    step = play(state, "t3-t1/3")
    assert step.state.tableau[0].up == cards("9H 8H 7H")
    assert step.revealed == ("3S",)
    refused(state, "t3-t1/4", "face-down cards cannot be moved")


def test_moving_from_an_empty_pile_is_refused():
    refused(make_spiderette([("", ""), ("", "KC")], stock=STOCK), "t1-t2", "Pile 1 is empty")


# Runs leave the table


def test_a_move_that_completes_a_run_removes_it_and_turns_up_the_card_under_it():
    state = make_spiderette([("4C", run_of("S", "K", "2")), ("3D", "AS")], stock=STOCK)
    step = play(state, "t2-t1")
    assert step.state.tableau[0].down == ()
    assert step.state.tableau[0].up == ("4C",)
    assert step.state.tableau[1].up == ("3D",)
    assert step.state.removed == ("S",)
    assert step.revealed == ("3D", "4C")
    assert step.events == ("run_removed:S",)
    assert step.points == 13
    assert SPIDERETTE.score(step.state) == 13
    assert step.undo == {
        "move": "t2-t1",
        "cards": ["AS"],
        "revealed": "3D",
        "run": {"suit": "S", "revealed": "4C"},
    }


def test_a_run_completed_by_a_moved_run_leaves_whatever_lay_under_it():
    state = make_spiderette(
        [("", "9C " + run_of("H", "K", "6")), ("", run_of("H", "5"))], stock=STOCK
    )
    step = play(state, "t2-t1/5")
    assert step.state.tableau[0].up == ("9C",)
    assert step.state.tableau[1].up == ()
    assert step.revealed == ()
    assert step.events == ("run_removed:H",)


def test_a_run_moved_into_an_empty_pile_can_complete_nothing():
    # A run at the top of a pile is never complete: it would have left the table.
    state = make_spiderette([("", ""), ("", run_of("D", "K", "2"))], stock=STOCK)
    assert play(state, "t2-t1/12").state.removed == ()


def test_a_deal_that_completes_a_run_removes_it_at_once():
    piles = [("", "9C"), ("", "9S"), ("5C", run_of("H", "K", "2")), ("", "9D"), ("", "8C")]
    piles += [("", "8S"), ("", "8D")]
    state = make_spiderette(piles, stock="7D 7S 7C 6H AH 4S 3S")  # the last card to pile 1
    step = play(state, "deal")
    assert [pile.up[-1] for pile in step.state.tableau] == [
        "3S",
        "4S",
        "5C",
        "6H",
        "7C",
        "7S",
        "7D",
    ]
    assert step.state.tableau[2] == make_spiderette([("", "5C")]).tableau[0]
    assert step.state.removed == ("H",)
    assert step.events == ("run_removed:H",)
    assert step.points == 13
    assert step.revealed == cards("3S 4S 5C 6H 7C 7S 7D")  # the ace left with its run
    assert step.undo == {
        "move": "deal",
        "cards": ["3S", "4S", "AH", "6H", "7C", "7S", "7D"],
        "runs": [{"pile": 3, "suit": "H", "revealed": "5C"}],
    }
    assert SPIDERETTE.undo(step.state, step.undo) == state


def test_one_deal_can_complete_two_runs():
    piles = [("", run_of("C", "K", "2")), ("", "9S"), ("", "9H"), ("2S", run_of("D", "K", "2"))]
    piles += [("", "8C"), ("", "8S"), ("", "8D")]
    state = make_spiderette(piles, stock="5H 7D 7S 7C AD 8H 4S AC")
    step = play(state, "deal")
    assert step.state.removed == ("C", "D")
    assert step.events == ("run_removed:C", "run_removed:D")
    assert step.points == 26
    assert step.state.tableau[0].up == ()
    assert step.state.tableau[3].up == ("2S",)
    assert SPIDERETTE.undo(step.state, step.undo) == state


# Dealing


def test_a_deal_puts_one_card_on_each_pile_the_last_stock_card_on_pile_1():
    deck = deck_from_layout(stock_draw_order="5H 9C 2D 4S KD 7C JH 3S")
    state = SPIDERETTE.deal(deck)
    step = play(state, "deal")
    assert tuple(pile.up[-1] for pile in step.state.tableau) == cards("5H 9C 2D 4S KD 7C JH")
    assert step.revealed == cards("5H 9C 2D 4S KD 7C JH")
    assert len(step.state.stock) == 17
    assert step.points == 0
    assert step.undo["cards"] == list(cards("5H 9C 2D 4S KD 7C JH"))


def test_the_stock_gives_three_deals_of_7_and_a_last_deal_of_3():
    state = SPIDERETTE.deal(shuffled_deck("four deals"))
    seen = []
    for _ in range(4):
        view = SPIDERETTE.public_view(state)
        seen.append((view["stock"], view["deals_left"], view["next_deal_size"]))
        before = state
        state = play(state, "deal").state
        grown = [len(a.up) - len(b.up) for a, b in zip(state.tableau, before.tableau, strict=True)]
        assert grown == [1] * view["next_deal_size"] + [0] * (7 - view["next_deal_size"])
    view = SPIDERETTE.public_view(state)
    seen.append((view["stock"], view["deals_left"], view["next_deal_size"]))
    assert seen == [(24, 4, 7), (17, 3, 7), (10, 2, 7), (3, 1, 3), (0, 0, 0)]
    assert view["can_deal"] is False
    assert view["deal_refusal"] == "The stock is empty: there is no redeal."


def test_the_last_deal_goes_to_piles_1_to_3():
    state = make_spiderette([("", "KS")] * 3 + [("2C", "3D")] * 4, stock="2H 3H 4H")
    step = play(state, "deal")
    assert [pile.up for pile in step.state.tableau[:4]] == [
        ("KS", "4H"),
        ("KS", "3H"),
        ("KS", "2H"),
        ("3D",),
    ]
    assert step.state.stock == ()
    refused(step.state, "deal", "The stock is empty: there is no redeal")


def test_a_deal_is_refused_while_a_pile_is_empty():
    state = make_spiderette([("", "9C"), ("", ""), ("6C", "5D")] + [("", "5D")] * 4, stock="2H")
    refused(state, "deal", "^Every pile must hold at least one card before a deal.$")
    view = SPIDERETTE.public_view(state)
    assert view["can_deal"] is False
    assert view["deal_refusal"] == "Every pile must hold at least one card before a deal."
    assert "deal" not in [format_move(move) for move in SPIDERETTE.legal_moves(state)]
    # Filling the pile makes the deal legal again.
    filled = play(state, "t3-t2").state
    assert SPIDERETTE.public_view(filled)["deal_refusal"] is None
    assert play(filled, "deal").state.stock == ()


# Winning


def test_the_fourth_run_wins():
    state = make_spiderette([("", run_of("C", "K", "2")), ("", "AC")], removed="S H D")
    assert SPIDERETTE.score(state) == 39
    step = play(state, "t2-t1")
    assert step.won
    assert not step.lost
    assert step.events == ("run_removed:C", "won")
    assert SPIDERETTE.status(step.state) == "won"
    assert SPIDERETTE.score(step.state) == 52
    assert SPIDERETTE.legal_moves(step.state) == []
    refused(step.state, "t1-t2", "The game is already won: all four runs are removed")


# Moves Spiderette does not have


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("draw", "Spiderette has no 'draw' move: 'deal' deals a row from the stock"),
        ("recycle", "Spiderette has no 'recycle' move"),
        ("w-t1", "Spiderette has no waste"),
        ("t1-f", "Spiderette has no foundations"),
        ("fS-t1", "Spiderette has no foundations"),
        ("r1-t1", "Spiderette has no reserve slots"),
        ("t1-r2", "Spiderette has no reserve slots"),
        ("wild", "Spiderette has no 'wild' move"),
        ("9D", "Spiderette has no '9D' move"),
    ],
)
def test_moves_of_other_variants_are_refused(text, message):
    refused(make_spiderette([("", "KS")], stock=STOCK), text, message)


def test_legal_moves_lists_units_by_source_then_the_deal():
    state = make_spiderette(
        [("", "9C"), ("4D", "8H 7H"), ("", "8S"), ("", "KD"), ("", "6H"), ("", "QS"), ("", "9D")],
        stock=STOCK,
    )
    texts = [format_move(move) for move in SPIDERETTE.legal_moves(state)]
    assert texts == ["t2-t3", "t2-t1/2", "t2-t7/2", "t3-t1", "t3-t7", "t5-t2", "t6-t4", "deal"]
    for move in SPIDERETTE.legal_moves(state):
        SPIDERETTE.apply(state, move)
