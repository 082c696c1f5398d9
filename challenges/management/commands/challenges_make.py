"""Make a day's daily challenges in this process, as the evening task does with a
worker: the embedded default's way to have today's before the first visitor (`make
run`), and the measure of how long each game's take."""

from datetime import date
from time import perf_counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from challenges import services
from challenges.errors import ChallengeRefused
from games.engine import get_variant
from games.engine.goals import goal_description, goal_of
from leaderboards.periods import today_utc


class Command(BaseCommand):
    help = (
        "Make the daily challenges of a day (default: today) where missing, game after "
        "game, and print each one's goal and proof."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", help="YYYY-MM-DD (default: today, UTC)")
        parser.add_argument("--game", action="append", help="only this game (repeatable)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = date.fromisoformat(options["day"]) if options["day"] else today_utc()
        except ValueError as error:
            raise CommandError(f"--day: {error}") from error
        games = options["game"] or services.challenge_games()
        unknown = set(games) - set(services.challenge_games())
        if unknown:
            raise CommandError(f"No daily challenges for {', '.join(sorted(unknown))}")
        for variant in games:
            started = perf_counter()
            try:
                made = services.challenges_day_make(day=day, variant=variant)
            except ChallengeRefused as refused:
                raise CommandError(f"{variant}: {refused}") from refused
            engine = get_variant(variant)
            for challenge in made:
                words = goal_description(goal_of(challenge.goal, engine), engine)
                self.stdout.write(
                    f"{day} {variant} {challenge.get_difficulty_display().lower()}: {words} "
                    f"(proved in {len(challenge.proof_line)} of {challenge.line_length} moves, "
                    f"{challenge.solver_nodes} nodes)"
                )
            self.stdout.write(f"{day} {variant}: {perf_counter() - started:.1f} s")
