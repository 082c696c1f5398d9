"""The facts an achievement is decided from, and the rules that decide.

A rule is a pure function of one closed game's `GameFacts`: no database, no
clock, no engine. `achievements.selectors.game_facts` gathers the facts.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

WON = "won"
ABANDONED = "abandoned"


@dataclass(frozen=True)
class GameFacts:
    """One closed game and what it takes to judge it, as of when it closed."""

    game_id: UUID
    player_id: int
    variant: str
    status: str
    finished_at: datetime
    final_score: int
    elapsed_ms: int
    move_count: int
    undo_count: int
    public: Mapping[str, Any]
    """The engine's public view of the final position; empty when the engine
    cannot read the game (a variant it does not know yet)."""
    wins_so_far: int
    """The player's won games, of every game, closed up to this one (it included)."""
    daily_streak: int
    """Days in a row with a daily deal played, up to the day the game closed."""
    ranked_score: int | None
    """The score of the game's ranked daily result, None when it has none."""
    deal_top_score: int | None
    """The best ranked score on the game's daily deal when the facts were read."""
    match_mode: str | None = None
    """The mode of the match the game was a seat's game in; None outside a match."""
    match_outcome: str | None = None
    """The seat's outcome once its match settled (win, draw, loss; "" solo); None before."""
    match_margin: int | None = None
    """The seat's match score minus the best other seat's, once settled."""

    @property
    def won(self) -> bool:
        return self.status == WON


Rule = Callable[[GameFacts], bool]


def first_win(game: str) -> Rule:
    """A win in this game (one-off: the first one earns it)."""

    def rule(facts: GameFacts) -> bool:
        return facts.won and facts.variant == game

    return rule


def wins(count: int) -> Rule:
    """The win that brings the player's wins, all games together, to `count`."""

    def rule(facts: GameFacts) -> bool:
        return facts.won and facts.wins_so_far >= count

    return rule


def daily_streak(days: int) -> Rule:
    """A game closed on a day that makes `days` days in a row of daily deals."""

    def rule(facts: GameFacts) -> bool:
        return facts.daily_streak >= days

    return rule


def win_under(game: str, seconds: int) -> Rule:
    """A win in this game in less than `seconds` on the game clock."""

    def rule(facts: GameFacts) -> bool:
        return facts.won and facts.variant == game and facts.elapsed_ms < seconds * 1000

    return rule


def win_without_undo(game: str) -> Rule:
    """A win in this game with no move ever taken back."""

    def rule(facts: GameFacts) -> bool:
        return facts.won and facts.variant == game and facts.undo_count == 0

    return rule


def summit_badge(badge: str) -> Rule:
    """A Spike game that ended with this Summit badge, as the engine computes it
    (`badge` of the public view). Every closed game counts, a lost or abandoned
    one included: Bronze is earned at the end of a game, won or not."""

    def rule(facts: GameFacts) -> bool:
        return facts.variant == "spike" and facts.public.get("badge") == badge

    return rule


def all_runs_removed(runs: int) -> Rule:
    """A Spiderette game with every run taken off the table."""

    def rule(facts: GameFacts) -> bool:
        return facts.variant == "spiderette" and len(facts.public.get("removed_runs", ())) >= runs

    return rule


def steps_win_without_reserve() -> Rule:
    """A Steps win in which no reserve slot was used in the line of play in effect."""

    def rule(facts: GameFacts) -> bool:
        return (
            facts.won
            and facts.variant == "steps"
            and facts.public.get("reserve_used_ever") is False
        )

    return rule


def steps_top_of_deal() -> Rule:
    """A ranked Steps win whose ledger is the best of its daily deal when judged
    (ties included)."""

    def rule(facts: GameFacts) -> bool:
        return (
            facts.won
            and facts.variant == "steps"
            and facts.ranked_score is not None
            and facts.deal_top_score is not None
            and facts.ranked_score >= facts.deal_top_score
        )

    return rule


MATCH_WIN = "win"


def match_win() -> Rule:
    """A match won (one-off: the first one earns it)."""

    def rule(facts: GameFacts) -> bool:
        return facts.match_outcome == MATCH_WIN

    return rule


def sprint_clear() -> Rule:
    """An Architect's Sprint in which the seat cleared the board before the clock."""

    def rule(facts: GameFacts) -> bool:
        return facts.match_mode == "steps_sprint" and facts.won

    return rule


def duel_won_by(points: int) -> Rule:
    """A Head-to-Head Duel won by at least `points` points."""

    def rule(facts: GameFacts) -> bool:
        return (
            facts.match_mode == "steps_duel"
            and facts.match_outcome == MATCH_WIN
            and facts.match_margin is not None
            and facts.match_margin >= points
        )

    return rule
