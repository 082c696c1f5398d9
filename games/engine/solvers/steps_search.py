"""The Steps search itself, on small integers: the pure-Python path of ``StepsSolver``
and the exact model of the compiled core (native/steps.c), which does the same steps in
the same order, so that both give the same verdict, line and node count within the same
node budget.

Cards are numbers 0..51: ``suit * 13 + rank - 1`` (suits in the order S, H, D, C; hearts
and diamonds red). A position is ``(down, up, found, talon, waste, recycles, slots)``:

- ``down``, ``up``: per pile, its face-down cards and its face-up cards, bottom first (the
  face-up cards are always a valid sequence in the Klondike family);
- ``found``: the four foundation heights;
- ``talon``: the stock and the waste as one sequence in the order they are drawn
  (the waste bottom first, then the stock's next card first); ``waste`` of them lie on
  the waste, the top one last. A recycle turns the waste back without changing this
  order, so a card's place in the talon only changes when a card before it leaves;
- ``recycles``: the recycles used; ``slots``: the four reserve slots (-1 for empty).

The search is a depth-first search over the whole reachable graph with a transposition
table of canonical positions (the face-down cards of a pile never move, so a pile with
face-down cards keeps its place; the piles without are a sorted multiset, the slots
too). Its moves, tried best first (``moves_of``), are macro moves: a card of the talon
that some draws (and at most one recycle) bring to the top, played at once, is one move
(``talon_reach``). After every move the safe foundation moves are made (``settle``).
It answers won with the line found, lost when every reachable position was expanded
without a win and without reaching the depth cap, unknown otherwise.
"""

from time import perf_counter

RUN = 13
PILES = 7
SLOTS = 4
WON = 1
LOST = 0
UNKNOWN = -1
MAX_DEPTH = 4000
"""Deeper paths are cut (the verdict then cannot be lost)."""
TIME_CHECK = 256

# Move kinds: (kind, a, b, c).
TF, TT, SF, ST, WF, WT, WS, TS, FT = range(9)
# TF (pile, 0, 0) top to foundation; TT (pile, pile, count); SF (slot, 0, 0);
# ST (slot, pile, 0); WF (q, 0, recycle); WT (q, pile, recycle); WS (q, slot, recycle):
# the talon's card number q (1-based) after the draws (and the recycle) that bring it to
# the top; TS (pile, slot, 0); FT (suit, pile, 0) a retrieval.

MoveT = tuple[int, int, int, int]
Cards = tuple[int, ...]
Position = tuple[
    tuple[Cards, ...], tuple[Cards, ...], tuple[int, ...], Cards, int, int, tuple[int, ...]
]


def rank(card: int) -> int:
    return card % RUN + 1


def suit(card: int) -> int:
    return card // RUN


RANK = tuple(rank(card) for card in range(52))
SUIT = tuple(suit(card) for card in range(52))
OTHER = ((1, 2), (0, 3), (0, 3), (1, 2))
"""The suits of the other colour."""
BASES = tuple(
    tuple(other * RUN + RANK[card] for other in OTHER[SUIT[card]]) if RANK[card] < RUN else ()
    for card in range(52)
)
"""The two cards a card builds on (one rank higher, the other colour); none for a King."""


def safe(card: int, found: tuple[int, ...], retrieval: bool) -> bool:
    """Whether putting the card up can never hurt: an Ace or a Two always; without
    retrieval, also once both foundations of the other colour hold the rank below."""
    value = RANK[card]
    if value <= 2:
        return True
    if retrieval:
        return False
    low, high = OTHER[SUIT[card]]
    return found[low] >= value - 1 and found[high] >= value - 1


def talon_reach(length: int, waste: int, draw: int, recycle: bool) -> list[tuple[int, int]]:
    """The talon cards that can be brought to the top of the waste, as (q, recycle):
    first this pass's (the top itself, then each draw's), then, with a recycle left, the
    next pass's that this pass does not reach."""
    here: list[int] = [waste] if waste else []
    position = waste
    while position < length:
        position = min(position + draw, length)
        here.append(position)
    reach = [(q, 0) for q in here]
    if recycle:
        position = 0
        while position < length:
            position = min(position + draw, length)
            if position not in here:
                reach.append((position, 1))
    return reach


def _draws(start: int, end: int, draw: int) -> int:
    return -(-(end - start) // draw)


def talon_moves(length: int, waste: int, q: int, recycle: int, draw: int) -> list[str]:
    """The draws and recycle that bring talon card q to the top."""
    if not recycle:
        return ["draw"] * _draws(waste, q, draw)
    return ["draw"] * _draws(waste, length, draw) + ["recycle"] + ["draw"] * _draws(0, q, draw)


def key_of(position: Position) -> bytes:
    """The canonical position, packed in bytes (a few times smaller than tuples, so the
    table holds millions): the face-down counts pile by pile, the face-up cards of each
    pile with face-down cards in pile order, then those of the other piles sorted (each
    pile ended by 255), the foundations, the slots sorted, the waste and the recycles."""
    down, up, found, _, waste, recycles, slots = position
    fixed = [bytes(len(cards) for cards in down)]
    loose = []
    for index in range(PILES):
        if down[index]:
            fixed.append(bytes((*up[index], 255)))
        else:
            loose.append(bytes((*up[index], 255)))
    loose.sort()
    tail = bytes((*found, *sorted(card + 1 for card in slots), waste, recycles))
    return b"".join(fixed) + b"".join(loose) + tail


class Rules:
    """The options of the deal and the text of the moves."""

    def __init__(self, draw: int, buffers: int, recycles: int, retrieval: bool) -> None:
        self.draw = draw
        self.buffers = buffers
        self.recycles = recycles
        self.retrieval = retrieval


def _lift(down: list[Cards], up: list[Cards], index: int, count: int) -> Cards:
    """Takes the top ``count`` cards off a pile, turning up a face-down card left on top."""
    cards = up[index]
    rest = cards[:-count]
    if not rest and down[index]:
        rest = (down[index][-1],)
        down[index] = down[index][:-1]
    up[index] = rest
    return cards[-count:]


def apply(rules: Rules, position: Position, move: MoveT) -> tuple[Position, list[str]]:
    """The position after a move and its safe foundation moves, with their text."""
    down_t, up_t, found_t, talon, waste, recycles, slots_t = position
    down, up, found, slots = list(down_t), list(up_t), list(found_t), list(slots_t)
    kind, a, b, c = move
    texts: list[str]
    if kind in (WF, WT, WS):
        texts = talon_moves(len(talon), waste, a, c, rules.draw)
        card = talon[a - 1]
        talon = talon[: a - 1] + talon[a:]
        waste = a - 1
        recycles += c
        if kind == WF:
            found[SUIT[card]] += 1
            texts.append("w-f")
        elif kind == WT:
            up[b] = (*up[b], card)
            texts.append(f"w-t{b + 1}")
        else:
            slots[b] = card
            texts.append(f"w-r{b + 1}")
    elif kind == TF:
        card = _lift(down, up, a, 1)[0]
        found[SUIT[card]] += 1
        texts = [f"t{a + 1}-f"]
    elif kind == TT:
        up[b] = up[b] + _lift(down, up, a, c)
        texts = [f"t{a + 1}-t{b + 1}" + (f"/{c}" if c > 1 else "")]
    elif kind == TS:
        slots[b] = _lift(down, up, a, 1)[0]
        texts = [f"t{a + 1}-r{b + 1}"]
    elif kind == SF:
        found[SUIT[slots[a]]] += 1
        slots[a] = -1
        texts = [f"r{a + 1}-f"]
    elif kind == ST:
        up[b] = (*up[b], slots[a])
        slots[a] = -1
        texts = [f"r{a + 1}-t{b + 1}"]
    else:  # FT
        found[a] -= 1
        up[b] = (*up[b], a * RUN + found[a])
        texts = [f"f{'SHDC'[a]}-t{b + 1}"]
    talon, waste = settle(rules, down, up, found, slots, talon, waste, texts)
    return (tuple(down), tuple(up), tuple(found), talon, waste, recycles, tuple(slots)), texts


def _up_safe(card: int, found: list[int], retrieval: bool) -> bool:
    return found[SUIT[card]] == RANK[card] - 1 and safe(card, tuple(found), retrieval)


def _usually_safe(card: int, found: tuple[int, ...]) -> bool:
    """Whether the card fits its foundation and the usual safe rule (retrieval off) holds."""
    return found[SUIT[card]] == RANK[card] - 1 and safe(card, found, False)


def settle(
    rules: Rules,
    down: list[Cards],
    up: list[Cards],
    found: list[int],
    slots: list[int],
    talon: Cards,
    waste: int,
    texts: list[str],
) -> tuple[Cards, int]:
    """Makes the safe foundation moves in place, piles from the left, then the slots,
    then (with draw 1 only: with draw 3 taking a card out of the talon changes which
    cards the draws reach) the waste top, again until none is left; the talon after."""
    retrieval = rules.retrieval
    going = True
    while going:
        going = False
        for index in range(PILES):
            while up[index] and _up_safe(up[index][-1], found, retrieval):
                card = _lift(down, up, index, 1)[0]
                found[SUIT[card]] += 1
                texts.append(f"t{index + 1}-f")
                going = True
        for slot in range(SLOTS):
            card = slots[slot]
            if card >= 0 and _up_safe(card, found, retrieval):
                found[SUIT[card]] += 1
                slots[slot] = -1
                texts.append(f"r{slot + 1}-f")
                going = True
        if rules.draw == 1:
            while waste and _up_safe(talon[waste - 1], found, retrieval):
                found[SUIT[talon[waste - 1]]] += 1
                talon = talon[: waste - 1] + talon[waste:]
                waste -= 1
                texts.append("w-f")
                going = True
    return talon, waste


def moves_of(rules: Rules, position: Position) -> list[MoveT]:
    """The moves of a position, best first: the foundation moves of cards the usual safe
    rule would put up (``eager``); the moves that turn a card up (a lone face-up
    card to its foundation, a whole face-up stack onto another pile, a lone face-up card
    into a slot; each from the piles with the most face-down cards first); the other
    foundation moves (piles, slots, talon); talon cards onto piles; slot cards onto piles;
    whole stacks that empty a pile; part of a stack onto another pile; other pile tops
    into a slot; talon cards into a slot; retrievals.
    Dominance: of the empty piles only the first is a target (they are alike), and a
    King-headed stack goes to an empty pile only off face-down cards."""
    down, up, found, talon, waste, recycles, slots = position
    moves: list[MoveT] = []
    empty = next((j for j in range(PILES) if not up[j]), -1)
    free = next((s for s in range(rules.buffers) if slots[s] < 0), -1)
    reach = talon_reach(len(talon), waste, rules.draw, recycles < rules.recycles)
    tops = {up[j][-1]: j for j in range(PILES) if up[j]}

    def onto(card: int) -> list[int]:
        """The piles with cards whose top takes ``card``, from the left."""
        piles = [tops[base] for base in BASES[card] if base in tops]
        if len(piles) == 2 and piles[0] > piles[1]:
            piles.reverse()
        return piles

    def into(card: int) -> list[int]:
        """The piles that take ``card``: ``onto``, then the first empty pile for a King."""
        piles = onto(card)
        if empty >= 0 and RANK[card] == RUN:
            piles.append(empty)
        return piles

    # First the foundation moves that the usual safe rule would make by themselves where
    # settle() may not (with retrieval on; the waste top with draw 3): pile tops from the
    # left, slots, the waste top.
    eager = [(TF, i, 0, 0) for i in range(PILES) if up[i] and _usually_safe(up[i][-1], found)]
    eager += [
        (SF, s, 0, 0)
        for s in range(rules.buffers)
        if slots[s] >= 0 and _usually_safe(slots[s], found)
    ]
    if waste and _usually_safe(talon[waste - 1], found):
        eager.append((WF, waste, 0, 0))
    moves += eager
    # The piles with the most face-down cards first (then from the left).
    order = sorted(range(PILES), key=lambda i: -len(down[i]))
    for i in order:
        cards = up[i]
        reveals = down[i] and len(cards) == 1 and found[SUIT[cards[0]]] == RANK[cards[0]] - 1
        if reveals and (TF, i, 0, 0) not in eager:
            moves.append((TF, i, 0, 0))
    for i in order:
        if down[i]:
            moves.extend((TT, i, j, len(up[i])) for j in into(up[i][0]) if j != i)
    if free >= 0:
        moves.extend((TS, i, free, 0) for i in order if down[i] and len(up[i]) == 1)
    for i in range(PILES):
        cards = up[i]
        top_fits = bool(cards) and found[SUIT[cards[-1]]] == RANK[cards[-1]] - 1
        if top_fits and not (down[i] and len(cards) == 1) and (TF, i, 0, 0) not in eager:
            moves.append((TF, i, 0, 0))
    for s in range(rules.buffers):
        card = slots[s]
        if card >= 0 and found[SUIT[card]] == RANK[card] - 1 and (SF, s, 0, 0) not in eager:
            moves.append((SF, s, 0, 0))
    for q, rec in reach:
        card = talon[q - 1]
        if found[SUIT[card]] == RANK[card] - 1 and (WF, q, 0, rec) not in eager:
            moves.append((WF, q, 0, rec))
    for q, rec in reach:
        moves.extend((WT, q, j, rec) for j in into(talon[q - 1]))
    for s in range(rules.buffers):
        card = slots[s]
        if card >= 0:
            moves.extend((ST, s, j, 0) for j in into(card))
    for i in range(PILES):
        if up[i] and not down[i]:
            moves.extend((TT, i, j, len(up[i])) for j in onto(up[i][0]) if j != i)
    for i in range(PILES):
        cards = up[i]
        for count in range(1, len(cards)):
            moves.extend((TT, i, j, count) for j in onto(cards[-count]) if j != i)
    if free >= 0:
        moves.extend(
            (TS, i, free, 0) for i in range(PILES) if up[i] and not (down[i] and len(up[i]) == 1)
        )
        moves.extend((WS, q, free, rec) for q, rec in reach)
    if rules.retrieval:
        for s in range(4):
            if found[s]:
                moves.extend((FT, s, j, 0) for j in into(s * RUN + found[s] - 1))
    return moves


def search(
    rules: Rules,
    start: Position,
    *,
    max_nodes: int | None,
    deadline: float | None,
) -> tuple[int, list[MoveT], int]:
    """(verdict, the moves of the line when won, nodes expanded). ``start`` must be
    settled already (``settle``)."""
    if sum(start[2]) == 52:
        return WON, [], 0
    seen = {key_of(start)}
    stack: list[tuple[Position, list[MoveT], int]] = [(start, moves_of(rules, start), 0)]
    line: list[MoveT] = []
    nodes = 1
    cut = False
    limit = max_nodes if max_nodes is not None else -1
    while stack:
        position, moves, index = stack[-1]
        if index == len(moves):
            stack.pop()
            if line:
                line.pop()
            continue
        move = moves[index]
        stack[-1] = (position, moves, index + 1)
        child, _ = apply(rules, position, move)
        if sum(child[2]) == 52:
            line.append(move)
            return WON, line, nodes
        key = key_of(child)
        if key in seen:
            continue
        seen.add(key)
        if nodes == limit:
            return UNKNOWN, [], nodes
        if deadline is not None and nodes % TIME_CHECK == 0 and perf_counter() > deadline:
            return UNKNOWN, [], nodes
        if len(stack) >= MAX_DEPTH:
            cut = True
            continue
        nodes += 1
        line.append(move)
        stack.append((child, moves_of(rules, child), 0))
    return (UNKNOWN if cut else LOST), [], nodes
