"""The Citadel Layout Codex as the platform reads it: the 20 Steps scenarios of
games/data/citadel_codex.json, checked by the engine (games.engine.steps.codex) once
per process. A file that does not check out stops the site at its first read with the
engine's message, naming the scenario."""

import json
from functools import cache
from pathlib import Path

from games.engine import EngineError, get_variant
from games.engine.solvers import WON, Budget, Solution, solver_for
from games.engine.steps.codex import Scenario, codex_of, scenario_state

CODEX_FILE = Path(__file__).resolve().parent / "data" / "citadel_codex.json"
CERTIFY_NODES = 400_000
"""The re-certification's budget per scenario, in positions (the same on every machine);
the Codex's hardest needs about half of it."""


class CodexInvalid(EngineError):
    """The Codex's file does not hold a valid Codex (the message says where)."""


def codex_read(path: Path = CODEX_FILE) -> tuple[Scenario, ...]:
    """The scenarios a Codex file holds; CodexInvalid with the reason otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CodexInvalid(f"{path.name} cannot be read as JSON: {error}") from error
    try:
        return codex_of(data, get_variant("steps"))
    except EngineError as error:
        raise CodexInvalid(f"{path.name}: {error}") from error


@cache
def codex_scenarios() -> tuple[Scenario, ...]:
    return codex_read()


def codex_scenario(key: str) -> Scenario | None:
    return next((scenario for scenario in codex_scenarios() if scenario.key == key), None)


def scenario_certify(scenario: Scenario, *, native: bool | None = None) -> Solution:
    """The solver's answer for the scenario's starting position, within the
    re-certification's budget."""
    steps = get_variant("steps")
    return solver_for("steps").solve(
        steps, scenario_state(scenario, steps), budget=Budget(nodes=CERTIFY_NODES), native=native
    )


def scenario_certified(solution: Solution) -> bool:
    return solution.verdict == WON
