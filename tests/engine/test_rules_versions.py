"""Versioned rules: a variant's versions live side by side in the registry, the newest by
default, so that a change of a scoring figure does not break the games dealt before it.

Klondike version 2 here is a fake, registered only inside the test (``registered``),
with another recycle charge: 50 points instead of 20.
"""

import json
from pathlib import Path
from typing import ClassVar

import pytest

from games.engine import EngineError, get_variant, replay, shuffled_deck, variant_keys
from games.engine.klondike import Klondike
from games.engine.registry import register, registered, rules_versions

FIXTURES = Path(__file__).parent / "fixtures"


class KlondikeVersion2(Klondike):
    rules_version = 2
    recycle_charge: ClassVar[int] = 50


def v1_game():
    """The in-progress fixture (5 recycles, 2 of them paid) as the platform stores it
    under version 1: its deal and move log, its snapshot, and its figures."""
    case = json.loads((FIXTURES / "klondike_in_progress.json").read_text(encoding="utf-8"))
    v1 = get_variant("klondike")
    state = v1.deal(shuffled_deck(case["seed"]))
    for move in case["moves"]:
        state = v1.play(state, move).state
    return case, v1.dump(state), (v1.status(state), v1.score(state), v1.public_view(state))


def test_every_variant_is_at_version_1_today():
    for key in variant_keys():
        assert rules_versions(key) == [1]
        assert get_variant(key).rules_version == 1
        assert get_variant(key, rules_version=1) is get_variant(key)


def test_old_games_load_and_replay_under_their_version_after_a_new_one():
    case, snapshot, figures = v1_game()
    assert figures[:2] == ("in_progress", -40)
    with registered(KlondikeVersion2):
        newest, v1 = get_variant("klondike"), get_variant("klondike", rules_version=1)
        assert isinstance(newest, KlondikeVersion2)
        assert type(v1) is Klondike
        assert rules_versions("klondike") == [1, 2]
        assert variant_keys() == [
            "kingsley",
            "klondike",
            "spiderette",
            "spike",
            "steps",
            "steps_duel",
        ]

        # The stored game, loaded and replayed under its own version: the same figures.
        loaded = v1.load(snapshot)
        assert (v1.status(loaded), v1.score(loaded), v1.public_view(loaded)) == figures
        old = replay({**case, "rules_version": 1})
        assert (old["rules_version"], old["status"], old["score"]) == (1, "in_progress", -40)
        assert old["public"] == figures[2]

        # The same log under version 2 scores by version 2: 2 paid recycles at 50.
        new = replay(case)
        assert (new["rules_version"], new["score"]) == (2, -100)
        assert replay({**case, "rules_version": 2}) == new
        # Version 2 still loads the old snapshot: the score is derived, not checked.
        assert newest.score(newest.load(snapshot)) == -100
    assert type(get_variant("klondike")) is Klondike
    assert rules_versions("klondike") == [1]


def test_registered_restores_the_registry_even_when_the_block_fails():
    with pytest.raises(RuntimeError), registered(KlondikeVersion2):
        raise RuntimeError
    assert rules_versions("klondike") == [1]


@pytest.mark.parametrize("version", [0, 2, True, "1", 1.0])
def test_an_unknown_rules_version_is_refused(version):
    with pytest.raises(
        EngineError, match=r"^Klondike has no rules version .*; its versions are: 1$"
    ):
        get_variant("klondike", rules_version=version)


def test_a_version_is_registered_once_and_is_a_whole_number_from_1():
    with pytest.raises(EngineError, match="'klondike' version 1 is registered twice"):
        register(Klondike)

    class Version0(Klondike):
        rules_version = 0

    with pytest.raises(EngineError, match="whole number from 1 up"):
        register(Version0)
    assert rules_versions("klondike") == [1]


@pytest.mark.parametrize(
    ("version", "message"),
    [(3, "Klondike has no rules version 3"), (None, "rules_version must be a whole number")],
)
def test_replay_refuses_an_unknown_rules_version(version, message):
    with pytest.raises(EngineError, match=message):
        replay({"variant": "klondike", "rules_version": version, "seed": "s", "moves": []})
