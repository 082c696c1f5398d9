"""Tracks: what a game belongs to, and so how it is dealt and which slot it takes.

A player has at most one active game per variant and track: the casual game of
each variant, the game of each daily deal, and the tracks the later apps add
(a match, a scenario). The database holds that rule (the constraint
`one_active_game_per_player_and_track` on games.Game) and `game_start`
abandons, resumes or hands over the track's active game by it.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from games.models import Game


@dataclass(frozen=True, kw_only=True)
class Track:
    kind: str = Game.Track.CASUAL
    """A Game.Track value."""
    ref: str = ""
    """What the track plays (a daily deal's id): the games of one ref share its slot."""
    seed: str | None = None
    """The deal's seed; None deals at random."""
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    ranked: bool = False
    """Whether the game's result goes on the leaderboards (a daily deal's first attempt)."""
    time_limit_seconds: int | None = None
    """A clock the track sets on its games (games.clock), whatever the rules say."""
    undo_limit: int | None = None
    """Moves a game of the track may take back (a Codex scenario's undo allowance)."""
    goal: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The goal the track sets its games (a daily challenge's, games.engine.goals): the
    board shows its progress and the game records when it is first met."""
    starts_at: datetime | None = None
    """When the game's clock starts (the deal's moment when None): a match deals its
    seats one after another, and their clocks start, and run out, together."""

    def __post_init__(self) -> None:
        if self.kind not in Game.Track.values:
            raise ValueError(f"Unknown track {self.kind!r}")
        if self.kind == Game.Track.CASUAL and self.ref:
            raise ValueError("A casual game has no track reference")
        if self.time_limit_seconds is not None and self.time_limit_seconds <= 0:
            raise ValueError("A track's time limit is a positive number of seconds")
        if self.undo_limit is not None and self.undo_limit < 0:
            raise ValueError("A track's undo limit is a whole number from 0 up")


def casual_track(*, options: Mapping[str, Any] | None = None, seed: str | None = None) -> Track:
    """A player's own game of a variant: a random deal, or the given one."""
    return Track(seed=seed, options=MappingProxyType(dict(options or {})))


def track_of(game: Game, *, ranked: bool = False) -> Track:
    """The track of a game, to deal its cards again there (restart this deal)."""
    return Track(
        kind=game.track,
        ref=game.track_ref,
        seed=game.seed,
        options=MappingProxyType(dict(game.options)),
        ranked=ranked,
        time_limit_seconds=game.time_limit_seconds,
        undo_limit=game.undo_limit,
        goal=MappingProxyType(dict(game.goal)),
    )
