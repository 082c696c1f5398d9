"""Benchmark the rules engine: random Klondike games on one core.

    python scripts/bench_engine.py [--games 300] [--max-moves 200] [--seed bench]

Prints how many moves per second apply() manages alone, and legal_moves() + apply()
together (what a random player or a solver pays per move). Not a test.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import get_variant, shuffled_deck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--seed", default="bench")
    arguments = parser.parse_args()
    klondike = get_variant("klondike")
    chooser = random.Random(arguments.seed)

    # Play the games once, timing legal_moves + apply together, and keep every
    # (state, move) pair so that apply can then be timed alone on the same positions.
    positions = []
    started = time.perf_counter()
    for number in range(arguments.games):
        state = klondike.deal(shuffled_deck(f"{arguments.seed}-{number}"))
        for _ in range(arguments.max_moves):
            moves = klondike.legal_moves(state)
            if not moves:
                break
            move = chooser.choice(moves)
            positions.append((state, move))
            state = klondike.apply(state, move).state
    together = time.perf_counter() - started

    apply = klondike.apply
    started = time.perf_counter()
    for state, move in positions:
        apply(state, move)
    alone = time.perf_counter() - started

    moves = len(positions)
    print(f"games: {arguments.games}, moves: {moves}, max moves per game: {arguments.max_moves}")
    print(f"apply alone:          {moves / alone:>10,.0f} moves/s")
    print(f"legal_moves + apply:  {moves / together:>10,.0f} moves/s (deal and choice included)")
    print(f"python {sys.version.split()[0]} on {sys.platform}")


if __name__ == "__main__":
    main()
