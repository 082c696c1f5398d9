"""Undo, tap-to-move, auto-complete, the public view and snapshots."""

import json

import pytest

from games.engine import EngineError, Move, format_move, shuffled_deck

from .helpers import KLONDIKE, all_cards, make_state

# Undo


@pytest.mark.parametrize(
    ("state", "text"),
    [
        (make_state(stock="2S 3S 4S 5S"), "draw"),
        (make_state(stock="2S", waste="3S 4S"), "draw"),
        (make_state(waste="2S 3S 4S", recycles=1), "recycle"),
        (make_state([("9D 2C", "AH")], foundations={"H": 0}), "t1-f"),
        (make_state([("2C", "9S 8H"), ("", "9C")]), "t1-t2"),
        (make_state([("4C 5C", "9S 8H 7C"), ("", "TD")]), "t1-t2/3"),
        (make_state([("", ""), ("3D", "KC QH")]), "t2-t1/2"),
        (make_state([("", "8S")], waste="2C 7H"), "w-t1"),
        (make_state(waste="2C 3D", foundations={"D": 2}), "w-f"),
    ],
)
def test_undo_restores_the_state_exactly(state, text):
    step = KLONDIKE.play(state, text)
    assert json.loads(json.dumps(step.undo)) == step.undo
    assert KLONDIKE.undo(step.state, step.undo) == state
    assert KLONDIKE.undo(step.state, json.loads(json.dumps(step.undo))) == state


def test_undo_records_are_small():
    step = KLONDIKE.play(make_state([("4C 5C", "9S 8H 7C"), ("", "TD")]), "t1-t2/3")
    assert step.undo == {"move": "t1-t2/3", "cards": ["9S", "8H", "7C"], "revealed": "5C"}


@pytest.mark.parametrize(
    "record",
    [
        {},
        {"move": "t9-t1"},
        {"move": "draw", "cards": ["AS"]},
        {"move": "draw", "cards": "AS"},
        {"move": "t1-t2", "cards": ["QH"], "revealed": None},
        {"move": "t1-t2/2", "cards": ["8H"], "revealed": None},
        {"move": "w-f", "cards": ["2D"], "revealed": None},
        {"move": "recycle"},
        {"move": "deal"},
    ],
)
def test_undo_refuses_a_record_that_does_not_fit(record):
    state = make_state([("", "9S 8H"), ("", "TD")], stock="2S", waste="3S")
    with pytest.raises(EngineError, match="does not fit"):
        KLONDIKE.undo(state, record)


# Tap to move


def test_tap_sends_a_card_to_its_foundation_first():
    state = make_state([("", "3H")], waste="2S", foundations={"S": 1})
    assert KLONDIKE.tap(state, "w") == Move("transfer", "w", "f")
    state = make_state([("", "8S"), ("", "7D")], foundations={"D": 6})
    assert KLONDIKE.tap(state, "t2") == Move("transfer", "t2", "f")


def test_tap_otherwise_picks_the_first_pile_from_the_left_that_takes_it():
    state = make_state([("", "KS"), ("", "8C"), ("", "2D"), ("", "8S")], waste="7H")
    assert format_move(KLONDIKE.tap(state, "w")) == "w-t2"
    state = make_state([("", "8C"), ("", "2D"), ("", "8S"), ("", "7H")])
    assert format_move(KLONDIKE.tap(state, "t4")) == "t4-t1"


def test_tap_never_targets_its_own_pile():
    state = make_state([("", "8C"), ("", "9D 8S"), ("", "7H")])
    assert format_move(KLONDIKE.tap(state, "t3")) == "t3-t1"
    state = make_state([("", "9D 8S 7H")])
    assert KLONDIKE.tap(state, "t1") is None


def test_tapping_a_card_inside_a_pile_moves_the_sequence_it_heads():
    state = make_state([("", "KD"), ("2C", "JD TS 9H"), ("", "QS")])
    assert format_move(KLONDIKE.tap(state, "t2", 3)) == "t2-t3/3"
    assert KLONDIKE.tap(state, "t2", 2) is None


def test_a_sequence_never_goes_to_a_foundation():
    state = make_state([("", "2H AS"), ("", "3C")], foundations={"S": 0, "H": 1})
    assert format_move(KLONDIKE.tap(state, "t1", 2)) == "t1-t2/2"
    assert format_move(KLONDIKE.tap(state, "t1", 1)) == "t1-f"


def test_tap_moves_a_king_to_an_empty_pile_only_when_it_uncovers_something():
    state = make_state([("", "KS QH"), ("", ""), ("4C", "KD")])
    assert KLONDIKE.tap(state, "t1", 2) is None  # the whole pile: pointless
    assert format_move(KLONDIKE.tap(state, "t3")) == "t3-t2"


def test_tap_returns_none_when_nothing_takes_the_cards():
    state = make_state([("", "9S"), ("", "4D")], waste="7C", stock="2S")
    assert KLONDIKE.tap(state, "w") is None
    assert KLONDIKE.tap(state, "t2") is None
    assert KLONDIKE.tap(make_state(), "w") is None
    assert KLONDIKE.tap(make_state(), "t1") is None


def test_tap_on_face_down_cards_or_a_broken_sequence_does_nothing():
    state = make_state([("TD", "9S 8H"), ("", "JC"), ("", "9C 7H")])
    assert KLONDIKE.tap(state, "t1", 3) is None
    assert KLONDIKE.tap(state, "t3", 2) is None


def test_tap_on_a_foundation_does_nothing():
    assert KLONDIKE.tap(make_state([("", "")], foundations={"S": 13}), "fS") is None


@pytest.mark.parametrize(
    ("source", "count", "message"),
    [
        ("r1", 1, "no reserve slots"),
        ("x", 1, "not a place to tap"),
        ("w", 2, "Only the top waste card"),
        ("t1", 0, "from 1 to 52"),
    ],
)
def test_tap_refuses_bad_arguments(source, count, message):
    with pytest.raises(EngineError, match=message):
        KLONDIKE.tap(make_state([("", "KS")], waste="2S"), source, count)


# Auto-complete

ENDGAME = make_state(
    [("", "KS QH JS"), ("", "KH QS JH"), ("", "KD QC JD"), ("", "KC QD JC")],
    foundations={"S": 10, "H": 10, "D": 10, "C": 10},
)


def test_auto_complete_finishes_the_game():
    moves = KLONDIKE.auto_complete(ENDGAME)
    assert len(moves) == 12
    assert all(move.dst == "f" for move in moves)
    state = ENDGAME
    for move in moves:
        state = KLONDIKE.apply(state, move).state
    assert KLONDIKE.is_won(state)
    assert KLONDIKE.public_view(ENDGAME)["auto_complete"] is True


@pytest.mark.parametrize(
    "state",
    [
        make_state([("", "KS"), ("", "KH")], stock="KD", foundations={"S": 12, "H": 12}),
        make_state([("", "KS"), ("", "KH")], waste="KD", foundations={"S": 12, "H": 12}),
        make_state([("KH", "KS")], waste="", foundations={"S": 12, "H": 12}),
        make_state(foundations={"S": 13, "H": 13, "D": 13, "C": 13}),
    ],
    ids=["stock-left", "waste-left", "face-down-left", "already-won"],
)
def test_auto_complete_is_offered_only_when_everything_is_face_up_and_stock_waste_empty(state):
    assert KLONDIKE.auto_complete(state) == []
    assert KLONDIKE.public_view(state)["auto_complete"] is False


# Public view

PUBLIC_KEYS = {
    "variant",
    "tableau",
    "foundations",
    "stock",
    "waste",
    "score",
    "recycles",
    "free_recycles_left",
    "can_draw",
    "can_recycle",
    "auto_complete",
    "cards_on_foundations",
    "status",
}


def test_public_view_shape():
    state = make_state(
        [("2C 3C", "9S 8H"), ("", "")],
        stock="4D 5D",
        waste="6D 7D 8D TD",
        foundations={"S": 2},
        recycles=4,
    )
    view = KLONDIKE.public_view(state)
    assert set(view) == PUBLIC_KEYS
    assert view["variant"] == "klondike"
    assert view["tableau"][0] == {"down": 2, "up": ["9S", "8H"]}
    assert view["tableau"][1] == {"down": 0, "up": []}
    assert view["foundations"] == [
        {"suit": "S", "top": "2S", "count": 2},
        {"suit": "H", "top": None, "count": 0},
        {"suit": "D", "top": None, "count": 0},
        {"suit": "C", "top": None, "count": 0},
    ]
    assert view["stock"] == 2
    assert view["waste"] == {"count": 4, "fan": ["7D", "8D", "TD"]}
    assert view["score"] == -20
    assert view["recycles"] == 4
    assert view["free_recycles_left"] == 0
    assert view["can_draw"] is True
    assert view["can_recycle"] is False
    assert view["cards_on_foundations"] == 2
    assert view["status"] == "in_progress"
    assert json.loads(json.dumps(view)) == view


def test_public_view_of_a_fresh_deal_shows_only_the_seven_top_cards():
    deck = shuffled_deck("public view")
    view = KLONDIKE.public_view(KLONDIKE.deal(deck))
    visible = set(_card_codes(view))
    assert visible == {deck[n * (n + 1) // 2 - 1] for n in range(1, 8)}
    assert view["free_recycles_left"] == 3
    assert view["can_recycle"] is False


def _card_codes(value):
    """Every card code anywhere in a JSON value."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _card_codes(item)
    elif isinstance(value, list):
        for item in value:
            yield from _card_codes(item)
    elif isinstance(value, str) and len(value) == 2 and value[0] in "A23456789TJQK":
        yield value


# Snapshots


def test_dump_and_load_round_trip():
    state = KLONDIKE.deal(shuffled_deck("snapshot"))
    for text in ["draw", "draw", "draw"]:
        state = KLONDIKE.play(state, text).state
    data = json.loads(json.dumps(KLONDIKE.dump(state)))
    assert KLONDIKE.load(data) == state
    assert sorted(all_cards(KLONDIKE.load(data))) == sorted(all_cards(state))


def _snapshot(**changes):
    data = KLONDIKE.dump(KLONDIKE.deal(shuffled_deck("snapshot")))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be an object"),
        ({"variant": "klondike"}, "exactly the keys"),
        (_snapshot(variant="spike"), "Not a Klondike snapshot"),
        (_snapshot(tableau=[]), "list of 7 piles"),
        (_snapshot(foundations=[0, 0, 0]), "4 heights"),
        (_snapshot(foundations=[0, 0, 0, 14]), "4 heights"),
        (_snapshot(foundations=[0, 0, 0, 1]), "each of the 52 cards exactly once"),
        (_snapshot(stock=["AS", "XX"]), "list of card codes"),
        (_snapshot(waste="AS"), "list of card codes"),
        (_snapshot(recycles=-1), "recycle count"),
        (_snapshot(recycles=True), "recycle count"),
        (_snapshot(score="0"), "score must be a whole number"),
        (_snapshot(score=None), "score must be a whole number"),
    ],
)
def test_load_refuses_garbage(data, message):
    with pytest.raises(EngineError, match=message):
        KLONDIKE.load(data)


def test_load_derives_the_score_from_the_recycles():
    # The score is the rules' charge for the recycles: a version of the rules with another
    # charge derives its own, so a stored score is not checked against this one's.
    assert KLONDIKE.load(_snapshot(recycles=4, score=0)).score == -20
    assert KLONDIKE.load(_snapshot(recycles=5, score=-999)).score == -40
    assert KLONDIKE.dump(KLONDIKE.load(_snapshot(recycles=5, score=-999)))["score"] == -40


def test_load_refuses_impossible_piles():
    data = _snapshot()
    data["tableau"][1] = {"down": ["AS", "2S"], "up": []}
    with pytest.raises(EngineError, match="no face-up card"):
        KLONDIKE.load(data)
    data = _snapshot()
    data["tableau"][0] = {"down": [], "up": ["9S", "8C"]}
    with pytest.raises(EngineError, match="not a valid sequence"):
        KLONDIKE.load(data)
    data = _snapshot()
    data["tableau"][0] = {"down": []}
    with pytest.raises(EngineError, match="keys down and up"):
        KLONDIKE.load(data)
    data = _snapshot()
    data["stock"] = [*data["stock"], data["stock"][0]]
    with pytest.raises(EngineError, match="exactly once"):
        KLONDIKE.load(data)


def test_deal_refuses_bad_decks_and_options():
    deck = list(shuffled_deck("x"))
    with pytest.raises(EngineError, match="52 cards"):
        KLONDIKE.deal(deck[:-1])
    with pytest.raises(EngineError, match="Klondike takes no options"):
        KLONDIKE.deal(deck, {"draw": 1})
    assert KLONDIKE.deal(deck, {}) == KLONDIKE.deal(deck, None) == KLONDIKE.deal(deck)
