"""Steps' two figures: the action points of table 2.5 (every line, alone and together),
the Architect Ledger of 2.7 (every line, the flawless bonus both ways and after an undone
reserve use, the time bonus), undo giving back what a move earned, the public view, and
snapshots."""

import dataclasses

import pytest

from games.engine import EngineError, shuffled_deck
from games.engine.steps import LOST_REASON, Steps, ledger, move_points, time_bonus

from .test_steps_helpers import STEPS, codes_in, make_steps, visible_cards


def step_of(state, text):
    step = STEPS.play(state, text)
    # Undo gives back exactly what the move earned or cost: points, ledger, reserve uses.
    assert STEPS.undo(step.state, step.undo) == state
    # A move's points (as for every variant) are the change of its score, the ledger.
    assert step.points == STEPS.score(step.state) - STEPS.score(state)
    return step


def gained(state, text):
    """The action points a move earns."""
    return step_of(state, text).state.points - state.points


# Action points, table 2.5: one test per line, then lines together


def test_waste_to_tableau_earns_5():
    assert gained(make_steps([("", "6S")], stock="2C", waste="5H"), "w-t1") == 5


def test_waste_to_foundation_earns_10():
    assert gained(make_steps([("", "KD")], {"H": 4}, stock="2C", waste="5H"), "w-f") == 10


def test_tableau_to_foundation_earns_10():
    assert gained(make_steps([("", "KD 5H")], {"H": 4}, stock="2C"), "t1-f") == 10


def test_a_card_turned_up_earns_5():
    state = make_steps([("4C", "9S"), ("", "TD")], stock="2C")
    step = step_of(state, "t1-t2")
    assert step.revealed == ("4C",)
    assert step.state.points == 5


def test_a_tableau_card_into_a_slot_costs_2():
    assert gained(make_steps([("", "KD QS")], stock="2C"), "t1-r1") == -2


def test_a_waste_card_into_a_slot_costs_2():
    assert gained(make_steps([("", "KD")], stock="2C", waste="5H"), "w-r3") == -2


def test_a_slot_card_onto_a_pile_earns_5():
    assert gained(make_steps([("", "TD")], stock="2C", reserves="9S"), "r1-t1") == 5


def test_a_slot_card_to_its_foundation_earns_5_only():
    # "Buffer Slot to Tableau/Foundation +5" is its own line; a slot card is not a
    # "Waste/Tableau to Foundation" card, so it does not also earn 10.
    state = make_steps([("", "KD")], {"S": 8}, stock="2C", reserves=". 9S")
    step = step_of(state, "r2-f")
    assert step.state.points == 5
    assert STEPS.score(step.state) == STEPS.score(state) + 10  # the ledger counts the card


def test_a_recycle_costs_20():
    assert gained(make_steps([("", "6S")], waste="2C 5H"), "recycle") == -20


def test_a_retrieval_costs_10():
    state = make_steps([("", "8H")], {"S": 7}, stock="2C", options={"retrieval": True})
    assert gained(state, "fS-t1") == -10


@pytest.mark.parametrize(
    ("state", "move"),
    [
        (make_steps([("", "6S")], stock="2C 5H"), "draw"),
        (make_steps([("", "8S 7H"), ("", "8C")], stock="2C"), "t1-t2"),
        (make_steps([("", "TD 9S 8H"), ("", "TH")], stock="2C"), "t1-t2/2"),
    ],
)
def test_a_draw_and_a_tableau_move_that_turns_nothing_up_earn_nothing(state, move):
    assert gained(state, move) == 0


def test_a_tableau_card_to_its_foundation_turning_one_up_earns_15():
    assert gained(make_steps([("4C", "5H")], {"H": 4}, stock="2C"), "t1-f") == 15


def test_a_tableau_card_into_a_slot_turning_one_up_earns_3():
    assert gained(make_steps([("4C", "5H")], stock="2C"), "t1-r1") == 3


def test_a_sequence_moved_off_face_down_cards_earns_5():
    state = make_steps([("4C", "9S 8H 7C"), ("", "TD")], stock="2C")
    assert gained(state, "t1-t2/3") == 5


def test_move_points_covers_the_whole_table():
    def points(text, turned_up=False):
        from games.engine import parse_move

        return move_points(parse_move(text), turned_up)

    assert [points(text) for text in ["w-t1", "w-f", "t1-f", "t1-r1", "w-r1"]] == [
        5,
        10,
        10,
        -2,
        -2,
    ]
    assert [points(text) for text in ["r1-t1", "r1-f", "recycle", "fS-t1", "draw", "t1-t2"]] == [
        5,
        5,
        -20,
        -10,
        0,
        0,
    ]
    assert [points("t1-t2", True), points("t1-f", True), points("t1-r1", True)] == [5, 15, 3]


# The Architect Ledger, 2.7


def lines(state):
    return [line["value"] for line in STEPS.public_view(state)["ledger_lines"]]


def test_ten_per_card_on_the_foundations():
    state = make_steps([("", "KD")], {"S": 3, "H": 1}, stock="2C")
    assert ledger(state) == STEPS.score(state) == 40
    assert lines(state) == [40, 0, 0]
    step = step_of(make_steps([("", "KD 5H")], {"H": 4}, stock="2C"), "t1-f")
    assert STEPS.score(step.state) == 50
    assert step.points == 10


def test_twenty_off_per_recycle():
    state = make_steps([("", "6S")], {"S": 5}, waste="2C 5H")
    step = step_of(state, "recycle")
    assert step.points == -20
    assert STEPS.score(step.state) == 50 - 20
    assert lines(step.state) == [50, -20, 0]


def test_a_retrieval_takes_ten_off_the_ledger():
    state = make_steps([("", "8H")], {"S": 7}, stock="2C", options={"retrieval": True})
    step = step_of(state, "fS-t1")
    assert step.points == -10
    assert STEPS.score(step.state) == 60


def finishing(**kwargs):
    # The king of clubs is the last card; it is on pile 1, in slot r1, or both
    # (reserves held elsewhere) as kwargs say.
    return make_steps(**{"foundations": {"S": 13, "H": 13, "D": 13, "C": 12}, **kwargs})


def test_a_win_without_any_slot_used_earns_the_flawless_100():
    state = finishing(tableau=[("", "KC")])
    step = step_of(state, "t1-f")
    assert step.won
    assert STEPS.score(step.state) == 520 + 100
    assert step.points == 110
    assert lines(step.state) == [520, 0, 100]
    view = STEPS.public_view(step.state)
    assert view["reserve_used_ever"] is False
    assert view["ledger"] == view["score"] == 620


def test_a_win_with_a_slot_used_earns_no_bonus():
    state = finishing(reserves="KC")
    step = step_of(state, "r1-f")
    assert step.won
    assert STEPS.score(step.state) == 520
    assert lines(step.state) == [520, 0, 0]
    assert STEPS.public_view(step.state)["reserve_used_ever"] is True


def test_a_card_back_out_of_a_slot_still_counts_as_a_use():
    state = finishing(tableau=[("", "KC")])
    state = STEPS.play(state, "t1-r1").state
    state = STEPS.play(state, "r1-t1").state
    assert state.reserve_uses == 1
    assert STEPS.play(state, "t1-f").state.reserve_uses == 1
    assert STEPS.score(STEPS.play(state, "t1-f").state) == 520


def test_an_undone_slot_use_does_not_cost_the_bonus():
    state = finishing(tableau=[("", "KC")])
    step = STEPS.play(state, "t1-r1")
    assert step.state.reserve_uses == 1
    assert STEPS.public_view(step.state)["reserve_used_ever"] is True
    back = STEPS.undo(step.state, step.undo)
    assert back.reserve_uses == 0
    assert back.points == 0
    assert STEPS.public_view(back)["reserve_used_ever"] is False
    assert STEPS.score(STEPS.play(back, "t1-f").state) == 620


def test_undoing_the_winning_move_takes_the_bonus_back():
    state = finishing(tableau=[("", "KC")])
    step = STEPS.play(state, "t1-f")
    back = STEPS.undo(step.state, step.undo)
    assert back == state
    assert STEPS.score(back) == 510


def test_the_ledger_lines_add_up_with_recycles_and_a_win():
    state = finishing(tableau=[("", "KC")], recycles=2)
    won = STEPS.play(state, "t1-f").state
    assert lines(won) == [520, -40, 100]
    assert STEPS.score(won) == 580
    labels = [line["label"] for line in STEPS.public_view(won)["ledger_lines"]]
    assert labels == [
        "Cards on the foundations (10 each)",
        "Recycles (-20 each)",
        "Flawless ascension (no reserve slot used)",
    ]


def test_with_no_slots_every_win_is_flawless():
    state = finishing(tableau=[("", "KC")], options={"buffers": 0})
    assert STEPS.score(STEPS.play(state, "t1-f").state) == 620


# The time bonus: ready for a timed mode, unused in Classic Ascension


@pytest.mark.parametrize(
    ("seconds_left", "bonus"), [(0, 0), (9, 0), (10, 2), (19, 2), (125, 24), (300, 60), (-5, 0)]
)
def test_two_points_for_every_full_ten_seconds_left(seconds_left, bonus):
    assert time_bonus(seconds_left) == bonus


def test_without_a_clock_the_final_score_is_the_ledger():
    state = finishing(tableau=[("", "KC")])
    won = STEPS.play(state, "t1-f").state
    assert STEPS.time_limit_seconds(won) is None
    assert STEPS.final_score(won, 0) == STEPS.final_score(won, 5000) == 620


def test_a_timed_mode_adds_the_time_bonus_to_the_final_score():
    class Sprint(Steps):  # what a timed mode will do: give the game a clock
        key = "steps-sprint-test"

        def time_limit_seconds(self, state):
            return 300

    won = STEPS.play(finishing(tableau=[("", "KC")]), "t1-f").state
    assert Sprint().final_score(won, 175) == 620 + 24
    assert Sprint().final_score(won, 400) == 620
    assert Sprint().score(won) == 620  # the score itself never holds the time bonus


# Undo exactness along a line of play


def test_undo_gives_back_points_ledger_and_reserve_uses_move_by_move():
    state = make_steps(
        [("4C", "5H"), ("", "TD"), ("3D", "9S"), ("", "")],
        {"H": 4, "S": 2},
        stock="6D 2C",
        waste="KH",
        options={"retrieval": True, "recycles": 1},
    )
    history = []
    for text in ["t1-f", "w-r1", "t3-r2", "r2-t2", "r1-t4", "fS-t3", "draw", "draw", "recycle"]:
        step = STEPS.play(state, text)
        history.append((state, step))
        state = step.state
    assert state.points == 15 - 2 + 3 + 5 + 5 - 10 + 0 + 0 - 20
    assert state.reserve_uses == 2
    for before, step in reversed(history):
        back = STEPS.undo(step.state, step.undo)
        assert back == before
        assert (back.points, back.reserve_uses, STEPS.score(back)) == (
            before.points,
            before.reserve_uses,
            STEPS.score(before),
        )


@pytest.mark.parametrize(
    "record",
    [
        {"move": "t1-r1", "cards": ["QS"], "revealed": None},  # the slot is empty
        {"move": "r1-t1", "cards": ["9S"], "revealed": None},  # 9S is not on pile 1
        {"move": "r2-f", "cards": ["5H"], "revealed": None},  # slot r2 is not empty
        {"move": "fS-t1", "cards": ["KD"], "revealed": None},  # KD is no spade
        {"move": "w-r2", "cards": ["9S"], "revealed": "4C"},  # nothing turns up on the waste
        {"move": "r1-f", "cards": ["9S", "8H"], "revealed": None},
        {"move": "recycle"},  # no recycle used
    ],
)
def test_undo_refuses_a_record_that_does_not_fit(record):
    state = make_steps([("", "KD")], {"H": 5}, stock="2C", reserves=". 9S")
    with pytest.raises(EngineError, match="does not fit"):
        STEPS.undo(state, record)


def test_undo_of_a_slot_use_needs_a_use_counted():
    state = make_steps([("", "KD")], stock="2C", reserves="QS", reserve_uses=1)
    record = {"move": "t1-r1", "cards": ["QS"], "revealed": None}
    assert STEPS.undo(state, record).reserve_uses == 0
    with pytest.raises(EngineError, match="does not fit"):
        STEPS.undo(dataclasses.replace(state, reserve_uses=0), record)


# The public view


VIEW_KEYS = [
    "variant",
    "options",
    "tableau",
    "foundations",
    "reserves",
    "stock",
    "waste",
    "points",
    "ledger",
    "ledger_lines",
    "recycles",
    "recycles_left",
    "can_draw",
    "can_recycle",
    "auto_complete",
    "cards_on_foundations",
    "reserve_used_ever",
    "status",
    "lost_reason",
    "may_be_stuck",
    "score",
]


def test_the_public_view_in_full():
    state = make_steps(
        [("4C 7D", "9S 8H"), ("", "KD")],
        {"S": 2, "C": 1},
        stock="3H 6C",
        waste="JD TS 5D 2H",
        reserves="QC . .",
        options={"draw": 3, "buffers": 3, "recycles": 2},
        recycles=1,
        points=37,
    )
    assert STEPS.public_view(state) == {
        "variant": "steps",
        "options": {"draw": 3, "buffers": 3, "recycles": 2, "retrieval": False},
        "tableau": [{"down": 2, "up": ["9S", "8H"]}, {"down": 0, "up": ["KD"]}]
        + [{"down": 0, "up": []}] * 5,
        "foundations": [
            {"suit": "S", "top": "2S", "count": 2},
            {"suit": "H", "top": None, "count": 0},
            {"suit": "D", "top": None, "count": 0},
            {"suit": "C", "top": "AC", "count": 1},
        ],
        "reserves": [
            {"slot": "r1", "card": "QC", "enabled": True},
            {"slot": "r2", "card": None, "enabled": True},
            {"slot": "r3", "card": None, "enabled": True},
            {"slot": "r4", "card": None, "enabled": False},
        ],
        "stock": 2,
        "waste": {"count": 4, "fan": ["TS", "5D", "2H"]},
        "points": 37,
        "ledger": 10,
        "ledger_lines": [
            {"label": "Cards on the foundations (10 each)", "value": 30},
            {"label": "Recycles (-20 each)", "value": -20},
            {"label": "Flawless ascension (no reserve slot used)", "value": 0},
        ],
        "recycles": 1,
        "recycles_left": 1,
        "can_draw": True,
        "can_recycle": False,
        "auto_complete": False,
        "cards_on_foundations": 3,
        "reserve_used_ever": True,
        "status": "in_progress",
        "lost_reason": None,
        "may_be_stuck": False,
        "score": 10,
    }
    assert list(STEPS.public_view(state)) == VIEW_KEYS


def test_draw_1_shows_only_the_top_waste_card():
    state = make_steps([("", "KD")], stock="3H", waste="JD TS 5D")
    assert STEPS.public_view(state)["waste"] == {"count": 3, "fan": ["5D"]}
    assert STEPS.public_view(make_steps([("", "KD")], stock="3H"))["waste"] == {
        "count": 0,
        "fan": [],
    }


def test_can_recycle_follows_the_limit():
    state = make_steps([("", "6S")], waste="2C 5H", options={"recycles": 1})
    assert STEPS.public_view(state)["can_recycle"] is True
    assert STEPS.public_view(dataclasses.replace(state, recycles=1))["can_recycle"] is False


def test_a_lost_game_says_why():
    # Nothing takes the 5 of hearts, the 9 of spades or the 2 of diamonds, and there is
    # no slot and no recycle.
    state = make_steps(
        [("3C", "5H"), ("", "9S")], options={"recycles": 0, "buffers": 0}, waste="2D"
    )
    view = STEPS.public_view(state)
    assert (view["status"], view["lost_reason"]) == ("lost", LOST_REASON)


@pytest.mark.parametrize("options", [{}, {"draw": 3}, {"buffers": 2, "retrieval": True}])
def test_the_public_view_shows_no_hidden_card(options):
    state = STEPS.deal(shuffled_deck("hidden"), options)
    for text in ["draw", "draw", "t1-r1", "draw"]:
        state = STEPS.play(state, text).state
    view = STEPS.public_view(state)
    assert set(codes_in(view)) <= visible_cards(state)
    hidden = set(state.stock) | {card for pile in state.tableau for card in pile.down}
    assert not set(codes_in(view)) & hidden


# Snapshots


def test_dump_and_load_round_trip():
    state = make_steps(
        [("4C 7D", "9S 8H"), ("", "KD")],
        {"S": 2},
        stock="3H 6C",
        waste="JD TS",
        reserves=". QC",
        options={"draw": 3, "buffers": 2, "recycles": 5, "retrieval": True},
        recycles=4,
        points=-12,
        reserve_uses=3,
    )
    # Hand-built positions miss cards; a dealt one holds all 52.
    full = STEPS.deal(shuffled_deck("dump"), {"draw": 3, "buffers": 2})
    for text in ["t1-r2", "draw", "w-r1"]:
        full = STEPS.play(full, text).state
    data = STEPS.dump(full)
    assert STEPS.load(data) == full
    assert set(data) == {
        "variant",
        "tableau",
        "foundations",
        "stock",
        "waste",
        "options",
        "reserves",
        "recycles",
        "points",
        "reserve_uses",
    }
    assert data["reserves"][:2] == [full.reserves[0], full.reserves[1]]
    assert STEPS.dump(state)["options"] == {
        "draw": 3,
        "buffers": 2,
        "recycles": 5,
        "retrieval": True,
    }
    assert STEPS.dump(state)["reserves"] == [None, "QC", None, None]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"options": {"draw": 1}}, "options must give draw, buffers, recycles, retrieval"),
        ({"options": {"draw": 2, "buffers": 4, "recycles": 3, "retrieval": False}}, "draw"),
        ({"reserves": [None, None, None]}, "list of 4 slots"),
        ({"reserves": ["ZZ", None, None, None]}, "list of 4 slots"),
        ({"recycles": 4}, "recycle count must be a whole number from 0 to 3"),
        ({"recycles": -1}, "recycle count"),
        ({"points": True}, "action points must be a whole number"),
        ({"points": "5"}, "action points"),
        ({"reserve_uses": 0}, "at least the cards in the slots"),
        ({"reserve_uses": None}, "reserve uses"),
    ],
)
def test_load_refuses_a_bad_snapshot(change, message):
    state = STEPS.deal(shuffled_deck("load"))
    state = STEPS.play(state, "t1-r1").state
    with pytest.raises(EngineError, match=message):
        STEPS.load({**STEPS.dump(state), **change})


def test_load_counts_the_slot_cards_among_the_52():
    state = STEPS.play(STEPS.deal(shuffled_deck("load")), "t1-r1").state
    data = STEPS.dump(state)
    lost = {**data, "reserves": [None, None, None, None]}
    with pytest.raises(EngineError, match="each of the 52 cards exactly once"):
        STEPS.load(lost)
    twice = {**data, "reserves": [data["reserves"][0], data["stock"][0], None, None]}
    with pytest.raises(EngineError, match="each of the 52 cards exactly once"):
        STEPS.load({**twice, "reserve_uses": 2})


def test_load_refuses_a_card_in_a_closed_slot():
    state = STEPS.play(STEPS.deal(shuffled_deck("load"), {"buffers": 1}), "t1-r1").state
    data = STEPS.dump(state)
    moved = {**data, "reserves": [None, data["reserves"][0], None, None]}
    with pytest.raises(EngineError, match="Slot r2 is closed: This deal has 1 reserve slot"):
        STEPS.load(moved)
