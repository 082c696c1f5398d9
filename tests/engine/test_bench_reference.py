"""The benchmark's naive reference implementations (scripts/bench_engine_reference.py)
give the engine's legal moves at every step of random games of every variant, so that
the ratio scripts/bench_engine.py prints compares the same work and the reference cannot
silently drift from the rules."""

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from games.engine import Move, get_variant, variant_keys

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_engine_reference.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_engine_reference", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


reference = _load()


def _random_line(key: str, seed: str, options: dict[str, Any], moves: int) -> list[Move]:
    variant = get_variant(key)
    chooser = random.Random(seed)
    state = variant.deal(variant.deck_of_seed(seed), options)
    line: list[Move] = []
    for _ in range(moves):
        legal = variant.legal_moves(state)
        if not legal:
            break
        line.append(chooser.choice(legal))
        state = variant.apply(state, line[-1]).state
    return line


def test_every_single_player_variant_has_a_reference() -> None:
    assert set(reference.REFERENCES) == set(variant_keys()) - {"steps_duel"}


CASES = [
    ("klondike", {}),
    ("klondike", {"points": {"flip": 5, "waste_to_tableau": 5}}),
    ("kingsley", {}),
    ("spiderette", {}),
    ("spike", {}),
    ("spike", {"mode": "relaxed"}),
    ("steps", {}),
    ("steps", {"draw": 3, "buffers": 1, "recycles": 0}),
    ("steps", {"buffers": 2, "retrieval": True}),
]


@pytest.mark.parametrize(("key", "options"), CASES)
def test_the_reference_gives_the_engines_legal_moves_at_every_step(
    key: str, options: dict[str, Any]
) -> None:
    variant = get_variant(key)
    for number in range(8):
        seed = f"reference-{key}-{number}"
        line = _random_line(key, seed, options, 120)
        problem = reference.disagreement(
            variant, reference.REFERENCES[key], variant.deck_of_seed(seed), line, options
        )
        assert problem is None, f"{seed}: {problem}"


@pytest.mark.parametrize("key", ["kingsley", "spiderette", "spike"])
def test_the_reference_ends_a_lost_game_as_the_engine_does(key: str) -> None:
    """The random games above end lost often; this pins one that does, so the lost-game
    search of the reference is exercised whatever the seeds."""
    variant = get_variant(key)
    for number in range(40):
        seed = f"reference-lost-{key}-{number}"
        line = _random_line(key, seed, {}, 400)
        state = variant.deal(variant.deck_of_seed(seed))
        for move in line:
            state = variant.apply(state, move).state
        if variant.is_lost(state):
            break
    else:
        pytest.fail(f"no lost {key} game among 40 random ones")
    assert (
        reference.disagreement(
            variant, reference.REFERENCES[key], variant.deck_of_seed(seed), line, {}
        )
        is None
    )
