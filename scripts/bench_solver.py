"""Benchmark the solvers over fixed seeds, on one core per process.

    python scripts/bench_solver.py [--game klondike --game kingsley ...] [--seeds 200]
                                   [--budget-ms 1000] [--path native|python|both]
                                   [--options '{"mode": "relaxed"}'] [--jobs 2]

For each game (every game with a solver by default) and path (the compiled core, the
pure-Python search, or both), solves the deals of seeds ``bench-<game>-0`` ..
``bench-<game>-<N-1>`` each within the budget (by default each game's aim, see
AIMS) and prints one table row: deals, decided % (won or proved lost within the
budget), won %, lost %, and the median, 90th percentile and largest solve time in ms.
``--jobs`` solves that many deals at once in separate processes (each its own core).
Not a test: figures for docs/solvers.md.
"""

import argparse
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.solvers import Budget, solve_case, solvers

AIMS_MS = {
    "klondike": 1_000,
    "kingsley": 5_000,
    "spike": 1_000,
    "steps": 5_000,
    "spiderette": 30_000,
}
"""Issue 14's aims: the time within which each deal should be decided."""


def solve_one(job: tuple[str, str, dict[str, Any], int, bool]) -> tuple[str, int]:
    game, seed, options, budget_ms, native = job
    solution = solve_case(
        {"variant": game, "seed": seed, "options": options},
        budget=Budget(ms=budget_ms),
        native=native,
    )
    return solution.verdict, solution.ms


def percentile(values: list[int], fraction: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bench(
    game: str, seeds: int, budget_ms: int, native: bool, options: dict[str, Any], jobs: int
) -> None:
    work = [(game, f"bench-{game}-{number}", options, budget_ms, native) for number in range(seeds)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(solve_one, work))
    verdicts = [verdict for verdict, _ in results]
    times = [ms for _, ms in results]
    won, lost = verdicts.count("won"), verdicts.count("lost")
    path = "native" if native else "python"
    print(
        f"{game:<11} {path:<7} {seeds:>5} {budget_ms:>8} "
        f"{100 * (won + lost) / seeds:>8.1f} {100 * won / seeds:>6.1f} {100 * lost / seeds:>6.1f} "
        f"{statistics.median(times):>8.0f} {percentile(times, 0.9):>8} {max(times):>8}",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game key (repeatable)")
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--budget-ms", type=int, help="per deal; by default the game's aim")
    parser.add_argument("--path", choices=("native", "python", "both"), default="both")
    parser.add_argument("--options", default="{}", help="the deal options, as JSON")
    parser.add_argument("--jobs", type=int, default=1)
    arguments = parser.parse_args()
    games = arguments.game or sorted(solvers())
    options = json.loads(arguments.options)
    print(
        f"{'game':<11} {'path':<7} {'deals':>5} {'budget':>8} {'decided%':>8} {'won%':>6} "
        f"{'lost%':>6} {'median':>8} {'p90':>8} {'max':>8}"
    )
    for game in games:
        solver = solvers()[game]
        paths = {"native": [True], "python": [False], "both": [True, False]}[arguments.path]
        for native in paths:
            if native and not solver.native_available():
                print(f"{game:<11} native  (not built: python scripts/build_native.py)")
                continue
            budget = arguments.budget_ms or AIMS_MS.get(game, 1_000)
            bench(game, arguments.seeds, budget, native, options, arguments.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
