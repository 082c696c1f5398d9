"""Replaying Steps games: the fixtures (a win and a loss, each with its options), the
"points" figure in the output, options, and the command line."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import EngineError, get_variant, replay, shuffled_deck

from .test_steps_helpers import STEPS

FIXTURES = Path(__file__).parent / "fixtures"
REPO_ROOT = Path(__file__).resolve().parents[2]


def load_fixture(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def run_cli(path):
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )


def play_out(case, upto=None):
    state = STEPS.deal(case["deck"], case["options"])
    for text in case["moves"][:upto]:
        state = STEPS.play(state, text).state
    return state


def test_the_winning_fixture():
    case = load_fixture("steps_win.json")
    assert case["options"] == {"draw": 3, "buffers": 2, "recycles": 3, "retrieval": True}
    result = replay(case)
    assert result["error"] is None
    assert result["moves_applied"] == len(case["moves"]) == 119
    # 52 cards (520) and 3 recycles (-60); slots were used, so no flawless bonus.
    assert (result["status"], result["score"], result["points"]) == ("won", 460, 593)
    public = result["public"]
    assert public["options"] == case["options"]
    assert public["cards_on_foundations"] == 52
    assert (public["recycles"], public["recycles_left"]) == (3, 0)
    assert public["reserve_used_ever"] is True
    assert [line["value"] for line in public["ledger_lines"]] == [520, -60, 0]
    assert (public["ledger"], public["points"], public["status"]) == (460, 593, "won")
    assert public["lost_reason"] is None


def test_the_flawless_winning_fixture_earns_the_bonus():
    case = load_fixture("steps_win_flawless.json")
    assert case["options"] == {"draw": 1, "buffers": 4, "recycles": 3, "retrieval": False}
    assert not any(re.search(r"(^|-)r[1-4]", text) for text in case["moves"])
    result = replay(case)
    assert result["error"] is None
    assert result["moves_applied"] == len(case["moves"]) == 119
    # 52 cards (520), one recycle (-20) and no slot ever used (+100).
    assert (result["status"], result["score"], result["points"]) == ("won", 600, 665)
    public = result["public"]
    assert public["reserve_used_ever"] is False
    assert [line["value"] for line in public["ledger_lines"]] == [520, -20, 100]


def test_the_last_move_of_the_winning_fixture_says_so():
    case = load_fixture("steps_win.json")
    state = play_out(case, -1)
    step = STEPS.play(state, case["moves"][-1])
    assert step.won
    assert step.events == ("won",)
    assert STEPS.legal_moves(step.state) == []


def test_the_lost_fixture():
    case = load_fixture("steps_lost.json")
    assert case["options"] == {"draw": 1, "buffers": 1, "recycles": 1, "retrieval": False}
    result = replay(case)
    assert result["error"] is None
    assert (result["status"], result["moves_applied"]) == ("lost", 75)
    # 10 cards on the foundations (100) and the one recycle (-20).
    assert (result["score"], result["points"]) == (80, 194)
    public = result["public"]
    assert (public["cards_on_foundations"], public["recycles_left"], public["stock"]) == (10, 0, 0)
    assert public["lost_reason"].startswith("The stock is empty, no recycle can turn")


def test_the_last_move_of_the_lost_fixture_says_so_and_nothing_follows():
    case = load_fixture("steps_lost.json")
    state = play_out(case, -1)
    assert STEPS.status(state) == "in_progress"
    step = STEPS.play(state, case["moves"][-1])
    assert step.lost
    assert step.events == ("lost",)
    assert STEPS.legal_moves(step.state) == []
    case["moves"].append("recycle")
    result = replay(case)
    assert result["error"]["index"] == 75
    assert result["error"]["message"].startswith("The game is already lost: the stock is empty")


def test_the_fixtures_deal_from_their_decks():
    for name in ["steps_win.json", "steps_win_flawless.json", "steps_lost.json"]:
        case = load_fixture(name)
        assert sorted(case["deck"]) == sorted(shuffled_deck("any"))


def test_points_are_reported_only_by_a_variant_that_keeps_them():
    result = replay({"variant": "steps", "seed": "s", "moves": ["draw", "w-r1"]})
    assert list(result) == [
        "rules_version",
        "status",
        "score",
        "points",
        "moves_applied",
        "error",
        "public",
    ]
    assert result["points"] == -2
    for key in ["klondike", "kingsley", "spiderette", "spike"]:
        other = replay({"variant": key, "seed": "s", "moves": []})
        assert list(other) == [
            "rules_version",
            "status",
            "score",
            "moves_applied",
            "error",
            "public",
        ]
        assert get_variant(key).points(get_variant(key).deal(shuffled_deck("s"))) is None


def test_options_change_the_game_and_are_kept():
    moves = ["draw", "draw"]
    one = replay({"variant": "steps", "seed": "s", "moves": moves})
    three = replay({"variant": "steps", "options": {"draw": 3}, "seed": "s", "moves": moves})
    assert (one["public"]["waste"]["count"], three["public"]["waste"]["count"]) == (2, 6)
    assert three["public"]["options"]["draw"] == 3
    closed = replay(
        {"variant": "steps", "options": {"buffers": 0}, "seed": "s", "moves": ["t1-r1"]}
    )
    assert closed["error"]["message"] == "This deal has no reserve slots"


@pytest.mark.parametrize(
    ("options", "message"),
    [({"draw": 2}, "The draw option is 1 or 3"), ({"undo": False}, "Steps has no option")],
)
def test_bad_options_are_bad_input(options, message):
    with pytest.raises(EngineError, match=message):
        replay({"variant": "steps", "options": options, "seed": "s", "moves": []})


def test_replay_by_seed_and_by_deck_agree():
    moves = ["t1-r1", "draw", "w-r2"]
    options = {"draw": 3, "retrieval": True}
    by_seed = replay({"variant": "steps", "options": options, "seed": "same", "moves": moves})
    deck = list(shuffled_deck("same"))
    by_deck = replay({"variant": "steps", "options": options, "deck": deck, "moves": moves})
    assert by_seed == by_deck


# The command line


@pytest.mark.parametrize(
    ("name", "status", "score", "points"),
    [
        ("steps_win.json", "won", 460, 593),
        ("steps_win_flawless.json", "won", 600, 665),
        ("steps_lost.json", "lost", 80, 194),
    ],
)
def test_cli_replays_the_steps_fixtures(name, status, score, points):
    completed = run_cli(FIXTURES / name)
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert (result["status"], result["score"], result["points"]) == (status, score, points)
    assert result == replay(load_fixture(name))


def test_cli_exits_1_after_a_loss_and_2_on_bad_options(tmp_path):
    case = load_fixture("steps_lost.json")
    case["moves"].append("t1-r1")
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), encoding="utf-8")
    completed = run_cli(path)
    assert completed.returncode == 1
    assert json.loads(completed.stdout)["error"]["move"] == "t1-r1"
    case["options"] = {"buffers": 5}
    path.write_text(json.dumps(case), encoding="utf-8")
    completed = run_cli(path)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert "The buffers option is a whole number of reserve slots from 0 to 4" in completed.stderr
