"""Deciding that a game is stuck: the stock is empty and no move that can change the
outcome is left, now or after any sequence of moves that cannot.

A move is *productive* when it makes progress that can never be taken back: for
Kingsley and Spiderette, it puts a card on a foundation, turns a face-down card up,
removes a run, takes the top waste card, or draws or deals from the stock. Every other
move is *non-productive*. Each variant says which of its moves are which (Steps adds its
own: a recycle while one is left is productive; a card into or out of a reserve slot
that turns nothing up, and a retrieval, are not; a card put on a foundation is
productive only above the foundations' height where the search started).

A position whose stock is empty is stuck when no productive move is legal in it nor in
any position reachable from it by non-productive moves alone. The variant supplies one
function, ``explore(position)``: None when a productive move is legal in the position,
otherwise the positions after each of its non-productive moves. The search visits at
most ``cap`` distinct positions (``SEARCH_CAP`` by default; Spiderette passes a smaller
one); reaching it means "not stuck".

Two forms of position:

- ``is_stuck``: for Kingsley and Spiderette, whose non-productive moves change only the
  face-up cards of the tableau, a position is the tableau alone (the waste and
  foundations stay as they are), compared with its piles sorted: two tableaux that
  differ only in the order of their piles are one position;
- ``is_stuck_among``: for positions that are more than a tableau (Steps: its
  non-productive moves also change the reserve slots and, with retrieval, the
  foundations), ``explore`` returns each successor already in canonical form.
"""

from collections.abc import Callable, Hashable, Iterable
from heapq import heappop, heappush
from typing import Any, TypeVar

from .tableau import Pile

SEARCH_CAP = 20_000
"""At most this many distinct positions are examined. When the cap is reached before the
search is over, the position is *not* declared stuck (the game goes on)."""

PilePair = tuple[tuple[str, ...], tuple[str, ...]]
"""A pile as (face-down cards, face-up cards), both bottom first."""
Position = tuple[PilePair, ...]
"""A tableau as sorted pile pairs."""
Explore = Callable[[Position], list[list[PilePair]] | None]
P = TypeVar("P", bound=Hashable)


def position_of(tableau: Iterable[Pile]) -> Position:
    return tuple(sorted((pile.down, pile.up) for pile in tableau))


def moved(position: Position, source: int, target: int, count: int) -> list[PilePair]:
    """The piles after moving the top ``count`` face-up cards of ``source`` onto
    ``target``, turning nothing up (unsorted)."""
    piles = list(position)
    down, up = piles[source]
    target_down, target_up = piles[target]
    piles[source] = (down, up[:-count])
    piles[target] = (target_down, target_up + up[-count:])
    return piles


def is_stuck(
    start: Position,
    explore: Explore,
    promise: Callable[[Position], int] | None = None,
    cap: int = SEARCH_CAP,
) -> bool:
    """True when neither ``start`` nor any position reachable from it by non-productive
    moves has a productive move; False when one has, or when deciding would take more
    than ``cap`` positions.

    ``promise`` (higher first) only orders the search, so that a productive move, when
    there is one, is found sooner; without it the search goes depth first. The answer
    does not depend on the order unless the cap is reached."""
    return _search(start, explore, promise, cap, canonical=False)


def is_stuck_among(
    start: P,
    explore: Callable[[P], Iterable[P] | None],
    promise: Callable[[P], int] | None = None,
    cap: int = SEARCH_CAP,
) -> bool:
    """``is_stuck`` for positions that are more than a tableau (Steps: its reserve slots
    and foundations too): ``explore`` returns the successors already in canonical form,
    so that equal positions compare equal; the search, its cap and its answer are
    ``is_stuck``'s."""
    return _search(start, explore, promise, cap, canonical=True)


def _search(
    start: Any,
    explore: Callable[[Any], Iterable[Any] | None],
    promise: Callable[[Any], int] | None,
    cap: int,
    canonical: bool,
) -> bool:
    seen = {start}
    # Entries (-promise, -order, position): the most promising first, then the newest.
    pending = [(0, 0, start)]
    order = 0
    while pending:
        successors = explore(heappop(pending)[2])
        if successors is None:
            return False
        for successor in successors:
            position = successor if canonical else tuple(sorted(successor))
            if position not in seen:
                if len(seen) >= cap:
                    return False
                seen.add(position)
                order += 1
                rank = -promise(position) if promise is not None else 0
                heappush(pending, (rank, -order, position))
    return True
