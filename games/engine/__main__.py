"""Command line: ``python -m games.engine replay CASE.json`` and
``python -m games.engine solve CASE.json [--budget-ms N] [--pure-python]``.

Each prints one JSON object. Replay's exit status: 0 when every move applied, 1 when a
move was illegal (the result says which). Solve's: 0 for any verdict. Both exit 2 on bad
input (message on stderr, nothing on stdout).
"""

import argparse
import json
import sys
from typing import Any

from .errors import EngineError
from .replay import replay
from .solvers import Budget, solve_case

EXIT_ILLEGAL_MOVE = 1
EXIT_BAD_INPUT = 2
MAX_BUDGET_MS = 86_400_000
"""The longest --budget-ms the command takes: a day (a longer one is a typing error)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's own bad input exits 2 as well
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m games.engine", description="Solitaire Arena rules engine")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    replay_command = commands.add_parser("replay", help="replay a game from a case file")
    replay_command.add_argument("case", help="path to a CASE.json file")
    solve_command = commands.add_parser("solve", help="solve the deal of a case file")
    solve_command.add_argument("case", help="path to a CASE.json file without moves")
    solve_command.add_argument(
        "--budget-ms",
        type=int,
        default=None,
        help=f"give up (unknown) after N milliseconds, 1 to {MAX_BUDGET_MS:,}",
    )
    solve_command.add_argument(
        "--pure-python", action="store_true", help="do not use the compiled search core"
    )
    arguments = parser.parse_args(argv)

    try:
        case = _read_case(arguments.case)
        if arguments.command == "solve":
            if arguments.budget_ms is not None and arguments.budget_ms > MAX_BUDGET_MS:
                raise EngineError(f"--budget-ms is at most {MAX_BUDGET_MS:,} (a day)")
            budget = Budget(ms=arguments.budget_ms)
            solution = solve_case(
                case, budget=budget, native=False if arguments.pure_python else None
            )
            print(json.dumps(solution.as_json()))
            return 0
        result = replay(case)
    except EngineError as exc:
        return _bad_input(str(exc))
    print(json.dumps(result))
    return EXIT_ILLEGAL_MOVE if result["error"] is not None else 0


def _read_case(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except OSError as exc:
        raise EngineError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # malformed JSON or text that is not UTF-8
        raise EngineError(f"{path} is not valid JSON: {exc}") from None


def _bad_input(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
