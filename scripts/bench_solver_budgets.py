"""Time the solve command in fresh processes at several budgets: a search's time should
be what it needs, the same at every budget it fits in, and never much past the budget.

    python scripts/bench_solver_budgets.py [--case CASE.json ...] [--budget-ms 100 ...]
                                           [--runs 3] [--pure-python]

Each run is ``python -m games.engine solve CASE.json --budget-ms N`` in a new process
(every first solve of a process is measured, as the daily tasks and the command make
them), printing one row per case and budget: the verdicts, the positions and the solve
times (the command's ``ms``) of the runs, and the largest peak memory of the processes
(Linux's VmHWM; empty elsewhere). By default the case of issue 30 (a 56-position
Klondike win) and two Kingsley deals that 1 s proves lost, at 100, 1000 and 3000 ms.
Not a test: figures for docs/solvers.md ("Budgets").
"""

import argparse
import json
import subprocess  # nosec B404: runs this project's own solve command
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CASES: list[dict[str, Any]] = [
    {"variant": "klondike", "seed": "c0689ae6b65e31870e8cb1355104707b"},
    {"variant": "kingsley", "seed": "bench-kingsley-5"},
    {"variant": "kingsley", "seed": "bench-kingsley-30"},
]
DEFAULT_BUDGETS_MS = [100, 1000, 3000]

# The command's solve, then the process's own peak memory: run as `python -c`, so that
# the figure is of the solving process (a parent's /usr/bin/time would add its own).
SOLVE_AND_PEAK = """
import sys
from pathlib import Path
from games.engine.__main__ import main
code = main(sys.argv[1:])
status = Path("/proc/self/status")
if status.exists():
    peak = status.read_text().split("VmHWM:")[1].split()[0]
    print(peak, file=sys.stderr)
sys.exit(code)
"""


def solve_fresh(case_path: Path, budget_ms: int, pure_python: bool) -> tuple[dict[str, Any], str]:
    arguments = ["solve", str(case_path), "--budget-ms", str(budget_ms)]
    if pure_python:
        arguments.append("--pure-python")
    result = subprocess.run(  # nosec B603
        [sys.executable, "-c", SOLVE_AND_PEAK, *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    answer: dict[str, Any] = json.loads(result.stdout)
    peak_kb = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
    return answer, peak_kb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", action="append", type=Path, help="a CASE.json file")
    parser.add_argument("--budget-ms", action="append", type=int, help="a budget to try")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per budget")
    parser.add_argument("--pure-python", action="store_true", help="the Python search")
    arguments = parser.parse_args()
    budgets = arguments.budget_ms or DEFAULT_BUDGETS_MS
    with tempfile.TemporaryDirectory() as folder:
        paths = arguments.case or []
        for number, case in enumerate([] if paths else DEFAULT_CASES):
            path = Path(folder) / f"case-{number}.json"
            path.write_text(json.dumps(case), "utf-8")
            paths.append(path)
        print("| case | budget | verdicts | positions | ms | peak memory |")
        print("| --- | ---: | --- | ---: | --- | ---: |")
        for path in paths:
            case = json.loads(path.read_text("utf-8"))
            for budget in budgets:
                runs = [
                    solve_fresh(path, budget, arguments.pure_python) for _ in range(arguments.runs)
                ]
                verdicts = ", ".join(sorted({answer["verdict"] for answer, _ in runs}))
                nodes = "/".join(sorted({str(answer["nodes"]) for answer, _ in runs}))
                times = ", ".join(str(answer["ms"]) for answer, _ in runs)
                peaks = [int(peak) for _, peak in runs if peak]
                peak = f"{max(peaks) // 1024} MB" if peaks else ""
                name = f"{case['variant']} {case.get('seed', '(deck)')}"
                print(f"| {name} | {budget} | {verdicts} | {nodes} | {times} | {peak} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
