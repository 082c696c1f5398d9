"""Certify daily deals in this process, as the evening task does with a worker: the
embedded default's way to certified deals (no worker runs there, and a request never
runs a solver), and the measure of how long each game's certification takes."""

from datetime import date, timedelta
from time import perf_counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leaderboards import certification
from leaderboards.periods import today_utc
from leaderboards.services import daily_deal_games


class Command(BaseCommand):
    help = (
        "Certify the daily deals of a day (default: tomorrow, and today's missing or "
        "never tried), one game after the other, and print each one's certificate."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", help="YYYY-MM-DD (default: tomorrow)")
        parser.add_argument("--game", action="append", help="only this game (repeatable)")
        parser.add_argument(
            "--pure-python", action="store_true", help="the pure-Python search, never the core"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        today = today_utc()
        try:
            day = date.fromisoformat(options["day"]) if options["day"] else None
        except ValueError as error:
            raise CommandError(f"--day: {error}") from error
        games = options["game"] or daily_deal_games()
        unknown = set(games) - set(daily_deal_games())
        if unknown:
            raise CommandError(f"No daily deal for {', '.join(sorted(unknown))}")
        pairs = certification.daily_deals_to_certify(
            day=day or today + timedelta(days=1), today=today
        )
        native = False if options["pure_python"] else None
        for deal_day, variant in pairs:
            if variant not in games:
                continue
            started = perf_counter()
            deal = certification.daily_deal_prepare(day=deal_day, variant=variant, native=native)
            seconds = perf_counter() - started
            verdict = deal.get_verdict_display()
            self.stdout.write(
                f"{deal_day} {variant}: {verdict}, par {deal.par}, difficulty {deal.difficulty}, "
                f"{deal.seeds_tried} seed(s), last solve {deal.solve_ms} ms, "
                f"{deal.solver_nodes} nodes; {seconds:.1f} s in all"
            )
