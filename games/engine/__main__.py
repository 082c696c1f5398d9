"""Command line: ``python -m games.engine replay CASE.json``.

Prints the replay result as one JSON object. Exit status: 0 when every move applied,
1 when a move was illegal (the result says which), 2 on bad input (message on stderr,
nothing on stdout).
"""

import argparse
import json
import sys

from .errors import EngineError
from .replay import replay

EXIT_ILLEGAL_MOVE = 1
EXIT_BAD_INPUT = 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description="Solitaire Arena rules engine"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    replay_command = commands.add_parser("replay", help="replay a game from a case file")
    replay_command.add_argument("case", help="path to a CASE.json file")
    arguments = parser.parse_args(argv)

    path = arguments.case
    try:
        with open(path, encoding="utf-8") as file:
            case = json.load(file)
    except OSError as exc:
        return _bad_input(f"cannot read {path}: {exc.strerror or exc}")
    except ValueError as exc:  # malformed JSON or text that is not UTF-8
        return _bad_input(f"{path} is not valid JSON: {exc}")
    try:
        result = replay(case)
    except EngineError as exc:
        return _bad_input(str(exc))
    print(json.dumps(result))
    return EXIT_ILLEGAL_MOVE if result["error"] is not None else 0


def _bad_input(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
