"""Re-certify the 20 scenarios of the Citadel Layout Codex: the solver must win each
from its starting position. Fails (exit 1) naming every scenario it no longer wins, so
an engine change that breaks a scenario is caught; `--write` stores the pars and
efforts the solver finds now in the Codex's file."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.codex import CODEX_FILE, codex_read, scenario_certified, scenario_certify


class Command(BaseCommand):
    help = "Re-certify every Codex scenario with the solver; --write updates their pars."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--write", action="store_true", help="store the pars and efforts found now"
        )
        parser.add_argument(
            "--pure-python", action="store_true", help="the pure-Python search, never the core"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        native = False if options["pure_python"] else None
        lost: list[str] = []
        found: dict[str, tuple[int, int]] = {}
        for scenario in codex_read():
            solution = scenario_certify(scenario, native=native)
            if not scenario_certified(solution):
                lost.append(scenario.key)
                self.stdout.write(f"{scenario.number:2} {scenario.key}: {solution.verdict}")
                continue
            par, nodes = len(solution.moves), solution.nodes
            found[scenario.key] = (par, nodes)
            changed = "" if par == scenario.par else f" (the Codex says par {scenario.par})"
            self.stdout.write(
                f"{scenario.number:2} {scenario.key}: won, par {par}{changed}, "
                f"{nodes} positions, {solution.ms} ms"
            )
        if lost:
            raise CommandError(f"The solver no longer wins: {', '.join(lost)}")
        if options["write"]:
            data = json.loads(CODEX_FILE.read_text(encoding="utf-8"))
            for item in data:
                item["par"], item["nodes"] = found[item["key"]]
            CODEX_FILE.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            self.stdout.write(f"{CODEX_FILE.name}: pars and efforts written")
