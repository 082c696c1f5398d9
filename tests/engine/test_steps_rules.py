"""Each rule of steps.txt, with the readings of docs/rules/steps.md, on small hand-built
positions: the deal and its options, the stock, building, the reserve slots, foundation
retrieval, tap and auto-complete. Points and the ledger are in test_steps_scoring.py,
losing in test_steps_lost.py."""

import pytest

from games.engine import EngineError, Move, format_move, shuffled_deck
from games.engine.steps import TOURNAMENT

from .helpers import deck_from_layout
from .test_steps_helpers import STEPS, cards, make_steps


def play(state, text):
    return STEPS.play(state, text)


def refused(state, text, message):
    # Positions keep a card in the stock (or a productive move) where a refusal matters:
    # in a lost game every move is refused as "already lost" (test_steps_lost.py).
    with pytest.raises(EngineError, match=message):
        STEPS.play(state, text)


def legal(state):
    return [format_move(move) for move in STEPS.legal_moves(state)]


# The deal and its options


def test_the_seven_pile_deal_a_24_card_stock_and_empty_slots():
    deck = shuffled_deck("steps deal")
    state = STEPS.deal(deck)
    assert [len(pile.down) for pile in state.tableau] == [0, 1, 2, 3, 4, 5, 6]
    assert [pile.up for pile in state.tableau] == [
        (deck[n * (n + 1) // 2 - 1],) for n in range(1, 8)
    ]
    assert state.stock == tuple(deck[28:])
    assert state.waste == ()
    assert state.foundations == (0, 0, 0, 0)
    assert state.reserves == (None, None, None, None)
    assert (state.recycles, state.points, state.reserve_uses) == (0, 0, 0)
    assert STEPS.score(state) == 0


DEFAULTS = {"draw": 1, "buffers": 4, "recycles": 3, "retrieval": False}


def test_default_options():
    assert STEPS.normalize_options(None) == DEFAULTS
    assert STEPS.normalize_options({}) == DEFAULTS
    assert STEPS.deal(shuffled_deck("x")) == STEPS.deal(shuffled_deck("x"), {})
    assert STEPS.deal(shuffled_deck("x"), {}) == STEPS.deal(shuffled_deck("x"), DEFAULTS)


@pytest.mark.parametrize(
    ("given", "normalized"),
    [
        ({"draw": 3}, {**DEFAULTS, "draw": 3}),
        ({"buffers": 0}, {**DEFAULTS, "buffers": 0}),
        ({"buffers": 2, "recycles": 0}, {**DEFAULTS, "buffers": 2, "recycles": 0}),
        ({"recycles": 99}, {**DEFAULTS, "recycles": 99}),
        ({"retrieval": True}, {**DEFAULTS, "retrieval": True}),
        (
            {"retrieval": True, "recycles": 1, "buffers": 1, "draw": 3},
            {"draw": 3, "buffers": 1, "recycles": 1, "retrieval": True},
        ),
    ],
)
def test_options_are_filled_in_and_put_in_order(given, normalized):
    assert STEPS.normalize_options(given) == normalized
    assert list(STEPS.normalize_options(given)) == ["draw", "buffers", "recycles", "retrieval"]
    state = STEPS.deal(shuffled_deck("x"), given)
    assert STEPS.public_view(state)["options"] == normalized
    assert STEPS.dump(state)["options"] == normalized


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ([], "Options must be an object"),
        ({"mode": "classic"}, r"Steps has no option\(s\) 'mode'; the options are draw, buffers"),
        ({"draw": 2}, "The draw option is 1 or 3"),
        ({"draw": True}, "The draw option is 1 or 3"),
        ({"draw": "3"}, "The draw option is 1 or 3"),
        ({"draw": 3.0}, "The draw option is 1 or 3"),
        ({"buffers": 5}, "The buffers option is a whole number of reserve slots from 0 to 4"),
        ({"buffers": -1}, "from 0 to 4"),
        ({"buffers": False}, "from 0 to 4"),
        ({"buffers": None}, "from 0 to 4"),
        ({"recycles": 100}, "The recycles option is a whole number from 0 to 99"),
        ({"recycles": -1}, "from 0 to 99"),
        ({"recycles": 1.5}, "from 0 to 99"),
        ({"retrieval": 1}, "The retrieval option is true or false"),
        ({"retrieval": "yes"}, "The retrieval option is true or false"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(EngineError, match=message):
        STEPS.normalize_options(options)
    with pytest.raises(EngineError, match=message):
        STEPS.deal(shuffled_deck("x"), options)


def test_every_option_set_is_ranked():
    assert STEPS.is_ranked({})
    assert STEPS.is_ranked({"draw": 3, "buffers": 0, "recycles": 0, "retrieval": True})


def test_classic_ascension_has_no_clock():
    assert STEPS.time_limit_seconds(STEPS.deal(shuffled_deck("x"))) is None


# The stock: draw 1 or 3, recycles


def test_draw_1_turns_one_card_the_last_of_the_deck_first():
    deck = deck_from_layout(stock_draw_order="5H 9C 2D")
    step = play(STEPS.deal(deck), "draw")
    assert step.state.waste == ("5H",)
    assert step.revealed == ("5H",)
    assert len(step.state.stock) == 23
    assert play(step.state, "draw").state.waste == cards("5H 9C")
    assert STEPS.public_view(play(step.state, "draw").state)["waste"] == {
        "count": 2,
        "fan": ["9C"],
    }


def test_draw_3_turns_three_cards_the_first_drawn_lowest():
    deck = deck_from_layout(stock_draw_order="5H 9C 2D 7S")
    step = play(STEPS.deal(deck, {"draw": 3}), "draw")
    assert step.state.waste == cards("5H 9C 2D")
    assert step.revealed == cards("5H 9C 2D")
    assert len(step.state.stock) == 21
    view = STEPS.public_view(step.state)
    assert view["waste"] == {"count": 3, "fan": ["5H", "9C", "2D"]}
    # Only the top card moves.
    assert "w-f" not in legal(step.state)


def test_the_last_draw_of_3_may_be_short():
    state = make_steps([("", "KS")], stock="4D 9H", options={"draw": 3})
    step = play(state, "draw")
    assert step.state.waste == cards("9H 4D")
    assert step.state.stock == ()
    assert STEPS.public_view(step.state)["waste"]["fan"] == ["9H", "4D"]
    assert STEPS.undo(step.state, step.undo) == state


def test_recycle_turns_the_waste_back_without_a_shuffle():
    state = make_steps([("", "KS")], stock="4D 9H 6C", options={"draw": 1})
    first = []
    for _ in range(3):
        state = play(state, "draw").state
        first.append(state.waste[-1])
    assert "recycle" in legal(state)
    step = play(state, "recycle")
    assert step.state.stock == cards("4D 9H 6C")
    assert step.state.waste == ()
    assert step.state.recycles == 1
    again = []
    state = step.state
    for _ in range(3):
        state = play(state, "draw").state
        again.append(state.waste[-1])
    assert again == first


def test_recycles_stop_at_the_limit_of_the_deal():
    # The 5 of hearts can always go onto the 6 of spades: never lost.
    state = make_steps([("", "6S")], waste="2C 5H", options={"recycles": 2})
    for _ in range(2):
        state = play(state, "recycle").state
        state = play(play(state, "draw").state, "draw").state
    assert state.recycles == 2
    assert "recycle" not in legal(state)
    refused(state, "recycle", "^Steps allows 2 recycles in this deal, and all 2 are used$")
    refused(state, "draw", "^The stock is empty: Steps allows 2 recycles in this deal")
    view = STEPS.public_view(state)
    assert (view["recycles"], view["recycles_left"], view["can_recycle"]) == (2, 0, False)


@pytest.mark.parametrize(
    ("allowed", "message"),
    [
        (0, "^Steps allows no recycle in this deal$"),
        (1, "^Steps allows 1 recycle in this deal, and it is used$"),
    ],
)
def test_recycle_messages_for_none_and_one(allowed, message):
    state = make_steps([("", "6S")], waste="2C 5H", options={"recycles": allowed})
    state = state if allowed == 0 else play(state, "recycle").state
    if allowed:
        state = play(play(state, "draw").state, "draw").state
    refused(state, "recycle", message)


def test_recycle_needs_an_empty_stock_and_a_waste():
    refused(make_steps([("", "6S")], stock="2C", waste="5H"), "recycle", "stock still has cards")
    refused(make_steps([("", "6S")], waste="5H"), "draw", "recycle the waste to draw again")
    # The 9 of spades can go into a slot and turn the 4 of clubs up: not lost.
    state = make_steps([("4C", "9S")])
    refused(state, "recycle", "There is nothing to recycle: the waste is empty")
    refused(state, "draw", "The stock and the waste are both empty")


# Building and foundations, as Klondike


def test_builds_down_in_alternating_colours():
    state = make_steps([("", "8S"), ("", "7H")], stock="2C")
    assert play(state, "t2-t1").state.tableau[0].up == cards("8S 7H")
    refused(make_steps([("", "8D"), ("", "7H")], stock="2C"), "t2-t1", "colours must alternate")
    refused(make_steps([("", "9S"), ("", "7H")], stock="2C"), "t2-t1", "one rank higher")


def test_a_valid_sequence_moves_as_a_unit():
    state = make_steps([("4C", "9S 8H 7C"), ("", "TD"), ("", "9C")])
    step = play(state, "t1-t2/3")
    assert step.state.tableau[1].up == cards("TD 9S 8H 7C")
    assert step.revealed == ("4C",)
    assert play(state, "t1-t3/2").state.tableau[2].up == cards("9C 8H 7C")
    bad = make_steps([("", "9D 8H 7C"), ("", "TS")], stock="2C")
    refused(bad, "t1-t2/3", "not a valid sequence")
    refused(make_steps([("KH QS", "JD"), ("", "QC")]), "t1-t2/2", "face-down cards")


def test_an_empty_pile_takes_only_a_king_or_a_king_headed_sequence():
    state = make_steps([("", ""), ("3D", "KC QH JS"), ("", "QD")], stock="2C")
    assert play(state, "t2-t1/3").state.tableau[0].up == cards("KC QH JS")
    refused(state, "t3-t1", "Pile 1 is empty and takes only a King")
    refused(state, "t2-t1/2", "Pile 1 is empty and takes only a King")


def test_foundations_build_up_by_suit_one_card_at_a_time():
    state = make_steps([("", "2H AS")], {"H": 1}, stock="2C", waste="AD")
    refused(state, "t1-f/2", "Only one card at a time goes to a foundation")
    state = play(play(state, "t1-f").state, "t1-f").state
    assert state.foundations == (1, 2, 0, 0)
    state = play(state, "w-f").state
    assert state.foundations == (1, 2, 1, 0)
    refused(make_steps([("", "3D")], stock="2C"), "t1-f", "the diamonds foundation starts with")


def test_moves_that_steps_does_not_have():
    state = make_steps([("", "6S")], stock="2C")
    for text in ["deal", "wild", "9D"]:
        refused(state, text, f"^Steps has no '{text}' move$")


# The reserve slots


def test_a_pile_card_goes_into_an_empty_slot_and_turns_the_card_under_it_up():
    state = make_steps([("4C", "9S"), ("", "KD QS")], stock="2C")
    step = play(state, "t1-r2")
    assert step.state.reserves == (None, "9S", None, None)
    assert step.state.tableau[0].up == ("4C",)
    assert step.revealed == ("4C",)
    assert step.undo == {"move": "t1-r2", "cards": ["9S"], "revealed": "4C"}
    step = play(state, "t2-r1")
    assert step.state.tableau[1].up == ("KD",)
    assert step.revealed == ()


def test_the_top_waste_card_goes_into_an_empty_slot():
    state = make_steps([("", "KD")], stock="2C", waste="4H 9S")
    step = play(state, "w-r4")
    assert step.state.reserves == (None, None, None, "9S")
    assert step.state.waste == ("4H",)
    assert step.undo == {"move": "w-r4", "cards": ["9S"], "revealed": None}
    refused(make_steps([("", "KD")], stock="2C"), "w-r1", "The waste is empty")


def test_a_slot_holds_one_card():
    state = make_steps([("", "KD QS"), ("", "8H")], stock="2C", reserves="9S")
    refused(state, "t2-r1", "^Reserve slot r1 already holds the 9 of spades$")
    refused(state, "t1-r2/2", "^A reserve slot holds one card: move one card at a time into it$")
    refused(state, "r1-r2", "^Moving a card from one reserve slot to another changes nothing$")
    refused(state, "r3-t1", "^Reserve slot r3 is empty$")


def test_a_slot_card_plays_onto_a_pile_that_takes_it():
    state = make_steps([("", "TD"), ("", "8H"), ("", "")], stock="2C", reserves=". 9S KC")
    step = play(state, "r2-t1")
    assert step.state.tableau[0].up == cards("TD 9S")
    assert step.state.reserves == (None, None, "KC", None)
    assert step.undo == {"move": "r2-t1", "cards": ["9S"], "revealed": None}
    assert play(state, "r3-t3").state.tableau[2].up == ("KC",)
    refused(state, "r2-t2", "The 9 of spades cannot go on the 8 of hearts")
    refused(state, "r2-t3", "Pile 3 is empty and takes only a King")


def test_a_slot_card_goes_to_its_foundation():
    state = make_steps([("", "KD")], {"S": 8}, stock="2C", reserves="9S 7H")
    step = play(state, "r1-f")
    assert step.state.foundations == (9, 0, 0, 0)
    assert step.state.reserves == (None, "7H", None, None)
    refused(state, "r2-f", "The 7 of hearts cannot go to its foundation: the hearts foundation")


@pytest.mark.parametrize("buffers", [0, 1, 2, 3, 4])
def test_only_the_slots_of_the_deal_exist(buffers):
    state = make_steps(
        [("", "KD QS"), ("", "9H")], stock="2C", waste="5C", options={"buffers": buffers}
    )
    message = {
        0: "^This deal has no reserve slots$",
        1: "^This deal has 1 reserve slot$",
    }.get(buffers, f"^This deal has {buffers} reserve slots$")
    for number in range(1, 5):
        slot = f"r{number}"
        if number <= buffers:
            assert play(state, f"t1-{slot}").state.reserves[number - 1] == "QS"
            assert f"w-{slot}" in legal(state)
            assert f"t2-{slot}" in legal(state)
        else:
            refused(state, f"t1-{slot}", message)
            refused(state, f"w-{slot}", message)
            refused(state, f"{slot}-t1", message)
            refused(state, f"{slot}-f", message)
            assert not any(slot in text for text in legal(state))
    view = STEPS.public_view(state)
    assert [slot["enabled"] for slot in view["reserves"]] == [n < buffers for n in range(4)]


def test_legal_moves_list_every_slot_move():
    state = make_steps(
        [("", "TD"), ("", "9H"), ("", "")], {"S": 8}, stock="2C", waste="3D", reserves="9S . KC"
    )
    moves = legal(state)
    for text in ["r1-f", "r1-t1", "r3-t3", "w-r2", "w-r4", "t1-r2", "t1-r4", "t2-r2", "t2-r4"]:
        assert text in moves
    assert "r1-t2" not in moves
    assert "t3-r2" not in moves  # an empty pile gives nothing


# Foundation retrieval


def test_without_retrieval_foundation_cards_never_come_back():
    state = make_steps([("", "8H")], {"S": 7}, stock="2C")
    refused(state, "fS-t1", f"^{TOURNAMENT}$")
    refused(state, "fS-r1", f"^{TOURNAMENT}$")
    assert TOURNAMENT == "Foundation cards never return to the tableau in tournament play"
    assert "fS-t1" not in legal(state)
    assert STEPS.tap(state, "fS") is None


def test_with_retrieval_the_top_foundation_card_comes_back_onto_a_pile_that_takes_it():
    options = {"retrieval": True}
    state = make_steps(
        [("", "8H"), ("", "8S"), ("", "")], {"S": 7, "C": 13}, "2C", "", "", options=options
    )
    assert "fS-t1" in legal(state)
    assert "fC-t3" in legal(state)
    step = play(state, "fS-t1")
    assert step.state.tableau[0].up == cards("8H 7S")
    assert step.state.foundations == (6, 0, 0, 13)
    assert step.undo == {"move": "fS-t1", "cards": ["7S"], "revealed": None}
    assert play(state, "fC-t3").state.tableau[2].up == ("KC",)
    refused(state, "fS-t2", "The 7 of spades cannot go on the 8 of spades: colours must alternate")
    refused(state, "fS-t3", "Pile 3 is empty and takes only a King")
    refused(state, "fH-t1", "^The hearts foundation is empty$")
    refused(state, "fS-r1", "only onto a tableau pile, not into a reserve slot")
    # A tap never takes a card back from a foundation.
    assert STEPS.tap(state, "fS") is None


# Tap


def test_tap_sends_a_card_to_its_foundation_first_then_to_the_first_pile():
    state = make_steps([("", "9D"), ("", "9H"), ("", "AS"), ("", "8C")], stock="2C", waste="8S")
    assert STEPS.tap(state, "t3") == Move("transfer", "t3", "f")
    assert STEPS.tap(state, "w") == Move("transfer", "w", "t1")
    assert STEPS.tap(state, "t4") == Move("transfer", "t4", "t1")


def test_tap_never_fills_a_slot():
    state = make_steps([("", "4D"), ("", "9H")], stock="2C", waste="8D")
    assert STEPS.tap(state, "t1") is None
    assert STEPS.tap(state, "w") is None


def test_tap_on_a_slot_card():
    state = make_steps(
        [("", "9D"), ("", "9H"), ("", "")], {"C": 4}, stock="2C", reserves="8S 5C KH 3D"
    )
    assert STEPS.tap(state, "r1") == Move("transfer", "r1", "t1")
    assert STEPS.tap(state, "r2") == Move("transfer", "r2", "f")
    assert STEPS.tap(state, "r3") == Move("transfer", "r3", "t3")
    assert STEPS.tap(state, "r4") is None
    assert STEPS.tap(make_steps(stock="2C"), "r1") is None
    with pytest.raises(EngineError, match="tap it alone"):
        STEPS.tap(state, "r1", 2)
    with pytest.raises(EngineError, match="This deal has 2 reserve slots"):
        STEPS.tap(make_steps(stock="2C", options={"buffers": 2}), "r3")


# Auto-complete and winning


def test_auto_complete_finishes_a_game_with_everything_face_up():
    state = make_steps(
        [("", "KS QH"), ("", "KH QS"), ("", "KD QC"), ("", "KC QD")],
        {"S": 11, "H": 11, "D": 11, "C": 11},
    )
    moves = STEPS.auto_complete(state)
    assert len(moves) == 8
    assert STEPS.public_view(state)["auto_complete"]
    for move in moves[:-1]:
        state = STEPS.apply(state, move).state
    step = STEPS.apply(state, moves[-1])
    assert step.won
    assert step.events == ("won",)
    assert STEPS.status(step.state) == "won"


def test_auto_complete_is_not_offered_while_a_slot_holds_a_card():
    state = make_steps(
        [("", "KS QH"), ("", "KH"), ("", "KD"), ("", "KC")],
        {"S": 11, "H": 11, "D": 11, "C": 11},
        reserves="QD",
    )
    assert STEPS.auto_complete(state) == []
    assert not STEPS.public_view(state)["auto_complete"]
    assert not STEPS.public_view(make_steps([("4D", "KS")], stock="2C"))["auto_complete"]


def test_a_won_game_takes_no_more_moves_even_with_retrieval():
    state = make_steps(
        [], {"S": 13, "H": 13, "D": 13, "C": 12}, reserves="KC", options={"retrieval": True}
    )
    step = play(state, "r1-f")
    assert step.won
    assert step.events == ("won",)
    assert STEPS.legal_moves(step.state) == []
    assert not STEPS.is_lost(step.state)
    refused(step.state, "fS-t1", "The game is already won")
