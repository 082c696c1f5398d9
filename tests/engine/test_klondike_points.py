"""Klondike's published points table, the ``points`` option (docs/engine.md#klondike):
each scoring event earns its points on top of the rulebook's restart charge, undo gives
back exactly what a move earned, and a game without a table scores as before.

The figures here are arbitrary test values, not anyone's table."""

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import EngineError, format_move, replay, shuffled_deck
from games.engine.klondike import POINT_EVENTS, PointsTable

from .helpers import KINGSLEY, KLONDIKE, make_state

FIXTURES = Path(__file__).parent / "fixtures"
REPO_ROOT = Path(__file__).resolve().parents[2]
TABLE = {"waste_to_tableau": 3, "waste_to_foundation": 11, "tableau_to_foundation": 17, "flip": 29}
ZERO_TABLE = dict.fromkeys(POINT_EVENTS, 0)
OLD_SNAPSHOT_KEYS = {"variant", "tableau", "foundations", "stock", "waste", "recycles", "score"}


def with_table(state, table=TABLE):
    return dataclasses.replace(state, points_table=PointsTable(**table))


def played(state, text):
    """The step of ``text``, after checking that its JSON undo record restores ``state``."""
    step = KLONDIKE.play(state, text)
    assert step.points == step.state.score - state.score
    assert KLONDIKE.undo(step.state, json.loads(json.dumps(step.undo))) == state
    return step


def load_fixture(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


# The option


def test_a_game_without_a_table_keeps_todays_options_and_snapshot():
    assert KLONDIKE.normalize_options(None) == KLONDIKE.normalize_options({}) == {}
    state = KLONDIKE.deal(shuffled_deck("points"))
    assert state.points_table is None
    assert set(KLONDIKE.dump(state)) == OLD_SNAPSHOT_KEYS


def test_the_table_is_normalised_with_every_event_in_order():
    normalized = KLONDIKE.normalize_options({"points": {"flip": 29, "waste_to_tableau": -3}})
    assert normalized == {
        "points": {
            "waste_to_tableau": -3,
            "waste_to_foundation": 0,
            "tableau_to_foundation": 0,
            "flip": 29,
        }
    }
    assert list(normalized["points"]) == list(POINT_EVENTS)
    assert KLONDIKE.normalize_options(normalized) == normalized
    # An empty table is still a table the game records: every event at 0.
    assert KLONDIKE.normalize_options({"points": {}}) == {"points": ZERO_TABLE}
    limits = {"flip": 1000, "waste_to_foundation": -1000}
    assert KLONDIKE.normalize_options({"points": limits})["points"]["flip"] == 1000


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ([], "Options must be an object, not list"),
        ({"draw": 1}, r"takes no options but 'points' .*unknown option\(s\): 'draw'$"),
        ({"points": None}, "table of scoring events and their points, not NoneType"),
        ({"points": [["flip", 5]]}, "table of scoring events and their points, not list"),
        ({"points": {"tableau_to_tableau": 1}}, r"no event\(s\) 'tableau_to_tableau'; the events"),
        ({"points": {"foundation_to_tableau": -15}}, r"no event\(s\) 'foundation_to_tableau'"),
        ({"points": {"recycle": -20}}, r"no event\(s\) 'recycle'"),
        ({"points": {"time_bonus": 2}}, r"no event\(s\) 'time_bonus'"),
        ({"points": {"flip": 1.5}}, "points for flip must be a whole number from -1000 to 1000"),
        ({"points": {"flip": True}}, "not True$"),
        ({"points": {"flip": "5"}}, "not '5'$"),
        ({"points": {"flip": 1001}}, "not 1001$"),
        ({"points": {"waste_to_tableau": -1001}}, "not -1001$"),
    ],
)
def test_a_bad_table_is_refused_with_the_reason(options, message):
    with pytest.raises(EngineError, match=message):
        KLONDIKE.normalize_options(options)
    with pytest.raises(EngineError, match=message):
        KLONDIKE.deal(shuffled_deck("points"), options)


def test_kingsley_has_no_points_option():
    with pytest.raises(EngineError, match="Kingsley takes no options"):
        KINGSLEY.normalize_options({"points": TABLE})
    assert "points_table" not in {
        field.name for field in dataclasses.fields(KINGSLEY.deal(shuffled_deck("k")))
    }


# Each event


@pytest.mark.parametrize(
    ("position", "move", "points"),
    [
        ({"tableau": [("", "6S")], "waste": "5H"}, "w-t1", 3),
        ({"tableau": [], "waste": "KD"}, "w-t1", 3),
        ({"tableau": [], "waste": "AS"}, "w-f", 11),
        ({"tableau": [("", "AS")]}, "t1-f", 17),
        ({"tableau": [("KD", "AS")]}, "t1-f", 17 + 29),
        ({"tableau": [("KD", "5H"), ("", "6S")]}, "t1-t2", 29),
        ({"tableau": [("QD", "7D 6S 5H"), ("", "8C")]}, "t1-t2/3", 29),
        ({"tableau": [("", "5H"), ("", "6S")]}, "t1-t2", 0),
        ({"tableau": [("QD", "7D 6S 5H"), ("", "7H")]}, "t1-t2/2", 0),
        ({"tableau": [], "stock": "9C 8C 7C"}, "draw", 0),
        ({"tableau": [], "waste": "9C 8C 7C"}, "recycle", 0),
    ],
)
def test_each_event_scores_its_points_and_undo_gives_them_back(position, move, points):
    state = with_table(make_state(**position))
    step = played(state, move)
    assert step.points == points
    assert (step.state.score, step.state.points_earned) == (points, points)
    undone = KLONDIKE.undo(step.state, step.undo)
    assert (undone.score, undone.points_earned) == (0, 0)


def test_a_flip_earns_only_when_the_move_turns_a_card_up():
    state = with_table(make_state(tableau=[("KD", "5H"), ("", "6S")]), {"flip": 29})
    flipped = played(state, "t1-t2")
    assert (flipped.revealed, flipped.points) == (("KD",), 29)
    drawn = played(with_table(make_state(stock="9C 8C 7C"), {"flip": 29}), "draw")
    assert (drawn.revealed, drawn.points) == (("7C", "8C", "9C"), 0)


def test_the_restart_charge_still_applies_on_top_of_the_table():
    state = with_table(
        dataclasses.replace(make_state(waste="9C 8C", recycles=3), points_earned=40, score=40)
    )
    step = played(state, "recycle")
    assert step.points == -20
    assert (step.state.score, step.state.points_earned, step.state.recycles) == (20, 40, 4)
    assert KLONDIKE.public_view(step.state)["score"] == 20


def test_the_final_score_is_the_score_whatever_the_time():
    state = played(with_table(make_state(waste="AS")), "w-f").state
    assert KLONDIKE.final_score(state, 0) == KLONDIKE.final_score(state, 10_000) == 11


# Snapshots


def test_a_game_with_a_table_keeps_it_and_its_points_in_the_snapshot():
    state = played(with_table(make_state(tableau=[("KD", "AS")]), TABLE), "t1-f").state
    data = json.loads(json.dumps(KLONDIKE.dump(state)))
    assert set(data) == OLD_SNAPSHOT_KEYS | {"points_table", "points_earned"}
    assert (data["points_table"], data["points_earned"], data["score"]) == (TABLE, 46, 46)


def test_a_table_snapshot_round_trips_and_its_score_is_derived():
    case = load_fixture("klondike_win.json")
    state = KLONDIKE.deal(case["deck"], {"points": TABLE})
    for text in case["moves"][:60]:
        state = KLONDIKE.play(state, text).state
    assert state.points_earned > 0
    data = json.loads(json.dumps(KLONDIKE.dump(state)))
    assert KLONDIKE.load(data) == state
    data.update(recycles=5, points_earned=7, score=-999)
    loaded = KLONDIKE.load(data)
    assert (loaded.score, loaded.points_earned) == (-40 + 7, 7)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"points_table": TABLE}, "holds both points_table and points_earned"),
        ({"points_earned": 0}, "holds both points_table and points_earned"),
        ({"points_table": {"flip": 1001}, "points_earned": 0}, "from -1000 to 1000"),
        ({"points_table": None, "points_earned": 0}, "table of scoring events"),
        ({"points_table": TABLE, "points_earned": "5"}, "points earned must be a whole number"),
        ({"points_table": TABLE, "points_earned": False}, "points earned must be a whole number"),
        ({"points": TABLE}, "exactly the keys"),
    ],
)
def test_load_refuses_a_bad_table_or_half_of_one(changes, message):
    data = {**KLONDIKE.dump(KLONDIKE.deal(shuffled_deck("points"))), **changes}
    with pytest.raises(EngineError, match=message):
        KLONDIKE.load(data)


# Replay


def expected_win_score(moves, table):
    """A won game turned all 21 face-down cards up and put every card on a foundation,
    from the waste or a pile; the fixture's 3 recycles are free."""
    from_waste = sum(move == "w-f" for move in moves)
    return (
        table["waste_to_tableau"] * sum(move.startswith("w-t") for move in moves)
        + table["waste_to_foundation"] * from_waste
        + table["tableau_to_foundation"] * (52 - from_waste)
        + table["flip"] * 21
    )


def test_replay_of_a_game_with_a_table_reproduces_its_score(tmp_path):
    case = {**load_fixture("klondike_win.json"), "options": {"points": TABLE}}
    expected = expected_win_score(case["moves"], TABLE)
    result = replay(case)
    assert (result["status"], result["score"], result["error"]) == ("won", expected, None)
    assert "points" not in result
    assert replay({**case, "options": {}})["score"] == 0
    assert replay({**case, "options": {"points": ZERO_TABLE}})["score"] == 0

    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["score"] == expected


def test_replay_refuses_a_bad_table():
    case = {"variant": "klondike", "seed": "s", "moves": [], "options": {"points": {"x": 1}}}
    with pytest.raises(EngineError, match=r"no event\(s\) 'x'"):
        replay(case)


# Properties along random games

tables = st.fixed_dictionaries(
    {}, optional={event: st.integers(min_value=-1000, max_value=1000) for event in POINT_EVENTS}
)
seeds = st.integers(min_value=0, max_value=10**6).map(lambda n: f"points-{n}")


def event_points(text, step, table):
    """What the move earns, read from its notation and what it turned up."""
    if "-" not in text:
        return 0  # draw, recycle
    source, target = text.split("/")[0].split("-")
    if source == "w":
        return table.get("waste_to_foundation" if target == "f" else "waste_to_tableau", 0)
    earned = table.get("tableau_to_foundation", 0) if target == "f" else 0
    return earned + (table.get("flip", 0) if step.revealed else 0)


@settings(max_examples=60, deadline=None)
@given(seed=seeds, table=tables, chooser=st.randoms(use_true_random=False))
def test_random_play_scores_the_events_of_the_line_less_the_restart_charges(seed, table, chooser):
    start = KLONDIKE.deal(shuffled_deck(seed), {"points": table})
    plain = KLONDIKE.deal(shuffled_deck(seed))
    state, line = start, []  # line: (state before, step, points the events earned)
    for _ in range(200):
        moves = KLONDIKE.legal_moves(state)
        assert [format_move(move) for move in moves] == [
            format_move(move) for move in KLONDIKE.legal_moves(plain)
        ]
        if not moves:
            break
        if line and chooser.random() < 0.2:
            before, step, _ = line.pop()
            state = KLONDIKE.undo(state, json.loads(json.dumps(step.undo)))
            assert state == before
            plain = KLONDIKE.undo(plain, step.undo)
        else:
            move = chooser.choice(moves)
            step = KLONDIKE.apply(state, move)
            line.append((state, step, event_points(format_move(move), step, table)))
            plain_step = KLONDIKE.apply(plain, move)
            assert plain_step.revealed == step.revealed
            state, plain = step.state, plain_step.state
        charges = KLONDIKE.recycle_score(state.recycles)
        assert plain.score == charges
        assert state.score == sum(earned for _, _, earned in line) + charges
        assert state.points_earned == sum(earned for _, _, earned in line)
    assert KLONDIKE.load(json.loads(json.dumps(KLONDIKE.dump(state)))) == state
    for before, step, _ in reversed(line):
        state = KLONDIKE.undo(state, step.undo)
        assert state == before
    assert state == start
    assert (state.score, state.points_earned) == (0, 0)


@settings(max_examples=20, deadline=None)
@given(seed=seeds, chooser=st.randoms(use_true_random=False))
def test_a_table_of_zeros_scores_like_no_table(seed, chooser):
    zeros = KLONDIKE.deal(shuffled_deck(seed), {"points": ZERO_TABLE})
    plain = KLONDIKE.deal(shuffled_deck(seed))
    for _ in range(150):
        moves = KLONDIKE.legal_moves(plain)
        if not moves:
            break
        move = chooser.choice(moves)
        step, plain_step = KLONDIKE.apply(zeros, move), KLONDIKE.apply(plain, move)
        assert step.points == plain_step.points
        zeros, plain = step.state, plain_step.state
        assert KLONDIKE.public_view(zeros) == KLONDIKE.public_view(plain)
        assert dataclasses.replace(zeros, points_table=None) == plain
