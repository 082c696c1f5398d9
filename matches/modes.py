"""The match modes: one `MatchMode` per way to race, as games.specs registers games.

A mode names the engine variant its seats play, how many players it seats, its clock,
how its results rank, and whether its seats share one board, taking turns on a turn
clock. A mode joins the site by its entry here."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, kw_only=True)
class MatchMode:
    key: str
    name: str
    variant: str
    """The engine variant each seat plays."""
    min_players: int
    max_players: int
    clock_seconds: int
    """The match clock, kept by the server: every seat's game closes when it runs out."""
    ranking: str
    """How settled seats are placed (matches.results)."""
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The variant options of every seat's game."""
    needs_points_table: bool = False
    """Closed to players until staff publish a points table (Klondike's competitive mode)."""
    shared_board: bool = False
    """The seats take turns on one game (the Duel) instead of each playing their own."""
    turn_seconds: int | None = None
    """A shared board's turn clock: the seat to move passes when it runs out."""

    @property
    def starts_when_full(self) -> bool:
        """A mode of a fixed number of seats (head-to-head) starts as its last seat is
        taken; one of a range (a Sprint of 1 to 4) when its maker presses Start."""
        return self.min_players == self.max_players


MATCH_MODES: tuple[MatchMode, ...] = (
    MatchMode(
        key="klondike",
        name="Klondike head-to-head",
        variant="klondike",
        min_players=2,
        max_players=2,
        clock_seconds=240,
        ranking="highest_score",
        needs_points_table=True,
    ),
    MatchMode(
        key="steps_sprint",
        name="Steps: Architect's Sprint",
        variant="steps",
        min_players=1,
        max_players=4,
        clock_seconds=300,
        ranking="sprint",
    ),
    MatchMode(
        key="steps_duel",
        name="Steps: Head-to-Head Duel",
        variant="steps_duel",
        min_players=2,
        max_players=2,
        clock_seconds=1800,
        ranking="duel",
        shared_board=True,
        turn_seconds=30,
    ),
)

_BY_KEY = {mode.key: mode for mode in MATCH_MODES}


def match_modes() -> tuple[MatchMode, ...]:
    return MATCH_MODES


def match_mode(key: str) -> MatchMode | None:
    return _BY_KEY.get(key) if isinstance(key, str) else None


def match_mode_keys() -> tuple[str, ...]:
    return tuple(_BY_KEY)
