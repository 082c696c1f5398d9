"""``python -m games.engine solve CASE.json [--budget-ms N] [--pure-python]``: one JSON
object {"verdict", "moves", "nodes", "ms"} and exit 0 for every verdict, a won line that
the replay command replays to a win, and exit 2 with a message on stderr (and nothing on
stdout) for bad input. The subprocess tests use Spike, whose deals solve in milliseconds;
the in-process ones run the command's main() for every registered solver."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import full_deck, replay
from games.engine.__main__ import MAX_BUDGET_MS, main
from games.engine.solvers import VERDICTS, solvers
from tests.engine.solvers.test_spike import locked_deck

REPO_ROOT = Path(__file__).resolve().parents[3]
KEYS = ["verdict", "moves", "nodes", "ms"]


def write(tmp_path: Path, content: Any, name: str = "case.json") -> Path:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return path


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *arguments],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
        check=False,
    )


def answer_of(stdout: str) -> dict[str, Any]:
    """The one JSON object the command prints, checked for its shape."""
    lines = stdout.splitlines()
    assert len(lines) == 1, stdout
    answer: dict[str, Any] = json.loads(lines[0])
    assert list(answer) == KEYS
    assert answer["verdict"] in VERDICTS
    assert isinstance(answer["moves"], list)
    assert all(isinstance(move, str) for move in answer["moves"])
    for figure in ("nodes", "ms"):
        assert isinstance(answer[figure], int)
        assert answer[figure] >= 0
    if answer["verdict"] != "won":
        assert answer["moves"] == []
    return answer


def solve(tmp_path: Path, case: dict[str, Any], *options: str) -> dict[str, Any]:
    result = run("solve", str(write(tmp_path, case)), *options)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return answer_of(result.stdout)


@pytest.mark.parametrize(
    ("mode", "options"),
    [("classic", []), ("time_attack", ["--pure-python"]), ("relaxed", ["--budget-ms", "60000"])],
)
def test_a_won_line_replays_to_a_win_with_the_replay_command(tmp_path, mode, options):
    case = {"variant": "spike", "options": {"mode": mode}, "seed": f"bench-spike-{len(mode)}"}
    answer = solve(tmp_path, case, *options)
    assert answer["verdict"] == "won"
    assert answer["moves"]
    replayed = run("replay", str(write(tmp_path, {**case, "moves": answer["moves"]}, "r.json")))
    assert replayed.returncode == 0, replayed.stderr
    result = json.loads(replayed.stdout)
    assert result["error"] is None
    assert result["status"] == "won"
    assert result["moves_applied"] == len(answer["moves"])


def test_a_deck_case_proved_lost_exits_0(tmp_path):
    answer = solve(tmp_path, {"variant": "spike", "deck": locked_deck()})
    assert answer["verdict"] == "lost"
    assert answer["moves"] == []
    for mode in ("classic", "relaxed"):
        case = {"variant": "spike", "options": {"mode": mode}, "deck": locked_deck()}
        assert solve(tmp_path, case, "--pure-python")["verdict"] == "lost"


def test_unknown_when_the_budget_runs_out_exits_0(tmp_path):
    """spike-20391 takes the search over a million positions: 1 ms is not enough."""
    for options in ([], ["--pure-python"]):
        answer = solve(
            tmp_path, {"variant": "spike", "seed": "spike-20391"}, "--budget-ms", "1", *options
        )
        assert answer["verdict"] == "unknown"
        assert answer["moves"] == []
        assert answer["nodes"] > 0


def test_both_paths_print_the_same_answer(tmp_path):
    """Without a time budget the search is the same on both paths, node for node (the
    command uses the compiled core when it is built)."""
    case = {"variant": "spike", "seed": "bench-spike-19"}
    default, pure = solve(tmp_path, case), solve(tmp_path, case, "--pure-python")
    assert {key: default[key] for key in ("verdict", "moves", "nodes")} == {
        key: pure[key] for key in ("verdict", "moves", "nodes")
    }


BAD_CASES = {
    "bad JSON": '{"variant": "spike", "seed": ',
    "not UTF-8": b"\xff\xfe{}".decode("latin-1"),
    "not an object": '["spike"]',
    "no variant": {"seed": "x"},
    "unknown variant": {"variant": "freecell", "seed": "x"},
    "moves": {"variant": "spike", "seed": "x", "moves": []},
    "an unknown key": {"variant": "spike", "seed": "x", "colour": "red"},
    "bad options": {"variant": "spike", "seed": "x", "options": {"mode": "zen"}},
    "options not an object": {"variant": "spike", "seed": "x", "options": ["classic"]},
    "both deck and seed": {"variant": "spike", "seed": "x", "deck": full_deck()},
    "neither deck nor seed": {"variant": "spike"},
    "a short deck": {"variant": "spike", "deck": full_deck()[:51]},
    "a seed that is no string": {"variant": "spike", "seed": 7},
    "an unknown rules version": {"variant": "spike", "seed": "x", "rules_version": 99},
}


def run_main(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit:  # argparse's own refusals
        code = int(exit.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def write_case(tmp_path: Path, name: str) -> Path:
    """The bad case ``name`` in a file of its own."""
    path = tmp_path / f"{name.replace(' ', '-')}.json"
    if name == "not UTF-8":
        path.write_bytes(b"\xff\xfe{}")
    else:
        write(tmp_path, BAD_CASES[name], path.name)
    return path


BAD_OPTIONS = {
    "budget 0": ["--budget-ms", "0"],
    "budget -5": ["--budget-ms", "-5"],
    "budget =-5": ["--budget-ms=-5"],
    "budget x": ["--budget-ms", "x"],
    "budget 1.5": ["--budget-ms", "1.5"],
    "budget over a day": ["--budget-ms", str(MAX_BUDGET_MS + 1)],
    "budget missing": ["--budget-ms"],
    "pure-python with a value": ["--pure-python=yes"],
    "an unknown option": ["--nodes", "5"],
}


def check_bad_input(code: int, out: str, err: str) -> None:
    assert code == 2
    assert out == ""
    assert "error" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", sorted(BAD_CASES))
def test_a_bad_case_exits_2_with_a_message(tmp_path, capsys, name):
    check_bad_input(*run_main(capsys, ["solve", str(write_case(tmp_path, name))]))


@pytest.mark.parametrize("name", sorted(BAD_OPTIONS))
def test_bad_options_exit_2(tmp_path, capsys, name):
    case = write(tmp_path, {"variant": "spike", "seed": "bench-spike-0"})
    check_bad_input(*run_main(capsys, ["solve", str(case), *BAD_OPTIONS[name]]))


def test_an_unreadable_file_exits_2(tmp_path, capsys):
    check_bad_input(*run_main(capsys, ["solve", str(tmp_path / "missing.json")]))
    check_bad_input(*run_main(capsys, ["solve", str(tmp_path)]))  # a directory
    check_bad_input(*run_main(capsys, ["solve"]))  # no file named


def test_bad_input_exits_2_from_the_shell(tmp_path):
    """The exit status and the streams as a shell sees them, for each kind of bad input."""
    for arguments in (
        [str(tmp_path / "missing.json")],
        [str(write_case(tmp_path, "bad JSON"))],
        [str(write_case(tmp_path, "unknown variant"))],
        [str(write_case(tmp_path, "moves"))],
        [str(write_case(tmp_path, "bad options"))],
        [str(write_case(tmp_path, "both deck and seed"))],
        *(
            [
                str(write(tmp_path, {"variant": "spike", "seed": "x"}, "good.json")),
                *BAD_OPTIONS[name],
            ]
            for name in ("budget 0", "budget -5", "budget x")
        ),
    ):
        result = run("solve", *arguments)
        check_bad_input(result.returncode, result.stdout, result.stderr)


@pytest.mark.parametrize("key", sorted(solvers()))
def test_every_solver_answers_through_the_command(tmp_path, capsys, key):
    """Each registered solver, through main(): exit 0 and the one JSON object at a short
    budget, and a won line that replays to a win."""
    case = {"variant": key, "seed": f"bench-{key}-0"}
    code, out, err = run_main(capsys, ["solve", str(write(tmp_path, case)), "--budget-ms", "300"])
    assert (code, err) == (0, ""), err
    answer = answer_of(out)
    if answer["verdict"] == "won":
        result = replay({**case, "moves": answer["moves"]})
        assert (result["error"], result["status"]) == (None, "won")
    code, out, err = run_main(
        capsys, ["solve", str(write(tmp_path, {**case, "moves": []})), "--budget-ms", "300"]
    )
    assert (code, out) == (2, "")
    assert "moves" in err


def test_main_refuses_a_budget_over_a_day(tmp_path, capsys):
    case = str(write(tmp_path, {"variant": "spike", "seed": "bench-spike-0"}))
    code, out, err = run_main(capsys, ["solve", case, "--budget-ms", str(MAX_BUDGET_MS + 1)])
    assert (code, out) == (2, "")
    assert "at most" in err
    code, out, err = run_main(capsys, ["solve", case, "--budget-ms", str(MAX_BUDGET_MS)])
    assert code == 0
    assert answer_of(out)["verdict"] == "won"
