"""The platform's game clock: gaps capped, real time on a clock, deadlines from track and rules."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from games.clock import (
    clock_deadline,
    clock_elapsed_seconds,
    clock_is_up,
    clock_limit_seconds,
    clock_pending_gap_seconds,
    clock_remaining_seconds,
    clock_tick,
)

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@dataclass
class FakeGame:
    started_at: datetime = START
    last_action_at: datetime = START
    elapsed_ms: int = 0
    deadline_at: datetime | None = None
    time_limit_seconds: int | None = None
    active: bool = True

    @property
    def is_active(self) -> bool:
        return self.active


@pytest.fixture(autouse=True)
def _cap(settings):
    settings.GAME_IDLE_GAP_CAP_SECONDS = 30


@pytest.mark.parametrize(
    ("track", "rules", "expected"),
    [(None, None, None), (240, None, 240), (None, 120, 120), (240, 120, 120), (100, 120, 100)],
)
def test_the_limit_is_the_earlier_of_track_and_rules(track, rules, expected):
    assert clock_limit_seconds(track_limit=track, rules_limit=rules) == expected


def test_a_track_deadline_survives_rules_that_know_no_time():
    game = FakeGame(time_limit_seconds=240)
    assert clock_deadline(game, rules_limit=None) == START + timedelta(minutes=4)
    assert clock_deadline(FakeGame(), rules_limit=None) is None


def test_bonus_seconds_move_a_rules_deadline_up_to_the_tracks():
    game = FakeGame(time_limit_seconds=150)
    assert clock_deadline(game, rules_limit=120) == START + timedelta(seconds=120)
    assert clock_deadline(game, rules_limit=200) == START + timedelta(seconds=150)


def test_without_a_deadline_each_gap_counts_at_most_the_cap():
    game = FakeGame()
    clock_tick(game, now=START + timedelta(seconds=10))
    clock_tick(game, now=START + timedelta(hours=5))
    assert game.elapsed_ms == 40_000
    assert game.last_action_at == START + timedelta(hours=5)


def test_on_a_clock_real_time_counts_up_to_the_deadline():
    game = FakeGame(deadline_at=START + timedelta(minutes=4))
    clock_tick(game, now=START + timedelta(minutes=3))
    assert game.elapsed_ms == 180_000
    clock_tick(game, now=START + timedelta(minutes=9))
    assert game.elapsed_ms == 240_000


def test_time_is_up_at_the_deadline_and_not_before():
    game = FakeGame(deadline_at=START + timedelta(minutes=4))
    assert not clock_is_up(game, now=START + timedelta(seconds=239))
    assert clock_is_up(game, now=START + timedelta(seconds=240))
    assert not clock_is_up(FakeGame(), now=START + timedelta(days=1))


def test_the_board_shows_the_pending_gap_up_to_the_cap():
    game = FakeGame(elapsed_ms=5_000)
    assert clock_pending_gap_seconds(game, now=START + timedelta(seconds=12)) == 12
    assert clock_elapsed_seconds(game, now=START + timedelta(seconds=12)) == 17
    assert clock_elapsed_seconds(game, now=START + timedelta(hours=1)) == 35
    closed = FakeGame(elapsed_ms=5_000, active=False)
    assert clock_elapsed_seconds(closed, now=START + timedelta(hours=1)) == 5


def test_remaining_seconds():
    game = FakeGame(deadline_at=START + timedelta(minutes=4))
    assert clock_remaining_seconds(game, now=START + timedelta(seconds=30)) == 210
    assert clock_remaining_seconds(game, now=START + timedelta(minutes=5)) == 0
    assert clock_remaining_seconds(FakeGame(), now=START) is None
    game.active = False
    assert clock_remaining_seconds(game, now=START) == 0
