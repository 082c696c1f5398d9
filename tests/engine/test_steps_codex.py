"""The Codex's scenarios as data: each checked, with the reason when it is wrong."""

import copy

import pytest

from games.engine import EngineError, get_variant
from games.engine.steps.codex import codex_of, scenario_of, scenario_state

STEPS = get_variant("steps")
GOOD = {
    "key": "test-stair",
    "tier": 2,
    "name": "Test Stair",
    "lore": "A stair for the tests.",
    "seed": "test-seed",
    "options": {"buffers": 3, "foundations": {"S": 2}},
    "handicaps": {"time_limit_seconds": 600, "undo_allowance": 3},
    "par": 120,
    "nodes": 50,
}


def with_(**changes):
    data = copy.deepcopy(GOOD)
    for field, value in changes.items():
        if value is None:
            data.pop(field)
        else:
            data[field] = value
    return data


def test_a_scenario_is_read_with_its_options_and_handicaps() -> None:
    scenario = scenario_of(GOOD, number=7, variant=STEPS)
    assert (scenario.key, scenario.tier, scenario.number) == ("test-stair", 2, 7)
    assert scenario.options == STEPS.normalize_options(GOOD["options"])
    assert (scenario.time_limit_seconds, scenario.undo_allowance) == (600, 3)
    assert scenario.as_case() == {
        "variant": "steps",
        "options": scenario.options,
        "seed": "test-seed",
    }
    state = scenario_state(scenario, STEPS)
    assert state.foundations == (2, 0, 0, 0)
    assert STEPS.public_view(state)["options"]["buffers"] == 3


def test_handicaps_are_optional() -> None:
    scenario = scenario_of(with_(handicaps=None), number=1, variant=STEPS)
    assert scenario.time_limit_seconds is None
    assert scenario.undo_allowance is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("stair", "Scenario 3 is an object"),
        (with_(colour="red"), "unknown fields colour"),
        (with_(lore=None), "missing fields lore"),
        (with_(key="Test Stair"), "lowercase words and dashes"),
        (with_(tier=5), r"Scenario 3 \(test-stair\): tier is 1 to 4, not 5"),
        (with_(name=""), "name is a text"),
        (with_(options={"buffers": 9}), r"Scenario 3 \(test-stair\): The buffers option"),
        (with_(handicaps={"lives": 3}), "handicaps holds"),
        (with_(handicaps={"time_limit_seconds": 10}), "from 60 up"),
        (with_(handicaps={"undo_allowance": -1}), "from 0 up"),
        (with_(par=0), "par is a whole number from 1 up"),
    ],
)
def test_a_bad_scenario_is_refused_naming_it(data, message) -> None:
    with pytest.raises(EngineError, match=message):
        scenario_of(data, number=3, variant=STEPS)


def _codex():
    return [with_(key=f"stair-{number}", tier=1 + (number - 1) // 5) for number in range(1, 21)]


def test_a_codex_is_twenty_scenarios_five_a_tier() -> None:
    assert [scenario.number for scenario in codex_of(_codex(), STEPS)] == list(range(1, 21))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda items: items[:19], "holds 20 scenarios, not 19"),
        (lambda items: [*items[:19], with_(key="stair-1", tier=4)], "names a scenario twice"),
        (lambda items: [items[5], *items[1:5], items[0], *items[6:]], "tiers run 1 to 4"),
        (lambda items: {"scenarios": items}, "a list of scenarios"),
    ],
)
def test_a_bad_codex_is_refused(change, message) -> None:
    with pytest.raises(EngineError, match=message):
        codex_of(change(_codex()), STEPS)
