"""Kingsley: undo, tap-to-move, auto-complete, the public view and snapshots."""

import json

import pytest

from games.engine import EngineError, Move, format_move, shuffled_deck

from .helpers import KINGSLEY, make_kingsley

# Undo


@pytest.mark.parametrize(
    ("state", "text"),
    [
        (make_kingsley(stock="2S 3S 4S 5S"), "draw"),
        (make_kingsley([("9D 2C", "AH")], stock="3S"), "t1-f"),
        (make_kingsley([("4C 5C", "9S 8H 7C"), ("", "TD")]), "t1-t2/3"),
        (make_kingsley([("", ""), ("3D", "KC QH")]), "t2-t1/2"),
        (make_kingsley([("", "8S")], waste="2C 7H"), "w-t1"),
        (make_kingsley(waste="2C 3D", foundations={"D": 2}), "w-f"),
    ],
)
def test_undo_restores_the_state_exactly(state, text):
    step = KINGSLEY.play(state, text)
    assert json.loads(json.dumps(step.undo)) == step.undo
    assert KINGSLEY.undo(step.state, step.undo) == state


def test_undo_records_are_the_klondike_records():
    assert KINGSLEY.play(make_kingsley(stock="2S 3S"), "draw").undo == {
        "move": "draw",
        "cards": ["3S"],
    }
    step = KINGSLEY.play(make_kingsley([("4C 5C", "9S 8H 7C"), ("", "TD")]), "t1-t2/3")
    assert step.undo == {"move": "t1-t2/3", "cards": ["9S", "8H", "7C"], "revealed": "5C"}


@pytest.mark.parametrize(
    "record",
    [
        {},
        {"move": "recycle"},
        {"move": "draw", "cards": ["2S", "3S"]},
        {"move": "draw", "cards": ["AS"]},
        {"move": "t1-t2", "cards": ["QH"], "revealed": None},
        {"move": "deal"},
    ],
)
def test_undo_refuses_a_record_that_does_not_fit(record):
    state = make_kingsley([("", "9S 8H"), ("", "TD")], stock="2S", waste="3S 4S")
    with pytest.raises(EngineError, match="does not fit"):
        KINGSLEY.undo(state, record)


# Tap and auto-complete: as Klondike


def test_tap_prefers_the_foundation_then_the_first_pile_from_the_left():
    state = make_kingsley([("", "3H"), ("", "8C")], waste="2S", foundations={"S": 1}, stock="5C")
    assert KINGSLEY.tap(state, "w") == Move("transfer", "w", "f")
    state = make_kingsley([("", "KS"), ("", "8C"), ("", "2D"), ("", "8S")], waste="7H")
    assert format_move(KINGSLEY.tap(state, "w")) == "w-t2"


def test_tap_moves_a_sequence_and_never_a_bare_king_pile_between_empty_piles():
    state = make_kingsley([("", "KD"), ("2C", "JD TS 9H"), ("", "QS"), ("", "")])
    assert format_move(KINGSLEY.tap(state, "t2", 3)) == "t2-t3/3"
    assert KINGSLEY.tap(state, "t2", 2) is None
    assert KINGSLEY.tap(state, "t1") is None
    assert KINGSLEY.tap(state, "fS") is None
    with pytest.raises(EngineError, match="Kingsley has no reserve slots"):
        KINGSLEY.tap(state, "r1")


ENDGAME = make_kingsley(
    [("", "KS QH JS"), ("", "KH QS JH"), ("", "KD QC JD"), ("", "KC QD JC")],
    foundations={"S": 10, "H": 10, "D": 10, "C": 10},
)


def test_auto_complete_finishes_a_face_up_game():
    moves = KINGSLEY.auto_complete(ENDGAME)
    assert len(moves) == 12
    state = ENDGAME
    for move in moves:
        state = KINGSLEY.apply(state, move).state
    assert KINGSLEY.is_won(state)
    assert KINGSLEY.public_view(ENDGAME)["auto_complete"] is True


@pytest.mark.parametrize(
    "state",
    [
        make_kingsley([("", "KS"), ("", "KH")], stock="KD", foundations={"S": 12, "H": 12}),
        make_kingsley([("", "KS"), ("", "KH")], waste="KD", foundations={"S": 12, "H": 12}),
        make_kingsley([("KH", "KS")], foundations={"S": 12, "H": 12}),
    ],
    ids=["stock-left", "waste-left", "face-down-left"],
)
def test_auto_complete_is_offered_only_with_everything_face_up(state):
    assert KINGSLEY.auto_complete(state) == []
    assert KINGSLEY.public_view(state)["auto_complete"] is False


# Public view

PUBLIC_KEYS = {
    "variant",
    "tableau",
    "foundations",
    "stock",
    "waste",
    "score",
    "can_draw",
    "auto_complete",
    "cards_on_foundations",
    "status",
    "lost_reason",
    "may_be_stuck",
}


def test_public_view_shape():
    state = make_kingsley(
        [("2C 3C", "9S 8H"), ("", "")],
        stock="4D 5D",
        waste="6D 7D 8D TD",
        foundations={"S": 2, "H": 1},
    )
    view = KINGSLEY.public_view(state)
    assert set(view) == PUBLIC_KEYS
    assert view["variant"] == "kingsley"
    assert view["tableau"][0] == {"down": 2, "up": ["9S", "8H"]}
    assert view["tableau"][1] == {"down": 0, "up": []}
    assert len(view["tableau"]) == 7
    assert view["foundations"][:2] == [
        {"suit": "S", "top": "2S", "count": 2},
        {"suit": "H", "top": "AH", "count": 1},
    ]
    assert view["stock"] == 2
    assert view["waste"] == {"count": 4, "fan": ["7D", "8D", "TD"]}
    assert view["score"] == view["cards_on_foundations"] == 3
    assert view["can_draw"] is True
    assert view["auto_complete"] is False
    assert view["status"] == "in_progress"
    assert view["lost_reason"] is None
    assert view["may_be_stuck"] is False
    assert json.loads(json.dumps(view)) == view


def test_public_view_of_a_fresh_deal_shows_only_the_seven_top_cards():
    deck = shuffled_deck("kingsley view")
    view = KINGSLEY.public_view(KINGSLEY.deal(deck))
    shown = [card for pile in view["tableau"] for card in pile["up"]]
    assert shown == [deck[n * (n + 1) // 2 - 1] for n in range(1, 8)]
    assert view["waste"] == {"count": 0, "fan": []}
    assert view["can_draw"] is True


# Snapshots


def test_dump_and_load_round_trip():
    state = KINGSLEY.deal(shuffled_deck("kingsley snapshot"))
    for _ in range(5):
        state = KINGSLEY.play(state, "draw").state
    data = json.loads(json.dumps(KINGSLEY.dump(state)))
    assert set(data) == {"variant", "tableau", "foundations", "stock", "waste"}
    assert KINGSLEY.load(data) == state


def _snapshot(**changes):
    data = KINGSLEY.dump(KINGSLEY.deal(shuffled_deck("kingsley snapshot")))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "A Kingsley snapshot must be an object"),
        (_snapshot(recycles=0), "exactly the keys"),
        (_snapshot(variant="klondike"), "Not a Kingsley snapshot"),
        (_snapshot(foundations=[0, 0, 0, 1]), "each of the 52 cards exactly once"),
        (_snapshot(stock=["AS", "XX"]), "list of card codes"),
    ],
)
def test_load_refuses_garbage(data, message):
    with pytest.raises(EngineError, match=message):
        KINGSLEY.load(data)


def test_a_klondike_snapshot_is_not_a_kingsley_one():
    from .helpers import KLONDIKE

    data = KLONDIKE.dump(KLONDIKE.deal(shuffled_deck("x")))
    with pytest.raises(EngineError, match="exactly the keys"):
        KINGSLEY.load(data)
