import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import EngineError, get_variant, replay, shuffled_deck, variant_keys

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


def write_case(tmp_path, case):
    path = tmp_path / "case.json"
    path.write_text(case if isinstance(case, str) else json.dumps(case), encoding="utf-8")
    return path


# replay()


def test_winning_fixture_wins():
    result = replay(load_fixture("klondike_win.json"))
    assert result["status"] == "won"
    assert result["score"] == 0
    assert result["error"] is None
    assert result["moves_applied"] == len(load_fixture("klondike_win.json")["moves"])
    assert result["public"]["cards_on_foundations"] == 52
    assert result["public"]["status"] == "won"


def test_in_progress_fixture_has_paid_for_two_recycles():
    result = replay(load_fixture("klondike_in_progress.json"))
    assert result["status"] == "in_progress"
    assert result["score"] == -40
    assert result["public"]["recycles"] == 5
    assert result["moves_applied"] == 50
    assert result["error"] is None


def test_an_illegal_move_stops_the_replay_there():
    case = load_fixture("klondike_in_progress.json")
    case["moves"][2:2] = ["recycle", "draw"]
    result = replay(case)
    assert result["moves_applied"] == 2
    assert result["error"] == {
        "index": 2,
        "move": "recycle",
        "message": "The stock still has cards: the waste is turned back only when the stock is "
        "empty",
    }
    state = get_variant("klondike").deal(shuffled_deck("arena-test-0"))
    for text in case["moves"][:2]:
        state = get_variant("klondike").play(state, text).state
    assert result["public"] == get_variant("klondike").public_view(state)


def test_a_malformed_move_in_the_log_is_reported_like_an_illegal_one():
    result = replay({"variant": "klondike", "seed": "s", "moves": ["draw", "t8-t1"]})
    assert result["moves_applied"] == 1
    assert result["error"]["index"] == 1
    assert "t1 to t7" in result["error"]["message"]


def test_a_move_after_the_win_is_illegal():
    case = load_fixture("klondike_win.json")
    case["moves"].append("draw")
    result = replay(case)
    assert result["status"] == "won"
    assert result["error"]["message"].startswith("The game is already won")


GOOD = {"variant": "klondike", "seed": "s", "moves": []}


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ([], "must be a JSON object"),
        ({**GOOD, "variant": "no-such-game"}, "Unknown variant 'no-such-game'"),
        ({"seed": "s", "moves": []}, "no variant"),
        ({**GOOD, "deck": list(shuffled_deck("s"))}, "either a deck or a seed"),
        ({"variant": "klondike", "moves": []}, "either a deck or a seed"),
        ({**GOOD, "seed": ""}, "seed must be a non-empty string"),
        ({"variant": "klondike", "deck": ["AS"] * 52, "moves": []}, "each card once"),
        ({"variant": "klondike", "deck": list(shuffled_deck("s"))[:51], "moves": []}, "52"),
        ({"variant": "klondike", "deck": "AS 2S", "moves": []}, "list of 52"),
        ({**GOOD, "options": []}, "options must be an object"),
        ({**GOOD, "options": None}, "options must be an object"),
        ({**GOOD, "options": {"draw": 1}}, "Klondike takes no options"),
        ({**GOOD, "moves": "draw"}, "moves must be a list of strings"),
        ({**GOOD, "moves": ["draw", 3]}, "moves must be a list of strings"),
        ({"variant": "klondike", "seed": "s"}, "moves must be a list of strings"),
        ({**GOOD, "notes": "x"}, "Unknown key"),
    ],
)
def test_bad_input_raises_the_engine_error(case, message):
    with pytest.raises(EngineError, match=message):
        replay(case)


def test_options_may_be_empty_or_left_out():
    assert replay({**GOOD, "options": {}}) == replay(GOOD)


def test_registry_knows_the_variants():
    assert {"klondike", "kingsley", "spiderette"} <= set(variant_keys())
    assert variant_keys() == sorted(variant_keys())
    for key in ["klondike", "kingsley", "spiderette"]:
        assert get_variant(key).key == key
    for key in ["no-such-game", "Klondike", ""]:
        with pytest.raises(EngineError, match="Unknown variant"):
            get_variant(key)


# Kingsley and Spiderette


@pytest.mark.parametrize("variant", ["kingsley", "spiderette"])
def test_the_winning_fixtures_win_with_all_52_cards(variant):
    case = load_fixture(f"{variant}_win.json")
    result = replay(case)
    assert result["error"] is None
    assert result["moves_applied"] == len(case["moves"])
    assert (result["status"], result["score"]) == ("won", 52)
    assert result["public"]["status"] == "won"
    assert result["public"]["lost_reason"] is None


def test_the_kingsley_fixtures_count_foundation_cards():
    assert replay(load_fixture("kingsley_win.json"))["public"]["cards_on_foundations"] == 52
    result = replay(load_fixture("kingsley_lost.json"))
    assert (result["status"], result["score"], result["moves_applied"]) == ("lost", 18, 142)
    assert result["public"]["cards_on_foundations"] == 18
    assert result["public"]["stock"] == 0
    assert result["public"]["lost_reason"].startswith("The stock is empty and no move")


def test_the_spiderette_fixtures_count_removed_cards():
    won = replay(load_fixture("spiderette_win.json"))["public"]
    assert won["cards_removed"] == 52
    assert sorted(won["removed_runs"]) == ["C", "D", "H", "S"]
    assert won["tableau"] == [{"down": 0, "up": []}] * 7
    result = replay(load_fixture("spiderette_lost.json"))
    assert (result["status"], result["score"], result["moves_applied"]) == ("lost", 0, 20)
    assert result["public"]["deals_left"] == 0
    assert result["public"]["lost_reason"].startswith("The stock is empty and no move")


@pytest.mark.parametrize("variant", ["kingsley", "spiderette"])
def test_a_move_after_a_loss_is_illegal(variant):
    case = load_fixture(f"{variant}_lost.json")
    engine = get_variant(variant)
    state = engine.deal(case["deck"])
    for text in case["moves"]:
        state = engine.play(state, text).state
    # Only moves that change nothing are left (or none at all), and even those are refused.
    assert engine.legal_moves(state) == []
    case["moves"].append("t1-t2")
    result = replay(case)
    assert result["status"] == "lost"
    assert result["error"]["index"] == len(case["moves"]) - 1
    assert result["error"]["message"] == (
        "The game is already lost: the stock is empty and no move can change the outcome: "
        + engine.public_view(state)["lost_reason"].split(": ", 1)[1]
    )


@pytest.mark.parametrize("variant", ["kingsley", "spiderette"])
def test_the_last_move_of_a_lost_fixture_says_so(variant):
    case = load_fixture(f"{variant}_lost.json")
    engine = get_variant(variant)
    state = engine.deal(case["deck"])
    for text in case["moves"][:-1]:
        state = engine.play(state, text).state
    assert engine.status(state) == "in_progress"
    step = engine.play(state, case["moves"][-1])
    assert step.lost
    assert step.events[-1] == "lost"
    assert engine.status(step.state) == "lost"


@pytest.mark.parametrize("variant", ["kingsley", "spiderette"])
def test_the_last_move_of_a_winning_fixture_says_so(variant):
    case = load_fixture(f"{variant}_win.json")
    engine = get_variant(variant)
    state = engine.deal(case["deck"])
    for text in case["moves"][:-1]:
        state = engine.play(state, text).state
    step = engine.play(state, case["moves"][-1])
    assert step.won
    assert step.events[-1] == "won"


@pytest.mark.parametrize("variant", ["kingsley", "spiderette"])
def test_replay_by_seed_and_by_deck_agree(variant):
    moves = ["t1-t2", "draw" if variant == "kingsley" else "deal"]
    by_seed = replay({"variant": variant, "seed": "same", "moves": moves})
    by_deck = replay({"variant": variant, "deck": list(shuffled_deck("same")), "moves": moves})
    assert by_seed == by_deck


# The command line


def test_cli_replays_a_won_game(tmp_path):
    completed = run_cli(FIXTURES / "klondike_win.json")
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert result == replay(load_fixture("klondike_win.json"))
    assert result["status"] == "won"
    assert completed.stderr == ""


@pytest.mark.parametrize(
    ("name", "status", "score"),
    [
        ("kingsley_win.json", "won", 52),
        ("kingsley_lost.json", "lost", 18),
        ("spiderette_win.json", "won", 52),
        ("spiderette_lost.json", "lost", 0),
    ],
)
def test_cli_replays_the_kingsley_and_spiderette_fixtures(name, status, score):
    completed = run_cli(FIXTURES / name)
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert (result["status"], result["score"]) == (status, score)
    assert result == replay(load_fixture(name))


def test_cli_exits_1_on_a_move_after_a_loss(tmp_path):
    case = load_fixture("spiderette_lost.json")
    case["moves"].append("deal")
    completed = run_cli(write_case(tmp_path, case))
    assert completed.returncode == 1
    result = json.loads(completed.stdout)
    assert result["status"] == "lost"
    assert result["error"]["move"] == "deal"


def test_cli_replays_a_game_in_progress():
    completed = run_cli(FIXTURES / "klondike_in_progress.json")
    assert completed.returncode == 0
    result = json.loads(completed.stdout)
    assert (result["status"], result["score"], result["moves_applied"]) == ("in_progress", -40, 50)


def test_cli_exits_1_on_an_illegal_move(tmp_path):
    case = {"variant": "klondike", "seed": "arena-test-0", "moves": ["draw", "w-f", "draw"]}
    completed = run_cli(write_case(tmp_path, case))
    assert completed.returncode == 1
    result = json.loads(completed.stdout)
    assert result["moves_applied"] == 1
    assert result["error"]["index"] == 1
    assert result["error"]["move"] == "w-f"
    assert "cannot go to its foundation" in result["error"]["message"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ({"variant": "no-such-game", "seed": "s", "moves": []}, "Unknown variant"),
        ({"variant": "klondike", "deck": ["AS"] * 52, "moves": []}, "each card once"),
        ({"variant": "klondike", "seed": "s", "deck": [], "moves": []}, "either a deck or a seed"),
        ({"variant": "klondike", "moves": []}, "either a deck or a seed"),
        ({"variant": "klondike", "seed": "s", "options": [1], "moves": []}, "must be an object"),
        ({"variant": "klondike", "seed": "s", "options": {"x": 1}, "moves": []}, "no options"),
        ({"variant": "klondike", "seed": "s", "moves": [1]}, "list of strings"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
    ],
)
def test_cli_exits_2_on_bad_input(tmp_path, content, message):
    completed = run_cli(write_case(tmp_path, content))
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert message in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1


def test_cli_exits_2_on_a_missing_file(tmp_path):
    completed = run_cli(tmp_path / "missing.json")
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert "cannot read" in completed.stderr
    assert "No such file" in completed.stderr
