"""The search shared by the Klondike and Kingsley solvers (klondike.py), in pure Python;
native/klondike.c is the same search step for step (same moves, same order, same
transposition table), so the two give the same verdicts and, short of the time budget,
the same node counts.

A depth-first search over every reachable position, with:

- talon macro moves: the stock and the waste are one sequence, the talon, in drawing
  order (the waste bottom first, then the stock's cards in the order they are drawn) with
  a pointer (the waste's size). Every card that draws and recycles can bring to the top
  of the waste is one move ("play the talon card at position q"), expanded into the real
  ``draw``/``recycle`` moves only in the line. Draws and recycles commute with every
  other move, so nothing is lost;
- a transposition table over a canonical position: the piles sorted (a pile with
  face-down cards is named by where its face-down cards came from, so two such piles are
  never confused; piles with none are interchangeable) and the foundations, each with
  the talon pointers it was seen with; with recycles, every pointer that reaches the
  same talon cards (a multiple of the draw count, or the end) is one pointer, and a
  position is not searched again with a pointer whose reach is inside that of a pointer
  it was seen with (``dominators``: the same lines are open from the other);
- safe automatic moves to the foundations (``is_safe``: an Ace or Two always, another
  card once nothing could ever be built on it, as foundations never give a card back),
  from the piles, and from the waste's top
  only when one card is drawn at a time (with three, taking a card out of the talon
  changes which cards the later draws reach, so it is a choice, not a safe move);
- dominance pruning, each provably losing nothing: a King-headed pile with nothing under
  it never moves to an empty pile; a King goes only to the first empty pile; a pile is
  emptied (its whole face-up run, not headed by a King and with nothing under it, moved
  onto another pile) only when some King could then move into it with profit; part of a
  run moves only when the card it uncovers can go to its foundation, or can take the
  other card of the moved head's rank and colour, which is in play now. (A partial move
  whose use comes later can be made later, just before its use, in the same line.)
- dead positions (``is_dead``): a card over a lower card of its suit that can go
  nowhere, in a pile or in the one-pass waste, has no moves;
- move ordering (``priority``): moves that turn a card up (from the pile with most
  face-down cards first), cards to the foundations, talon cards onto the piles (the
  pile with fewest face-up cards first), the rest;
- two passes (``solve``): first with part of a run moving only when the card it uncovers
  goes home and a position not searched again with any other talon pointer (a narrower
  space, where most won deals are won in far fewer nodes: it may miss a win, never
  invent one, as it follows real moves), then, only when that holds no win, over the
  whole space, which alone proves a loss;
- a node budget, a time budget and a cap on the table's size (``MAX_STATES``).
"""

from collections.abc import Sequence
from time import perf_counter

PILES = 7
RUN = 13
KING = RUN - 1
CARDS = 4 * RUN
MAX_STATES = 6_000_000
"""Positions the table holds at most: the search answers unknown when it is full."""
MAX_DEPTH = 200_000
"""The longest line the search follows: deeper, it answers unknown."""
TIME_CHECK = 128
"""Nodes between two looks at the clock."""

WON, LOST, UNKNOWN = 1, 0, -1

# Moves: (kind, a, b, count)
TOP_TO_FOUNDATION = 0  # the top card of pile a to its foundation
TALON_TO_FOUNDATION = 1  # the talon card at position a (1-based) to its foundation
TALON_TO_PILE = 2  # the talon card at position a onto pile b
PILE_TO_PILE = 3  # the top ``count`` cards of pile a onto pile b

Move = tuple[int, int, int, int]
Ups = tuple[tuple[int, ...], ...]
State = tuple[Ups, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]
"""(face-up runs, face-down counts, foundation heights, talon, pointer)."""

SUIT = tuple(card // RUN for card in range(CARDS))
RANK = tuple(card % RUN for card in range(CARDS))
"""0 for an Ace up to 12 for a King."""
RED = tuple(SUIT[card] in (1, 2) for card in range(CARDS))
TWIN = tuple((3 - SUIT[card]) * RUN + RANK[card] for card in range(CARDS))
"""The other card of the same rank and colour (suits S, H, D, C: S-C and H-D)."""
OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))


def fits(card: int, onto: int) -> bool:
    return RANK[card] + 1 == RANK[onto] and RED[card] != RED[onto]


def is_safe(card: int, found: Sequence[int]) -> bool:
    """Whether the card (due on its foundation) can go home with nothing lost: nothing
    could ever need to be built on it. Only the two cards of the other colour and the
    rank below could: either they are home, or both can go home at once (their
    foundations hold the rank two below) and so can the one card that could in turn go
    on them (of the card's colour and its other suit: its foundation holds the rank
    three below), so whatever a line would build on the card goes home instead (the
    rule FreeCell solvers use for the same building rule)."""
    rank = RANK[card] + 1
    first, second = OTHER_COLOUR[SUIT[card]]
    if rank <= 2 or (found[first] >= rank - 1 and found[second] >= rank - 1):
        return True
    return (
        found[first] >= rank - 2 and found[second] >= rank - 2 and found[3 - SUIT[card]] >= rank - 3
    )


def reachable(pointer: int, length: int, draw: int, recycle: bool) -> list[int]:
    """The talon positions (1-based: the card ``talon[q - 1]``) that draws, and recycles
    when allowed, can bring to the top of the waste, the cheapest first."""
    out = [pointer] if pointer > 0 else []
    position = pointer + draw
    while position < length:
        out.append(position)
        position += draw
    if length > pointer:
        out.append(length)
    if recycle:
        position = draw
        while position < length:
            if position < pointer or (position - pointer) % draw:
                out.append(position)
            position += draw
    return out


def canonical_pointer(pointer: int, length: int, draw: int, recycle: bool) -> int:
    if recycle and (pointer % draw == 0 or pointer == length):
        return 0
    return pointer


ALL_POINTERS = (1 << (CARDS + 1)) - 1


def dominators(pointer: int, draw: int, recycle: bool) -> int:
    """The canonical pointers, as a bit mask, whose reach holds every talon position the
    canonical ``pointer``'s does: a position already seen with one of them needs no
    search with ``pointer``, as every line from it can be played from the other. With
    recycles, an unaligned pointer reaches all that an aligned one (0) does, and one
    more draw further back of its class (``pointer`` minus a multiple of the draw count)
    reaches all that it does. Without recycles, only the pointer itself."""
    if not recycle:
        return 1 << pointer
    if pointer == 0:
        return ALL_POINTERS
    return sum(1 << earlier for earlier in range(pointer % draw, pointer + 1, draw))


def draws_to(pointer: int, position: int, length: int, draw: int) -> list[str]:
    """The real moves that bring talon position ``position`` to the top of the waste."""
    if position >= pointer and ((position - pointer) % draw == 0 or position == length):
        return ["draw"] * -(-(position - pointer) // draw)
    return ["draw"] * -(-(length - pointer) // draw) + ["recycle"] + ["draw"] * -(-position // draw)


def priority(ups: Ups, downs: tuple[int, ...], move: Move) -> int:
    """The order of a node's moves, highest first (the sort is stable): whatever turns
    a card up, from the pile with most face-down cards first; then a card home from a
    pile, from the talon; a talon card onto a pile, the pile with fewest face-up cards
    first (its run is the shortest to move on later; this order decides more of the
    benchmark's deals within their budgets than the piles' own order); emptying a pile;
    part of a run."""
    kind, a, b, count = move
    if kind == TOP_TO_FOUNDATION:
        return 16 * (100 + downs[a]) if len(ups[a]) == 1 and downs[a] else 16 * 50
    if kind == TALON_TO_FOUNDATION:
        return 16 * 40
    if kind == TALON_TO_PILE:
        return 16 * 30 + 15 - len(ups[b])
    if count == len(ups[a]):
        return 16 * (100 + downs[a]) if downs[a] else 16 * 20
    return 16 * 10


class Search:
    """One search: the deal's fixed parts (face-down cards, rules) and the table."""

    def __init__(self, downs: tuple[tuple[int, ...], ...], draw: int, recycle: bool) -> None:
        self.downs = downs
        self.draw = draw
        self.recycle = recycle
        self.nodes = 0
        self.strict = False
        """Whether part of a run moves only when the card it uncovers goes home (the
        first, narrower search of ``solve``)."""
        self.dominators = [dominators(pointer, draw, recycle) for pointer in range(CARDS + 1)]

    # Positions

    def key(self, state: State) -> bytes:
        """The position but for the talon pointer (the talon's cards are those in neither
        the piles nor the foundations)."""
        ups, downs, found, _, _ = state
        piles = sorted(
            bytes((index if downs[index] else PILES, downs[index], len(up), *up))
            for index, up in enumerate(ups)
        )
        return b"".join(piles) + bytes(found)

    def point(self, state: State) -> int:
        return canonical_pointer(state[4], len(state[3]), self.draw, self.recycle)

    def is_won(self, state: State) -> bool:
        """All cards home, or every card face up with the talon empty (then the tops
        go up one by one: ``finish``)."""
        _, downs, found, talon, _ = state
        return sum(found) == CARDS or (not talon and not any(downs))

    @staticmethod
    def finish(state: State, notes: list[str]) -> None:
        """The foundation moves that end a game with every card face up and no talon."""
        ups = [list(up) for up in state[0]]
        found = list(state[2])
        while sum(found) < CARDS:
            for index, up in enumerate(ups):
                if up and found[SUIT[up[-1]]] == RANK[up[-1]]:
                    found[SUIT[up.pop()]] += 1
                    notes.append(f"t{index + 1}-f")
                    break
            else:  # a hand-made position with cards missing: cannot happen in play
                return

    def auto(self, state: State, notes: list[str] | None) -> State:
        """The state after every safe automatic move (waste top first when drawing one
        card at a time, then the piles from the left, again until none is left)."""
        ups, downs, found, talon, pointer = state
        while True:
            if self.draw == 1 and pointer > 0:
                card = talon[pointer - 1]
                if found[SUIT[card]] == RANK[card] and is_safe(card, found):
                    found = _raise(found, SUIT[card])
                    talon = talon[: pointer - 1] + talon[pointer:]
                    pointer -= 1
                    if notes is not None:
                        notes.append("w-f")
                    continue
            for index in range(PILES):
                up = ups[index]
                if up:
                    card = up[-1]
                    if found[SUIT[card]] == RANK[card] and is_safe(card, found):
                        found = _raise(found, SUIT[card])
                        ups, downs = self._lift(ups, downs, index, 1)
                        if notes is not None:
                            notes.append(f"t{index + 1}-f")
                        break
            else:
                return ups, downs, found, talon, pointer

    def _lift(
        self, ups: Ups, downs: tuple[int, ...], index: int, count: int
    ) -> tuple[Ups, tuple[int, ...]]:
        """Take ``count`` cards off pile ``index``, turning up the card left on top."""
        rest = ups[index][:-count]
        if not rest and downs[index]:
            down = downs[index] - 1
            rest = (self.downs[index][down],)
            downs = (*downs[:index], down, *downs[index + 1 :])
        return (*ups[:index], rest, *ups[index + 1 :]), downs

    def apply(self, state: State, move: Move, notes: list[str] | None = None) -> State:
        ups, downs, found, talon, pointer = state
        kind, a, b, count = move
        if kind == TOP_TO_FOUNDATION:
            found = _raise(found, SUIT[ups[a][-1]])
            ups, downs = self._lift(ups, downs, a, 1)
            if notes is not None:
                notes.append(f"t{a + 1}-f")
        elif kind == PILE_TO_PILE:
            cards = ups[a][-count:]
            ups, downs = self._lift(ups, downs, a, count)
            ups = (*ups[:b], ups[b] + cards, *ups[b + 1 :])
            if notes is not None:
                notes.append(f"t{a + 1}-t{b + 1}" + (f"/{count}" if count > 1 else ""))
        else:
            card = talon[a - 1]
            if notes is not None:
                notes.extend(draws_to(pointer, a, len(talon), self.draw))
            talon = talon[: a - 1] + talon[a:]
            pointer = a - 1
            if kind == TALON_TO_FOUNDATION:
                found = _raise(found, SUIT[card])
                if notes is not None:
                    notes.append("w-f")
            else:
                ups = (*ups[:b], ups[b] + (card,), *ups[b + 1 :])
                if notes is not None:
                    notes.append(f"w-t{b + 1}")
        return self.auto((ups, downs, found, talon, pointer), notes)

    def is_dead(self, state: State) -> bool:
        """Whether some card must leave from over a card of its suit and lower rank (so it
        cannot go home first) and has nowhere to go: not a King, and both cards it could
        be built on are home or under it. Such a card lies in a pile (a face-down card, or
        the run's head, over face-down cards) or, with no recycle, in the waste."""
        ups, downs, found, talon, pointer = state
        stacks = [
            self.downs[index][: downs[index]] + ups[index][:1]
            for index in range(PILES)
            if downs[index]
        ]
        if not self.recycle:
            stacks.append(talon[:pointer])
        for stack in stacks:
            below: set[int] = set()
            lowest = [RUN] * 4
            for card in stack:
                rank = RANK[card]
                suit = SUIT[card]
                if below and rank != KING and lowest[suit] < rank:
                    first, second = OTHER_COLOUR[suit]
                    if (found[first] > rank + 1 or first * RUN + rank + 1 in below) and (
                        found[second] > rank + 1 or second * RUN + rank + 1 in below
                    ):
                        return True
                below.add(card)
                lowest[suit] = min(lowest[suit], rank)
        return False

    def moves(self, state: State) -> list[Move]:
        """Every move the pruning keeps, in the search's order: none in a dead position
        (``is_dead``)."""
        if self.is_dead(state):
            return []
        ups, downs, found, talon, pointer = state
        reach = reachable(pointer, len(talon), self.draw, self.recycle)
        moves: list[Move] = []
        for index in range(PILES):
            up = ups[index]
            if up and found[SUIT[up[-1]]] == RANK[up[-1]]:
                moves.append((TOP_TO_FOUNDATION, index, 0, 0))
        for position in reach:
            card = talon[position - 1]
            if found[SUIT[card]] == RANK[card]:
                moves.append((TALON_TO_FOUNDATION, position, 0, 0))
        empty = -1
        for index in range(PILES):
            if not ups[index] and not downs[index]:
                empty = index
                break
        # Whole runs off face-down cards: each turns a card up.
        for index in sorted(range(PILES), key=lambda pile: (-downs[pile], pile)):
            up = ups[index]
            if not downs[index] or not up:
                continue
            head = up[0]
            if RANK[head] == KING:
                if empty >= 0:
                    moves.append((PILE_TO_PILE, index, empty, len(up)))
                continue
            for target in range(PILES):
                if target != index and ups[target] and fits(head, ups[target][-1]):
                    moves.append((PILE_TO_PILE, index, target, len(up)))
        king_in_talon = False
        for position in reach:
            card = talon[position - 1]
            if RANK[card] == KING:
                king_in_talon = True
                if empty >= 0:
                    moves.append((TALON_TO_PILE, position, empty, 0))
                continue
            for target in range(PILES):
                if ups[target] and fits(card, ups[target][-1]):
                    moves.append((TALON_TO_PILE, position, target, 0))
        # Emptying a pile, only when a King could then come into it with profit.
        if king_in_talon or any(
            downs[index] and ups[index] and RANK[ups[index][0]] == KING for index in range(PILES)
        ):
            for index in range(PILES):
                up = ups[index]
                if downs[index] or not up or RANK[up[0]] == KING:
                    continue
                for target in range(PILES):
                    if target != index and ups[target] and fits(up[0], ups[target][-1]):
                        moves.append((PILE_TO_PILE, index, target, len(up)))
        # Part of a run: only when the card it uncovers goes home or takes the twin.
        place = [-1] * CARDS
        for index in range(PILES):
            for card in ups[index]:
                place[card] = index
        in_reach = {talon[position - 1] for position in reach}
        for index in range(PILES):
            up = ups[index]
            if len(up) < 2:
                continue
            bottom = RANK[up[0]]
            for target in range(PILES):
                if target == index or not ups[target]:
                    continue
                onto = ups[target][-1]
                depth = bottom - RANK[onto] + 1
                if depth < 1 or depth >= len(up) or RED[up[depth]] == RED[onto]:
                    continue
                uncovered = up[depth - 1]
                twin = TWIN[up[depth]]
                if found[SUIT[uncovered]] == RANK[uncovered] or (
                    not self.strict
                    and ((place[twin] >= 0 and place[twin] != index) or twin in in_reach)
                ):
                    moves.append((PILE_TO_PILE, index, target, len(up) - depth))
        moves.sort(key=lambda move: -priority(ups, downs, move))
        return moves

    # The search

    def run(
        self, root: State, max_nodes: int | None, deadline: float | None
    ) -> tuple[int, list[Move]]:
        """(WON, the moves from the root) or (LOST or UNKNOWN, []). ``root`` must have
        had its automatic moves made (``auto``)."""
        self.nodes = 1
        if self.is_won(root):
            return WON, []
        # Each position seen, with the pointers (a bit mask) it was seen with.
        seen = {self.key(root): 1 << self.point(root)}
        states = [root]
        lists = [self.moves(root)]
        cursor = [0]
        while lists:
            moves = lists[-1]
            at = cursor[-1]
            if at == len(moves):
                lists.pop()
                cursor.pop()
                states.pop()
                continue
            cursor[-1] = at + 1
            child = self.apply(states[-1], moves[at])
            if self.is_won(child):
                return WON, [lists[depth][cursor[depth] - 1] for depth in range(len(lists))]
            key = self.key(child)
            point = self.point(child)
            pointers = seen.get(key, 0)
            # The narrow pass looks for a win only: a position seen with any pointer is
            # not searched again (a loss is proved by the whole pass alone).
            if pointers & (ALL_POINTERS if self.strict else self.dominators[point]):
                continue
            if (max_nodes is not None and self.nodes >= max_nodes) or len(seen) >= MAX_STATES:
                return UNKNOWN, []
            if deadline is not None and self.nodes % TIME_CHECK == 0 and perf_counter() > deadline:
                return UNKNOWN, []
            seen[key] = pointers | 1 << point
            self.nodes += 1
            if len(states) >= MAX_DEPTH:
                return UNKNOWN, []
            states.append(child)
            lists.append(self.moves(child))
            cursor.append(0)
        return LOST, []

    def solve(
        self, root: State, max_nodes: int | None, deadline: float | None
    ) -> tuple[int, list[Move]]:
        """``run`` twice: first with partial moves only where the uncovered card goes
        home (most won deals are won so, in far fewer nodes), then, only when that narrower
        space holds no win, over the whole space, which alone can prove a loss. The node
        count is the two searches' sum."""
        self.strict = True
        verdict, path = self.run(root, max_nodes, deadline)
        first = self.nodes
        if verdict != LOST:
            return verdict, path
        if max_nodes is not None and max_nodes - first < 1:
            return UNKNOWN, []
        self.strict = False
        verdict, path = self.run(root, None if max_nodes is None else max_nodes - first, deadline)
        self.nodes += first
        return verdict, path

    def line(self, root: State, path: Sequence[Move]) -> list[str]:
        """The notation of a won path from ``root`` (before its automatic moves)."""
        notes: list[str] = []
        state = self.auto(root, notes)
        for move in path:
            state = self.apply(state, move, notes)
        self.finish(state, notes)
        return notes


def _raise(found: tuple[int, ...], suit: int) -> tuple[int, ...]:
    return (*found[:suit], found[suit] + 1, *found[suit + 1 :])
