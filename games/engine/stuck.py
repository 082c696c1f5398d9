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
otherwise the positions after each of its non-productive moves. The search goes breadth
first (or most promising first, given a ``promise``) and visits at most ``cap`` distinct
positions (``SEARCH_CAP`` by default; Spiderette and Steps with retrieval pass their
own). It has three answers: ``STUCK`` (every reachable position was seen: a proof, and
from public information only, since turning a face-down card up is productive and ends
the search, so no face-down card is ever read), ``FREE`` (a productive move was found)
and ``UNDECIDED`` (the cap was reached first; the game is not lost, and the board says
that no productive move may remain).

Three forms of position:

- ``is_stuck`` / ``stuck_verdict``: for Kingsley, whose non-productive moves change only
  the face-up cards of the tableau, a position is the tableau alone (the waste and
  foundations stay as they are), compared with its piles sorted: two tableaux that
  differ only in the order of their piles are one position;
- ``is_stuck_among`` / ``search``: for positions that are more than a tableau (Steps:
  its non-productive moves also change the reserve slots and, with retrieval, the
  foundations) or held in a form of the variant's own (Spiderette's strings,
  spiderette_lost.py), ``explore`` returns each successor already in canonical form.

A pile is keyed on whether face-down cards lie under it, never on which: the search
needs nothing more (turning a card up ends it), and its order, which the sorted piles
set, must not depend on hidden cards either. "Stuck" cannot change with the order, but
``UNDECIDED`` can (which productive move is found before the cap), and it is shown on
the board and seeds the hint (issue 30): positions with the same public view get the
same answers.
"""

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from heapq import heappop, heappush
from typing import Any, TypeVar

from .tableau import Pile

SEARCH_CAP = 20_000
"""At most this many distinct positions are examined. When the cap is reached before the
search is over, the position is *not* declared stuck (the game goes on, ``UNDECIDED``)."""

PilePair = tuple[bool, tuple[str, ...]]
"""A pile as (whether face-down cards lie under it, its face-up cards bottom first)."""
Position = tuple[PilePair, ...]
"""A tableau as sorted pile pairs."""
Explore = Callable[[Position], list[list[PilePair]] | None]
P = TypeVar("P", bound=Hashable)


def position_of(tableau: Iterable[Pile]) -> Position:
    return tuple(sorted(pile_pair(pile) for pile in tableau))


def pile_pair(pile: Pile) -> PilePair:
    """What the search reads of a pile: the face-down cards as a flag, the face-up ones."""
    return bool(pile.down), pile.up


def moved(position: Position, source: int, target: int, count: int) -> list[PilePair]:
    """The piles after moving the top ``count`` face-up cards of ``source`` onto
    ``target``, turning nothing up (unsorted)."""
    piles = list(position)
    down, up = piles[source]
    target_down, target_up = piles[target]
    piles[source] = (down, up[:-count])
    piles[target] = (target_down, target_up + up[-count:])
    return piles


STUCK = "stuck"
"""Verdict: no productive move is reachable (the whole space was searched): a proof."""
FREE = "free"
"""Verdict: a productive move is legal in some reachable position."""
UNDECIDED = "undecided"
"""Verdict: the cap was reached first; nothing is proved either way."""


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
    there is one, is found sooner; without it the search goes breadth first. The answer
    does not depend on the order unless the cap is reached."""
    return stuck_verdict(start, explore, promise, cap) == STUCK


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
    return search(start, explore, promise, cap)[0] == STUCK


def stuck_verdict(
    start: Position,
    explore: Explore,
    promise: Callable[[Position], int] | None = None,
    cap: int = SEARCH_CAP,
) -> str:
    """``is_stuck`` with its third answer kept apart: ``STUCK``, ``FREE`` or
    ``UNDECIDED`` (the cap reached)."""

    def sorted_explore(position: Position) -> list[Position] | None:
        successors = explore(position)
        if successors is None:
            return None
        return [tuple(sorted(successor)) for successor in successors]

    return search(start, sorted_explore, promise, cap)[0]


def search(
    start: P,
    explore: Callable[[P], Iterable[P] | None],
    promise: Callable[[P], int] | None = None,
    cap: int = SEARCH_CAP,
) -> tuple[str, set[P]]:
    """The verdict on ``start`` and the positions seen. ``explore`` returns canonical
    successors, or None when a productive move is legal. Without ``promise`` the search
    goes breadth first (a productive move a few moves away is found after few
    positions, where depth first can wander through a huge space first); with it, the
    most promising position first, the oldest among equals. After ``STUCK`` every
    position seen is stuck too (each is reachable from ``start``)."""
    seen = {start}
    if promise is None:
        queue = deque((start,))
        while queue:
            successors = explore(queue.popleft())
            if successors is None:
                return FREE, seen
            for position in successors:
                if position not in seen:
                    if len(seen) >= cap:
                        return UNDECIDED, seen
                    seen.add(position)
                    queue.append(position)
        return STUCK, seen
    # Entries (-promise, order, position): the most promising first, then the oldest.
    pending: list[tuple[int, int, Any]] = [(0, 0, start)]
    order = 0
    while pending:
        successors = explore(heappop(pending)[2])
        if successors is None:
            return FREE, seen
        for position in successors:
            if position not in seen:
                if len(seen) >= cap:
                    return UNDECIDED, seen
                seen.add(position)
                order += 1
                heappush(pending, (-promise(position), order, position))
    return STUCK, seen
