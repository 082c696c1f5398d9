"""How a settled match places its seats: each mode's ranking rule, from what each
seat's game stored (its final score, its cards on the foundations, when it got
there). Equal keys share a placement."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from games.engine.steps.ledger import time_bonus


@dataclass(frozen=True, kw_only=True)
class SeatResult:
    """What a seat's game ended with."""

    number: int
    final_score: int
    """The game's final score; on a shared board, the seat's own points on it."""
    foundation_cards: int
    reached_at: datetime | None
    cleared: bool
    seconds_left: int
    """The match clock's seconds left when the game closed (0 at the deadline)."""


@dataclass(frozen=True, kw_only=True)
class Placed:
    number: int
    score: int
    placement: int


def _highest_score(result: SeatResult) -> tuple[int, ...]:
    """Klondike head-to-head (klondike.txt): the highest score wins; an exactly equal
    score is a draw."""
    return (result.final_score,)


def sprint_score(result: SeatResult) -> int:
    """The Architect Ledger, with its time bonus (+2 for every full 10 seconds left)
    for a seat that cleared the board (steps.txt 2.6.2, 2.7)."""
    return result.final_score + (time_bonus(result.seconds_left) if result.cleared else 0)


def _sprint(result: SeatResult) -> tuple[int, ...]:
    """Architect's Sprint: most cards on the foundations, then the ledger, then who
    got to their count first (docs/decisions.md)."""
    never = -(2**62)
    earlier = -int(result.reached_at.timestamp() * 1_000_000) if result.reached_at else never
    return (result.foundation_cards, sprint_score(result), earlier)


def _duel(result: SeatResult) -> tuple[int, ...]:
    """The Head-to-Head Duel (steps.txt 2.6.3): the seat with more action points on the
    shared board wins; equal points are a draw."""
    return (result.final_score,)


RANKINGS: dict[str, tuple[Callable[[SeatResult], tuple[int, ...]], Callable[[SeatResult], int]]] = {
    "highest_score": (_highest_score, lambda result: result.final_score),
    "sprint": (_sprint, sprint_score),
    "duel": (_duel, lambda result: result.final_score),
}


def placements(*, ranking: str, results: Sequence[SeatResult]) -> list[Placed]:
    """Every seat's score and placement (1 is first; equal keys share one)."""
    key, score = RANKINGS[ranking]
    ordered = sorted(results, key=key, reverse=True)
    placed: list[Placed] = []
    for index, result in enumerate(ordered):
        tied = index > 0 and key(result) == key(ordered[index - 1])
        placement = placed[-1].placement if tied else index + 1
        placed.append(Placed(number=result.number, score=score(result), placement=placement))
    return sorted(placed, key=lambda p: p.number)
