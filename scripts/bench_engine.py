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

Then, for every game with a naive reference implementation (bench_engine_reference.py:
all but the Steps Duel), the engine against the reference over the same games: the
engine's chosen moves are played again by both, first checking at every step that the
two give the same legal moves (the benchmark stops if they differ), then timing
legal moves + apply for each on its own (CPU time of this process, so that other load
on the machine weighs on neither; the engine's caches emptied and the heap frozen
first). The aim is the engine at 2 times the reference or better for every game
(issue 17).
Not a test.
"""

import argparse
import functools
import gc
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine_reference import REFERENCES, disagreement

from games.engine import format_move, get_variant, variant_keys


def bench(
    key: str, games: int, max_moves: int, seed: str, options: dict[str, object]
) -> list[list[Any]]:
    """Print the engine's figures; each game's chosen moves."""
    variant = get_variant(key)
    chooser = random.Random(seed)

    # Play the games once, timing legal_moves + apply together, and keep every
    # (state, move) pair so that apply can then be timed alone on the same positions.
    positions = []
    lines: list[list[object]] = []  # each game's chosen moves, for the reference
    slowest = 0.0
    outcomes: dict[str, int] = {}
    started = time.perf_counter()
    for number in range(games):
        state = variant.deal(variant.deck_of_seed(f"{seed}-{number}"), options)
        line: list[object] = []
        lines.append(line)
        for _ in range(max_moves):
            move_started = time.perf_counter()
            moves = variant.legal_moves(state)
            if not moves:
                break
            move = chooser.choice(moves)
            line.append(move)
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
    return lines


def compare(key: str, lines: list[list[Any]], seed: str, options: dict[str, object]) -> None:
    """The engine against the naive reference on the same games and moves: legal moves
    checked equal at every step, then legal moves + apply timed for each."""
    variant = get_variant(key)
    reference = REFERENCES[key]
    decks = [variant.deck_of_seed(f"{seed}-{number}") for number in range(len(lines))]
    texts = [[format_move(move) for move in line] for line in lines]
    normalized = variant.normalize_options(options)
    for number, (deck, line) in enumerate(zip(decks, lines, strict=True)):
        problem = disagreement(variant, reference, deck, line, options)
        if problem is not None:
            raise SystemExit(f"{key} game {seed}-{number}: {problem}")

    clear_engine_caches()
    gc.collect()
    gc.freeze()
    legal_moves, apply = variant.legal_moves, variant.apply
    started = time.process_time()
    for deck, line in zip(decks, lines, strict=True):
        state = variant.deal(deck, options)
        for move in line:
            legal_moves(state)
            state = apply(state, move).state
        legal_moves(state)
    engine = time.process_time() - started
    gc.unfreeze()

    gc.collect()
    gc.freeze()
    naive_legal_moves, naive_apply = reference.legal_moves, reference.apply
    started = time.process_time()
    for deck, line in zip(decks, texts, strict=True):
        mirror = reference.deal(deck, normalized)
        for text in line:
            naive_legal_moves(mirror)
            naive_apply(mirror, text)
        naive_legal_moves(mirror)
    naive = time.process_time() - started
    gc.unfreeze()

    played = sum(len(line) for line in lines)
    print(f"  against the naive reference, legal moves + apply (CPU, same {played} moves):")
    print(f"    engine:             {played / engine:>10,.0f} moves/s")
    print(f"    reference:          {played / naive:>10,.0f} moves/s")
    print(f"    ratio:              {naive / engine:>10,.2f} (aim: 2 or more)")


def clear_engine_caches() -> None:
    """Empty every cache of the engine's modules (functools caches, and the memos they
    name in ``clear_caches``), so the timed pass does not start from the positions the
    check pass left in them."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("games.engine"):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()
        clear = getattr(module, "clear_caches", None)
        if callable(clear):
            clear()


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
        # Called once bench() has let go of its positions, which the garbage collector
        # would otherwise walk through while the engine, which allocates as it goes
        # where the reference changes lists in place, is timed.
        lines = bench(key, arguments.games, arguments.max_moves, arguments.seed, arguments.options)
        if key in REFERENCES:
            compare(key, lines, arguments.seed, arguments.options)
    print(f"python {sys.version.split()[0]} on {sys.platform}")


if __name__ == "__main__":
    main()
