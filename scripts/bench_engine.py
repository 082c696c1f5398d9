"""Benchmark the rules engine: random games of every variant on one core.

    python scripts/bench_engine.py [--games 300] [--max-moves 200] [--seed bench]
                                   [--variant klondike --variant steps ...]
                                   [--options '{"draw": 3, "buffers": 2}']

For each variant (every registered one by default: Klondike, Kingsley, Spiderette, Spike,
Steps), prints how many moves per second apply() manages alone, and legal_moves() +
apply() together (what a random player or a solver pays per move), and the slowest single
move (legal_moves() + apply(), which for Kingsley, Spiderette and Steps includes deciding
whether the game is lost). ``--options`` deals every game with those options (give it
with ``--variant``: each variant checks its own); by default each variant's defaults.
Not a test.
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import get_variant, variant_keys


def bench(key: str, games: int, max_moves: int, seed: str, options: dict[str, object]) -> None:
    variant = get_variant(key)
    chooser = random.Random(seed)

    # Play the games once, timing legal_moves + apply together, and keep every
    # (state, move) pair so that apply can then be timed alone on the same positions.
    positions = []
    slowest = 0.0
    outcomes: dict[str, int] = {}
    started = time.perf_counter()
    for number in range(games):
        state = variant.deal(variant.deck_of_seed(f"{seed}-{number}"), options)
        for _ in range(max_moves):
            move_started = time.perf_counter()
            moves = variant.legal_moves(state)
            if not moves:
                break
            move = chooser.choice(moves)
            positions.append((state, move))
            state = variant.apply(state, move).state
            slowest = max(slowest, time.perf_counter() - move_started)
        status = variant.status(state)
        outcomes[status] = outcomes.get(status, 0) + 1
    together = time.perf_counter() - started

    apply = variant.apply
    started = time.perf_counter()
    for state, move in positions:
        apply(state, move)
    alone = time.perf_counter() - started

    moves_played = len(positions)
    endings = ", ".join(f"{count} {status}" for status, count in sorted(outcomes.items()))
    shown = f" with {json.dumps(variant.normalize_options(options))}" if options else ""
    print(f"{key}{shown}: {games} games ({endings}), {moves_played} moves")
    print(f"  apply alone:          {moves_played / alone:>10,.0f} moves/s")
    print(
        f"  legal_moves + apply:  {moves_played / together:>10,.0f} moves/s "
        "(deal and choice included)"
    )
    print(f"  slowest move:         {slowest * 1000:>10,.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--seed", default="bench")
    parser.add_argument(
        "--variant", action="append", choices=variant_keys(), help="default: every variant"
    )
    parser.add_argument(
        "--options", type=json.loads, default={}, help="deal options, a JSON object"
    )
    arguments = parser.parse_args()
    print(f"max moves per game: {arguments.max_moves}, random legal moves, one core")
    for key in arguments.variant or variant_keys():
        bench(key, arguments.games, arguments.max_moves, arguments.seed, arguments.options)
    print(f"python {sys.version.split()[0]} on {sys.platform}")


if __name__ == "__main__":
    main()
