"""The game clock, kept by the platform from the server's time.

Time counts up in one of two ways. A game without a deadline counts each gap
between two actions of the player, for at most GAME_IDLE_GAP_CAP_SECONDS (so a
game left open overnight does not count the night). A game on a clock counts
real time from the deal up to its deadline.

The deadline is the platform's: the earlier of the limit its track sets (a
match's 4:00, stored on the game as `time_limit_seconds`) and the limit the
variant's rules give for the position (Spike Time Attack's 2:00 with its bonus
seconds). The engine only says what the rules say about time; it keeps no clock.
"""

from datetime import datetime, timedelta
from typing import Protocol

from django.conf import settings


class Clocked(Protocol):
    """The fields of a game the clock reads and writes (games.models.Game)."""

    started_at: datetime
    last_action_at: datetime
    elapsed_ms: int
    deadline_at: datetime | None
    time_limit_seconds: int | None

    @property
    def is_active(self) -> bool: ...


def clock_limit_seconds(*, track_limit: int | None, rules_limit: int | None) -> int | None:
    """The game's limit in seconds: the earlier of the track's and the rules' (None: no limit)."""
    limits = [limit for limit in (track_limit, rules_limit) if limit is not None]
    return min(limits) if limits else None


def clock_deadline(game: Clocked, *, rules_limit: int | None) -> datetime | None:
    """When the game's clock runs out, given the limit the rules give now."""
    limit = clock_limit_seconds(track_limit=game.time_limit_seconds, rules_limit=rules_limit)
    return None if limit is None else game.started_at + timedelta(seconds=limit)


def _idle_cap() -> timedelta:
    return timedelta(seconds=settings.GAME_IDLE_GAP_CAP_SECONDS)


def clock_tick(game: Clocked, *, now: datetime) -> None:
    """Count the time up to `now` on the game (an action arrived)."""
    if game.deadline_at is not None:
        until = min(now, game.deadline_at)
        game.elapsed_ms = max(0, int((until - game.started_at).total_seconds() * 1000))
    else:
        gap = max(timedelta(0), min(now - game.last_action_at, _idle_cap()))
        game.elapsed_ms += int(gap.total_seconds() * 1000)
    game.last_action_at = now


def clock_is_up(game: Clocked, *, now: datetime) -> bool:
    return game.deadline_at is not None and now >= game.deadline_at


def clock_pending_gap_seconds(game: Clocked, *, now: datetime) -> float:
    """The part of the current gap that the next action will count (capped); a closed
    game has none."""
    if not game.is_active:
        return 0.0
    gap = (now - game.last_action_at).total_seconds()
    return max(0.0, min(gap, _idle_cap().total_seconds()))


def clock_elapsed_seconds(game: Clocked, *, now: datetime) -> int:
    """The time the game has taken as the board shows it now."""
    if game.deadline_at is not None and game.is_active:
        return max(0, int((min(now, game.deadline_at) - game.started_at).total_seconds()))
    return int(game.elapsed_ms / 1000 + clock_pending_gap_seconds(game, now=now))


def clock_remaining_seconds(game: Clocked, *, now: datetime) -> int | None:
    """Seconds left on the game's clock; None for a game without one."""
    if game.deadline_at is None:
        return None
    if not game.is_active:
        return 0
    return max(0, int((game.deadline_at - now).total_seconds()))
