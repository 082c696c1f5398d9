"""The Codex's file: it checks out, and the solver still wins every scenario."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import codex
from games.engine import get_variant, replay
from games.engine.steps.codex import TIERS

STEPS = get_variant("steps")


def test_the_codex_file_holds_twenty_scenarios_in_four_tiers() -> None:
    scenarios = codex.codex_read()
    assert [s.tier for s in scenarios] == [t for t in range(1, TIERS + 1) for _ in range(5)]
    assert codex.codex_scenario("summit-of-ascension") == scenarios[-1]
    assert codex.codex_scenario("nowhere") is None
    assert any(s.options.get("foundations") for s in scenarios)
    assert any(s.options.get("reserves") for s in scenarios)
    assert any(s.undo_allowance is not None for s in scenarios)
    assert any(s.time_limit_seconds is not None for s in scenarios)


@pytest.mark.parametrize("scenario", codex.codex_read(), ids=lambda s: s.key)
def test_every_scenario_is_won_by_the_solver_and_its_line_replays(scenario) -> None:
    solution = codex.scenario_certify(scenario)
    assert codex.scenario_certified(solution)
    outcome = replay({**scenario.as_case(), "moves": list(solution.moves)})
    assert outcome["status"] == "won"


def test_a_codex_file_that_does_not_check_out_says_where(tmp_path) -> None:
    data = json.loads(codex.CODEX_FILE.read_text())
    data[4]["options"] = {"draw": 2}
    broken = tmp_path / "codex.json"
    broken.write_text(json.dumps(data))
    with pytest.raises(codex.CodexInvalid, match=r"Scenario 5 \(the-gentle-ascent\): The draw"):
        codex.codex_read(broken)
    broken.write_text("{not json")
    with pytest.raises(codex.CodexInvalid, match="cannot be read as JSON"):
        codex.codex_read(broken)


def test_the_command_recertifies_every_scenario() -> None:
    out = StringIO()
    call_command("codex_certify", stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 20
    assert all(": won, par " in line for line in lines)


def test_the_command_fails_naming_a_scenario_the_solver_no_longer_wins(monkeypatch) -> None:
    from games.engine.solvers import Solution

    monkeypatch.setattr(
        codex,
        "scenario_certify",
        lambda scenario, native=None: Solution(verdict="unknown", nodes=1, ms=1),
    )
    monkeypatch.setattr(
        "games.management.commands.codex_certify.scenario_certify",
        lambda scenario, native=None: Solution(verdict="unknown", nodes=1, ms=1),
    )
    with pytest.raises(CommandError, match="The solver no longer wins: gallery-of-first-light"):
        call_command("codex_certify", stdout=StringIO())
