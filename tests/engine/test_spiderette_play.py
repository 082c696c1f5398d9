"""Spiderette: undo, tap-to-move, auto-complete, the public view and snapshots."""

import json

import pytest

from games.engine import EngineError, format_move, shuffled_deck

from .helpers import SPIDERETTE, make_spiderette, run_of, spiderette_cards

STOCK = "2C 3C 4C"

# Undo


@pytest.mark.parametrize(
    ("state", "text"),
    [
        (make_spiderette([("", "8S"), ("4D 2D", "7H")], stock=STOCK), "t2-t1"),
        (make_spiderette([("", "9C"), ("5S", "8H 7H 6H")], stock=STOCK), "t2-t1/3"),
        (make_spiderette([("", ""), ("5S", "8H 7H 6H")], stock=STOCK), "t2-t1/2"),
        (make_spiderette([("4C 6C", run_of("S", "K", "2")), ("3D", "AS")], stock=STOCK), "t2-t1"),
        (make_spiderette([("", "9C " + run_of("H", "K", "6")), ("", run_of("H", "5"))]), "t2-t1/5"),
        (make_spiderette([("", "KS")] * 7, stock="2H 3H 4H 5H 6H 7H 8H 9H"), "deal"),
        (make_spiderette([("", "KS")] * 3 + [("2C", "3D")] * 4, stock="2H 3H 4H"), "deal"),
        (
            make_spiderette(
                [("", "9C"), ("JH", run_of("D", "K", "2"))] + [("", "9S")] * 5,
                stock="AC 2S 3S 4S 5S 6S 7S AD 8S",
            ),
            "deal",
        ),
    ],
)
def test_undo_restores_the_state_exactly(state, text):
    step = SPIDERETTE.play(state, text)
    assert json.loads(json.dumps(step.undo)) == step.undo
    assert SPIDERETTE.undo(step.state, step.undo) == state
    assert SPIDERETTE.undo(step.state, json.loads(json.dumps(step.undo))) == state


@pytest.mark.parametrize(
    "record",
    [
        {},
        {"move": "draw", "cards": ["AS"]},
        {"move": "t1-t2", "cards": ["QH"], "revealed": None, "run": None},
        {"move": "t2-t1", "cards": ["7H"], "revealed": "4D", "run": None},
        {"move": "t2-t1", "cards": ["7H"], "revealed": None, "run": {"suit": "S"}},
        {"move": "t2-t1", "cards": ["7H"], "revealed": None, "run": "S"},
        {"move": "deal", "cards": ["7H"], "runs": []},
        {"move": "deal", "cards": [], "runs": []},
        {"move": "deal", "cards": ["9C"], "runs": [{"pile": 9, "suit": "S", "revealed": None}]},
        {"move": "w-t1", "cards": ["7H"], "revealed": None},
    ],
)
def test_undo_refuses_a_record_that_does_not_fit(record):
    state = make_spiderette([("", "9C"), ("", "8S 7H")], stock=STOCK)
    with pytest.raises(EngineError, match="does not fit"):
        SPIDERETTE.undo(state, record)


# Tap to move


def test_tap_prefers_a_pile_that_continues_the_suit():
    state = make_spiderette([("", "8D"), ("", "8S"), ("", "7S")], stock=STOCK)
    assert format_move(SPIDERETTE.tap(state, "t3")) == "t3-t2"


def test_tap_otherwise_takes_the_first_pile_one_rank_higher_from_the_left():
    state = make_spiderette([("", "9C"), ("", "8D"), ("", "8H"), ("", "7S"), ("", "")])
    assert format_move(SPIDERETTE.tap(state, "t4")) == "t4-t2"


def test_tap_otherwise_takes_the_first_empty_pile_but_never_moves_a_whole_pile_there():
    state = make_spiderette([("", "9C"), ("", ""), ("", ""), ("2C", "7S"), ("", "6D")])
    assert format_move(SPIDERETTE.tap(state, "t4")) == "t4-t2"
    assert SPIDERETTE.tap(state, "t1") is None  # 9C is the whole of pile 1
    assert format_move(SPIDERETTE.tap(state, "t5")) == "t5-t4"


def test_tap_moves_a_run_of_one_suit_and_nothing_else():
    state = make_spiderette([("", "9D"), ("", "5C 8H 7H 6H"), ("", "8S")])
    assert format_move(SPIDERETTE.tap(state, "t2", 3)) == "t2-t1/3"
    assert format_move(SPIDERETTE.tap(state, "t2", 2)) == "t2-t3/2"
    assert SPIDERETTE.tap(state, "t2", 4) is None  # 8H lies on 5C: not a run
    assert SPIDERETTE.tap(state, "t2", 9) is None
    assert SPIDERETTE.tap(state, "t4") is None  # an empty pile


def test_tap_returns_none_when_nothing_takes_the_card():
    state = make_spiderette([("", "9D"), ("", "4C")], stock=STOCK)
    assert SPIDERETTE.tap(state, "t1") is None
    assert SPIDERETTE.tap(state, "t2") is None


@pytest.mark.parametrize(
    ("source", "count", "message"),
    [("w", 1, "not a place to tap"), ("fS", 1, "not a place"), ("t1", 0, "from 1 to 52")],
)
def test_tap_refuses_bad_arguments(source, count, message):
    with pytest.raises(EngineError, match=message):
        SPIDERETTE.tap(make_spiderette([("", "KS")]), source, count)


def test_auto_complete_is_never_offered():
    assert SPIDERETTE.auto_complete(make_spiderette([("", run_of("S"))])) == []
    assert SPIDERETTE.auto_complete(SPIDERETTE.deal(shuffled_deck("x"))) == []


# Public view

PUBLIC_KEYS = {
    "variant",
    "tableau",
    "stock",
    "deals_left",
    "next_deal_size",
    "can_deal",
    "deal_refusal",
    "removed_runs",
    "cards_removed",
    "score",
    "status",
    "lost_reason",
    "may_be_stuck",
}


def test_public_view_shape():
    state = make_spiderette(
        [("2C 3C", "9S 8H"), ("", "KD")] + [("", "4S")] * 5,
        stock="5D 6D 7D 8D 9D TD JD QD KD 2H",
        removed="C H",
    )
    view = SPIDERETTE.public_view(state)
    assert set(view) == PUBLIC_KEYS
    assert view["variant"] == "spiderette"
    assert view["tableau"][0] == {"down": 2, "up": ["9S", "8H"]}
    assert len(view["tableau"]) == 7
    assert view["stock"] == 10
    assert view["deals_left"] == 2
    assert view["next_deal_size"] == 7
    assert view["can_deal"] is True
    assert view["deal_refusal"] is None
    assert view["removed_runs"] == ["C", "H"]
    assert view["cards_removed"] == view["score"] == 26
    assert view["status"] == "in_progress"
    assert view["lost_reason"] is None
    assert view["may_be_stuck"] is False
    assert json.loads(json.dumps(view)) == view


def test_public_view_of_a_fresh_deal_shows_only_the_seven_top_cards():
    deck = shuffled_deck("spiderette view")
    view = SPIDERETTE.public_view(SPIDERETTE.deal(deck))
    shown = [card for pile in view["tableau"] for card in pile["up"]]
    assert shown == [deck[n * (n + 1) // 2 - 1] for n in range(1, 8)]
    assert (view["stock"], view["deals_left"], view["next_deal_size"]) == (24, 4, 7)
    assert view["can_deal"] is True
    assert view["removed_runs"] == []


# Snapshots


def test_dump_and_load_round_trip():
    state = SPIDERETTE.deal(shuffled_deck("spiderette snapshot"))
    state = SPIDERETTE.play(state, "deal").state
    data = json.loads(json.dumps(SPIDERETTE.dump(state)))
    assert set(data) == {"variant", "tableau", "stock", "removed"}
    assert SPIDERETTE.load(data) == state
    assert sorted(spiderette_cards(SPIDERETTE.load(data))) == sorted(spiderette_cards(state))


def test_a_snapshot_with_removed_runs_round_trips():
    state = make_spiderette(
        [("", run_of("C", "K", "2")), ("", "AC"), ("", run_of("D"))], removed="S H"
    )
    # Hand-built: pile 3 holds a complete run, which a real game would have removed.
    data = SPIDERETTE.dump(state)
    with pytest.raises(EngineError, match="complete run"):
        SPIDERETTE.load(data)
    data["tableau"][2] = {"down": [], "up": []}
    data["removed"] = ["S", "H", "D"]
    loaded = SPIDERETTE.load(data)
    assert loaded.removed == ("S", "H", "D")
    assert SPIDERETTE.score(loaded) == 39


def _snapshot(**changes):
    data = SPIDERETTE.dump(SPIDERETTE.deal(shuffled_deck("spiderette snapshot")))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "A Spiderette snapshot must be an object"),
        ({"variant": "spiderette"}, "exactly the keys"),
        (_snapshot(variant="kingsley"), "Not a Spiderette snapshot"),
        (_snapshot(tableau=[]), "list of 7 piles"),
        (_snapshot(removed=["S"]), "each of the 52 cards exactly once"),
        (_snapshot(removed=["S", "S"]), "distinct suits"),
        (_snapshot(removed=["X"]), "distinct suits"),
        (_snapshot(removed="S"), "distinct suits"),
        (_snapshot(stock=["AS", "XX"]), "list of card codes"),
    ],
)
def test_load_refuses_garbage(data, message):
    with pytest.raises(EngineError, match=message):
        SPIDERETTE.load(data)


def test_load_refuses_a_stock_no_deal_could_leave():
    data = _snapshot()
    data["tableau"][6]["up"].append(data["stock"].pop())
    with pytest.raises(EngineError, match="24, 17, 10, 3 or no cards"):
        SPIDERETTE.load(data)


def test_deal_refuses_bad_decks():
    with pytest.raises(EngineError, match="52 cards"):
        SPIDERETTE.deal(list(shuffled_deck("x"))[:-1])
