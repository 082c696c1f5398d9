"""The Spiderette search itself, on small integers: the pure-Python path of
``SpideretteSolver`` and the exact model of the compiled core (native/spiderette.c),
which does the same steps in the same order, so that both give the same verdict, line
and node count within the same node budget.

Cards are numbers 0..51: ``suit * 13 + rank - 1`` (suits in the order S, H, D, C), so a
card's same-suit successor one rank higher is ``card + 1`` unless it is a King. A pile is
``(down, cards)``: all its cards bottom first, the first ``down`` of them face down. The
stock is a tuple consumed from its end (the last card goes to pile 1) and only its length
changes during a search.

The search is depth-first with a transposition table of canonical positions, its moves
tried best first (``ordered_moves``), in two phases: first over the restricted moves
(never part of a run, never a unit taken off one card onto another of the same rank and
another suit), a far smaller space that holds most wins; then, when that space is
exhausted without a win, over every move, the phase that can prove a loss. It answers
won with the line found (then ``shortened``), lost when every position reachable with
any move was expanded without a win, unknown when the budget runs out first.

Canonical position: the piles with the stock's length. Which pile is which matters only
for the deals still to come (each dealt card goes to one pile): with an empty stock the
piles are compared as a sorted multiset; with 3 cards left (the last deal, to piles 1 to
3) piles 4 to 7 are; otherwise every pile keeps its place.
"""

from collections.abc import Sequence
from time import perf_counter

RUN = 13
RUNS = 4
PILES = 7
DEAL_SIZE = 7
LAST_DEAL = 3
WON = 1
LOST = 0
UNKNOWN = -1
DEAL = (-1, -1, 0)
"""The deal move; a transfer is ``(source, target, count)`` with 0-based piles."""
TIME_CHECK = 256
"""The clock is read once every this many expanded positions."""
MAX_DEPTH = 10_000
MAX_MOVES = 512
MOVE_POOL = MAX_DEPTH * 64
"""Bounds of the search stack (the compiled core's fixed arrays): a position deeper than
MAX_DEPTH, or whose moves would overflow MOVE_POOL, is not expanded, and the search can
then answer won or unknown but no longer lost."""

Pile = tuple[int, tuple[int, ...]]
Piles = tuple[Pile, ...]
MoveT = tuple[int, int, int]

# Move scores: higher first. A stable sort keeps generation order among equal scores
# (source pile, then count, then target), as the C core does.
COMPLETE = 1000
REVEAL = 500
EMPTIES = 400
SUITED = 60
JOIN = 300
KING_TO_EMPTY = 100
NEW_LINK = 150
TO_EMPTY = 50
DEALING = 30
SWAP = 20
BREAK = 10


def rank(card: int) -> int:
    return card % RUN + 1


def suit_run(down: int, cards: tuple[int, ...]) -> int:
    """How many face-up cards at the top form a descending run of one suit."""
    size = len(cards)
    if size == down:
        return 0
    length = 1
    while (
        size - length > down
        and cards[size - length - 1] == cards[size - length] + 1
        and rank(cards[size - length]) != RUN
    ):
        length += 1
    return length


def _settle(down: int, cards: tuple[int, ...]) -> tuple[Pile, int]:
    """The pile with a completed run removed (and the card under it turned up), and the
    number of runs removed (0 or 1)."""
    size = len(cards)
    if size - down >= RUN and rank(cards[-1]) == 1 and suit_run(down, cards) >= RUN:
        cards = cards[:-RUN]
        if down and len(cards) == down:
            down -= 1
        return (down, cards), 1
    return (down, cards), 0


def can_deal(piles: Piles, stock_size: int) -> bool:
    if not stock_size:
        return False
    if all(len(cards) for _, cards in piles):
        return True
    # With fewer cards on the table than piles, the rule that every pile must hold a
    # card gives way (docs/rules/spiderette.md).
    return sum(len(cards) for _, cards in piles) < PILES


def ordered_moves(piles: Piles, stock_size: int, restricted: bool) -> list[MoveT]:
    """The legal moves, best first, but for the dominated ones (a whole pile into an
    empty one where that only changes places) and, when ``restricted``, those that
    rarely help: part of a run, and a unit taken off one card onto another of the same
    rank and a different suit."""
    scored: list[tuple[int, MoveT]] = []
    interchangeable = stock_size == 0
    last_deal = stock_size == LAST_DEAL
    runs = [suit_run(down, cards) for down, cards in piles]
    for source in range(PILES):
        down, cards = piles[source]
        size = len(cards)
        up = size - down
        for count in range(1, runs[source] + 1):
            head = cards[size - count]
            wanted = rank(head) + 1
            whole = count == up
            below = -1 if whole else cards[size - count - 1]
            for target in range(PILES):
                if target == source:
                    continue
                target_cards = piles[target][1]
                if not target_cards:
                    if whole and not down:
                        # A whole pile into an empty one only changes places: the same
                        # position once the two piles are interchangeable.
                        if interchangeable or (last_deal and source >= LAST_DEAL <= target):
                            continue
                        score = TO_EMPTY
                    elif whole:
                        score = REVEAL
                    elif wanted > RUN:
                        score = KING_TO_EMPTY
                    else:
                        score = TO_EMPTY
                    if not (restricted and count < runs[source]):
                        scored.append((score, (source, target, count)))
                    continue
                top = target_cards[-1]
                if rank(top) != wanted or (restricted and count < runs[source]):
                    continue
                suited = top == head + 1
                if suited and rank(cards[-1]) == 1 and count + runs[target] >= RUN:
                    score = COMPLETE
                elif whole:
                    score = (REVEAL if down else EMPTIES) + (SUITED if suited else 0)
                elif count < runs[source]:
                    score = BREAK
                elif suited:
                    score = JOIN
                elif rank(below) == wanted:
                    if restricted:
                        continue
                    score = SWAP
                else:
                    score = NEW_LINK
                scored.append((score, (source, target, count)))
    if can_deal(piles, stock_size):
        scored.append((DEALING, DEAL))
    scored.sort(key=lambda item: -item[0])
    return [move for _, move in scored]


def apply_move(
    piles: Piles, stock: Sequence[int], stock_size: int, move: MoveT
) -> tuple[Piles, int, int]:
    """The piles and stock size after a move, and the runs it removed."""
    source, target, count = move
    new = list(piles)
    removed = 0
    if source < 0:
        size = min(DEAL_SIZE, stock_size)
        for index in range(size):
            down, cards = new[index]
            new[index], gone = _settle(down, (*cards, stock[stock_size - 1 - index]))
            removed += gone
        return tuple(new), stock_size - size, removed
    down, cards = new[source]
    moving = cards[-count:]
    cards = cards[:-count]
    if down and len(cards) == down:
        down -= 1
    new[source] = (down, cards)
    target_down, target_cards = new[target]
    new[target], removed = _settle(target_down, target_cards + moving)
    return tuple(new), stock_size, removed


def canonical(piles: Piles, stock_size: int) -> bytes:
    """The transposition table's key (module docstring)."""
    keys = [bytes((len(cards), down, *cards)) for down, cards in piles]
    if stock_size == 0:
        keys.sort()
    elif stock_size == LAST_DEAL:
        keys[LAST_DEAL:] = sorted(keys[LAST_DEAL:])
    return bytes((stock_size,)) + b"".join(keys)


def search(
    piles: Piles,
    stock: Sequence[int],
    removed: int,
    *,
    max_nodes: int | None,
    deadline: float | None,
) -> tuple[int, list[MoveT], int]:
    """(WON, LOST or UNKNOWN, the winning line when won, positions expanded).

    Two phases, each a depth-first search with its own transposition table: first with
    the restricted moves (``ordered_moves``), which finds most wins fast, then, if that
    space is exhausted without a win, with every move, which alone can prove a loss."""
    if removed == RUNS:
        return WON, [], 0
    counter = [1]
    verdict = LOST
    for restricted in (True, False):
        verdict, line = _pass(
            piles, stock, removed, restricted, counter, max_nodes=max_nodes, deadline=deadline
        )
        if verdict == WON:
            return WON, line, counter[0]
        if verdict == _BUDGET:
            return UNKNOWN, [], counter[0]
    # The full phase was exhausted (lost), or its stack's bounds left positions out.
    return verdict, [], counter[0]


_BUDGET = -2


def _pass(
    piles: Piles,
    stock: Sequence[int],
    removed: int,
    restricted: bool,
    counter: list[int],
    *,
    max_nodes: int | None,
    deadline: float | None,
) -> tuple[int, list[MoveT]]:
    """One phase: (WON, line), (LOST, []) when its space is exhausted, (UNKNOWN, []) when
    the stack's bounds left positions unexpanded, (_BUDGET, []) when the budget ran out.
    ``counter[0]`` counts expanded positions over both phases."""
    stock_size = len(stock)
    seen = {canonical(piles, stock_size)}
    nodes = counter[0]
    # Each frame: the position, its stock size, its removed runs and its moves; the
    # cursor says which move of each frame is next.
    frames: list[tuple[Piles, int, int, list[MoveT]]] = [
        (piles, stock_size, removed, ordered_moves(piles, stock_size, restricted))
    ]
    cursor = [0]
    line: list[MoveT] = []
    used = len(frames[0][3])
    incomplete = False
    while frames:
        position, size, gone, moves = frames[-1]
        index = cursor[-1]
        if index == len(moves):
            frames.pop()
            cursor.pop()
            used -= len(moves)
            if line:
                line.pop()
            continue
        cursor[-1] = index + 1
        move = moves[index]
        child, child_size, runs = apply_move(position, stock, size, move)
        child_gone = gone + runs
        if child_gone == RUNS:
            counter[0] = nodes
            return WON, [*line, move]
        key = canonical(child, child_size)
        if key in seen:
            continue
        if (max_nodes is not None and nodes >= max_nodes) or (
            deadline is not None and nodes % TIME_CHECK == 0 and perf_counter() >= deadline
        ):
            counter[0] = nodes
            return _BUDGET, []
        if len(frames) >= MAX_DEPTH or used + MAX_MOVES > MOVE_POOL:
            incomplete = True
            continue
        seen.add(key)
        nodes += 1
        line.append(move)
        child_moves = ordered_moves(child, child_size, restricted)
        used += len(child_moves)
        frames.append((child, child_size, child_gone, child_moves))
        cursor.append(0)
    counter[0] = nodes
    return (UNKNOWN if incomplete else LOST), []


def shortened(piles: Piles, stock: Sequence[int], line: Sequence[MoveT]) -> list[MoveT]:
    """A winning line without its detours: from each position of the line, one move
    straight to the latest later position of the line that it reaches (the very same
    piles in the same places, so the moves after it still apply). A depth-first line
    wanders (a card put in an empty pile, then the next, ...); this takes the wandering
    out and keeps a line that wins."""
    if not line:
        return []
    states: list[tuple[Piles, int]] = [(piles, len(stock))]
    for move in line[:-1]:
        position, size = states[-1]
        child, child_size, _ = apply_move(position, stock, size, move)
        states.append((child, child_size))
    index_of = {state: index for index, state in enumerate(states)}
    result: list[MoveT] = []
    index = 0
    last = len(states) - 1
    while index < last:
        position, size = states[index]
        best, best_move = index + 1, line[index]
        for move in ordered_moves(position, size, restricted=False):
            child, child_size, _ = apply_move(position, stock, size, move)
            later = index_of.get((child, child_size), -1)
            if later > best:
                best, best_move = later, move
        result.append(best_move)
        index = best
    result.append(line[-1])
    return result
