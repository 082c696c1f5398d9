"""Golden counts of move generation, in the manner of scalachess's perft files.

For every configuration of tests/engine/variants.py and a few fixed starting positions
(a seeded deal, and the same deal after a seeded walk of random moves), the number of
move sequences and of distinct positions reachable in exactly 1, 2, ... N moves. A
change of move generation (a move gained, lost or made differently) changes a number;
tests/engine/test_variant_contract.py compares them with
tests/engine/fixtures/golden_counts.json.

When a change of the rules is meant, regenerate the file deliberately and review its
diff with the change:

    .venv/bin/python -m tests.engine.golden            # compare; exit 1 on a difference
    .venv/bin/python -m tests.engine.golden --write    # rewrite the file
"""

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from games.engine import format_move, get_variant
from tests.engine.variants import config_id, configs

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "golden_counts.json"
SEEDS = ("golden-0", "golden-1")
OPENINGS = {"spiderette": (0, 6, 12), "spike": (0, 12, 20), "steps_duel": (0, 8, 22)}
"""Random moves played from the deal before counting (0: from the deal itself), short
enough that the walk does not end the game; by default 0, 12 and 60."""
DEFAULT_OPENINGS = (0, 12, 60)
DEPTHS = {"kingsley": 10, "klondike": 10, "spiderette": 6, "spike": 6, "steps": 3}
"""How deep each variant is counted: as deep as stays near a second per configuration."""


def start_position(key: str, options: dict[str, object], seed: str, opening: int) -> Any:
    """The deal of ``seed`` after ``opening`` moves chosen by a generator seeded with it
    among the legal moves sorted by their notation (so the order legal_moves gives them
    in does not matter); the walk stops early where the game ends."""
    variant = get_variant(key)
    state = variant.deal(variant.deck_of_seed(seed), options)
    chooser = random.Random(f"{seed}:{opening}")
    for _ in range(opening):
        moves = sorted(variant.legal_moves(state), key=format_move)
        if not moves:
            break
        state = variant.apply(state, chooser.choice(moves)).state
    return state


def counts(key: str, state: Any, depth: int) -> dict[str, list[int]]:
    """Move sequences and distinct positions after exactly 1..depth moves from ``state``.
    Positions are merged level by level, each carrying how many sequences reach it."""
    variant = get_variant(key)
    level: Counter[Any] = Counter({state: 1})
    sequences, positions = [], []
    for _ in range(depth):
        following: Counter[Any] = Counter()
        for position, ways in level.items():
            for move in variant.legal_moves(position):
                following[variant.apply(position, move).state] += ways
        sequences.append(sum(following.values()))
        positions.append(len(following))
        level = following
    return {"sequences": sequences, "positions": positions}


def compute(key: str, options: dict[str, object]) -> dict[str, Any]:
    depth = DEPTHS.get(key, 3)
    starts = {
        f"{seed}+{opening}": counts(key, start_position(key, options, seed, opening), depth)
        for seed in SEEDS
        for opening in OPENINGS.get(key, DEFAULT_OPENINGS)
    }
    return {"variant": key, "options": options, "depth": depth, "starts": starts}


def compute_all() -> dict[str, Any]:
    return {config_id(key, options): compute(key, options) for key, options in configs()}


def stored() -> dict[str, Any]:
    result: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return result


def _formatted(data: dict[str, Any]) -> str:
    """Indented JSON with each list of counts on one line, so that a diff shows which."""
    text = json.dumps(data, indent=2)
    return (
        re.sub(
            r"\[\s*([0-9,\s]*?)\s*\]",
            lambda match: "[" + ", ".join(match.group(1).replace(",", " ").split()) + "]",
            text,
        )
        + "\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Golden counts of the engine's move generation")
    parser.add_argument("--write", action="store_true", help=f"rewrite {GOLDEN.name}")
    arguments = parser.parse_args(argv)
    fresh = compute_all()
    if arguments.write:
        GOLDEN.write_text(_formatted(fresh), encoding="utf-8")
        print(f"wrote {GOLDEN} ({len(fresh)} configurations)")
        return 0
    old = stored() if GOLDEN.exists() else {}
    differing = sorted(
        name for name in fresh.keys() | old.keys() if fresh.get(name) != old.get(name)
    )
    for name in differing:
        print(f"{name}: stored {old.get(name)}\n{' ' * len(name)}  now    {fresh.get(name)}")
    print("golden counts match" if not differing else f"{len(differing)} configuration(s) differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
