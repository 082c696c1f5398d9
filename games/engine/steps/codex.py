"""The Citadel Layout Codex: Steps scenarios as data, checked here.

A scenario is a fixed deal (a seed), Steps' options (draw, reserve slots, recycles,
retrieval, and a starting layout: cards on the foundations, cards in the slots) and the
handicaps the platform keeps (a time limit, an undo allowance), with a name, a line of
lore, its tier and its certificate (the solver's par and effort). The engine deals a
scenario exactly as it deals a seed with those options (``scenario_state``), so the
replay and solve commands take a scenario's game as a case like any other. Reading the
Codex's file is the platform's (games/codex.py): this module only checks what it is
given, and says what is wrong, naming the scenario.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import EngineError
from ..variant import Json, Variant
from .options import options_of, whole
from .state import StepsState

TIERS = 4
SCENARIOS_PER_TIER = 5
FIELDS = frozenset({"key", "tier", "name", "lore", "seed", "options", "handicaps", "par", "nodes"})
HANDICAPS = frozenset({"time_limit_seconds", "undo_allowance"})
_KEY_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


@dataclass(frozen=True, kw_only=True)
class Scenario:
    key: str
    """Stable (stored with every game of the scenario): lowercase words and dashes."""
    tier: int
    """1 (gentle) to 4 (hard)."""
    number: int
    """Its place in the Codex, 1 to 20."""
    name: str
    lore: str
    seed: str
    options: Json
    """Steps' options, normalized (the layout included)."""
    time_limit_seconds: int | None
    undo_allowance: int | None
    """Moves that may be taken back in a game of it; None for no limit."""
    par: int
    """The length of the solver's winning line: its certificate."""
    nodes: int
    """Positions the solver expanded to win it: its effort."""

    def as_case(self) -> Json:
        """The scenario as a case of the replay and solve commands (without moves)."""
        return {"variant": "steps", "options": self.options, "seed": self.seed}


def _text(data: Mapping[str, Any], field: str, where: str) -> str:
    value = data.get(field)
    if not isinstance(value, str) or not value.strip():
        raise EngineError(f"{where}: {field} is a text, not {value!r}")
    return value.strip()


def _count(data: Mapping[str, Any], field: str, where: str, *, least: int) -> int:
    value = data.get(field)
    if not whole(value) or value < least:
        raise EngineError(f"{where}: {field} is a whole number from {least} up, not {value!r}")
    return value


def scenario_of(data: object, *, number: int, variant: Variant[Any]) -> Scenario:
    """The scenario a JSON object holds, the `number`-th of the Codex; EngineError naming
    the scenario and the problem otherwise."""
    where = f"Scenario {number}"
    if not isinstance(data, Mapping):
        raise EngineError(f"{where} is an object, not {type(data).__name__}")
    unknown = set(data) - FIELDS
    missing = FIELDS - {"handicaps"} - set(data)
    if unknown or missing:
        wrong = ", ".join(sorted(unknown)) or "none"
        absent = ", ".join(sorted(missing)) or "none"
        raise EngineError(f"{where}: unknown fields {wrong}; missing fields {absent}")
    key = _text(data, "key", where)
    if not all(part and set(part) <= _KEY_LETTERS for part in key.split("-")):
        raise EngineError(f"{where}: its key is lowercase words and dashes, not {key!r}")
    where = f"Scenario {number} ({key})"
    tier = _count(data, "tier", where, least=1)
    if tier > TIERS:
        raise EngineError(f"{where}: tier is 1 to {TIERS}, not {tier}")
    try:
        options = options_of(data.get("options")).as_json()
    except EngineError as error:
        raise EngineError(f"{where}: {error}") from error
    handicaps = data.get("handicaps", {})
    if not isinstance(handicaps, Mapping) or set(handicaps) - HANDICAPS:
        raise EngineError(
            f"{where}: handicaps holds {', '.join(sorted(HANDICAPS))} only, not {handicaps!r}"
        )
    time_limit = handicaps.get("time_limit_seconds")
    undo_allowance = handicaps.get("undo_allowance")
    if time_limit is not None and (not whole(time_limit) or time_limit < 60):
        raise EngineError(f"{where}: a time limit is whole seconds from 60 up, not {time_limit!r}")
    if undo_allowance is not None and (not whole(undo_allowance) or undo_allowance < 0):
        raise EngineError(
            f"{where}: an undo allowance is a whole number from 0 up, not {undo_allowance!r}"
        )
    scenario = Scenario(
        key=key,
        tier=tier,
        number=number,
        name=_text(data, "name", where),
        lore=_text(data, "lore", where),
        seed=_text(data, "seed", where),
        options=options,
        time_limit_seconds=time_limit,
        undo_allowance=undo_allowance,
        par=_count(data, "par", where, least=1),
        nodes=_count(data, "nodes", where, least=1),
    )
    scenario_state(scenario, variant)
    return scenario


def codex_of(data: object, variant: Variant[Any]) -> tuple[Scenario, ...]:
    """The Codex a JSON list holds: 20 scenarios, five per tier in tier order, each key
    once; EngineError naming the first problem."""
    if not isinstance(data, Sequence) or isinstance(data, str):
        raise EngineError("The Codex is a list of scenarios")
    scenarios = tuple(
        scenario_of(item, number=number, variant=variant)
        for number, item in enumerate(data, start=1)
    )
    if len(scenarios) != TIERS * SCENARIOS_PER_TIER:
        raise EngineError(
            f"The Codex holds {TIERS * SCENARIOS_PER_TIER} scenarios, not {len(scenarios)}"
        )
    keys = [scenario.key for scenario in scenarios]
    doubled = sorted({key for key in keys if keys.count(key) > 1})
    if doubled:
        raise EngineError(f"The Codex names a scenario twice: {', '.join(doubled)}")
    tiers = [scenario.tier for scenario in scenarios]
    expected = [tier for tier in range(1, TIERS + 1) for _ in range(SCENARIOS_PER_TIER)]
    if tiers != expected:
        raise EngineError(
            f"The Codex's tiers run 1 to {TIERS}, {SCENARIOS_PER_TIER} scenarios each, in order"
        )
    return scenarios


def scenario_state(scenario: Scenario, variant: Variant[Any]) -> StepsState:
    """The scenario's starting position: its seed dealt with its options."""
    state: StepsState = variant.deal(variant.deck_of_seed(scenario.seed), scenario.options)
    return state
