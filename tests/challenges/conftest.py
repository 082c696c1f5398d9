"""Challenges the challenges' tests play: made on fixed seeds whose solver lines are
found in milliseconds (Steps and Spike), so that no test waits for the solver."""

from datetime import date

import pytest

from challenges import services
from challenges.models import Challenge

DAY = date(2026, 12, 2)
STEPS_SEED = "challenge-steps-1"
SPIKE_SEED = "challenge-spike-1"


@pytest.fixture
def today() -> date:
    return DAY


@pytest.fixture
def make_challenge():
    def make(
        *,
        variant: str = "steps",
        difficulty: int = Challenge.Difficulty.EASY,
        day: date = DAY,
        seed: str | None = None,
        goal: dict | None = None,
    ) -> Challenge:
        return services.challenge_build(
            day=day,
            variant=variant,
            difficulty=difficulty,
            seed=seed or (STEPS_SEED if variant == "steps" else SPIKE_SEED),
            goal=goal,
        )

    return make


class Clock:
    """The server's clock in a test: `now`, moved by the test."""

    def __init__(self, now):
        self.now = now


@pytest.fixture
def clock(monkeypatch):
    from datetime import UTC, datetime

    from django.utils import timezone

    fake = Clock(datetime(2026, 12, 2, 12, 0, tzinfo=UTC))
    monkeypatch.setattr(timezone, "now", lambda: fake.now)
    return fake


def play_line(*, game, player, line):
    """Play the moves of a line on the player's game through the move service."""
    from games.services import game_move_play

    for move in line:
        game.refresh_from_db()
        outcome = game_move_play(game_id=game.id, player=player, move=move, revision=game.revision)
    game.refresh_from_db()
    return outcome


@pytest.fixture
def full_day(make_challenge):
    """A day's fifteen challenges: Steps and Spike made by the solver on their fixed
    seeds, the three other games' stored as they would be (a win goal each) without
    their solver, whose search would take seconds: only the day's list reads them."""

    def make(day: date = DAY) -> list[Challenge]:
        made = [
            make_challenge(variant=variant, difficulty=difficulty, day=day)
            for variant in ("steps", "spike")
            for difficulty in Challenge.Difficulty.values
        ]
        made += [
            Challenge.objects.create(
                date=day,
                variant=variant,
                difficulty=difficulty,
                rules_version=1,
                seed=f"stored-{variant}-{difficulty}",
                goal={"kind": "win"},
                proof_line=[],
                line_length=100,
                solver_nodes=1,
                solve_ms=1,
            )
            for variant in ("klondike", "kingsley", "spiderette")
            for difficulty in Challenge.Difficulty.values
        ]
        return made

    return make
