"""Naive reference implementations of every game's move rules, for scripts/bench_engine.py.

Deliberately simple: a state is a few mutable lists, ``apply`` changes it in place, moves
are notation text, every question is answered from scratch (no lookup tables, no
caches, no canonical encodings beyond what the rules need). They give the same legal
moves as the engine at every step (tests/engine/test_bench_reference.py checks it), so
the benchmark's ratio compares the same work done two ways.

Deciding that a game is lost (Kingsley, Spiderette, Steps) is part of the legal moves,
since a lost game has none: the reference does it by a plain breadth-first search over
its own moves, each successor a copied state, over positions compared as the engine's
search compares them (docs/engine.md#lost-games) and with the same cap, so that it
reaches the same verdicts: a position is lost exactly when no productive move is
reachable and the positions reachable are no more than the cap, whatever the order.

Not part of the engine and not imported by it.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine import Move, Variant, format_move

RANKS = "A23456789TJQK"
SUITS = "SHDC"
KING = 13


def rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


def red(card: str) -> bool:
    return card[1] in "HD"


def builds_on(card: str, onto: str) -> bool:
    """Klondike-family building: one rank lower, the other colour."""
    return rank(card) == rank(onto) - 1 and red(card) != red(onto)


def split(move: str) -> tuple[str, str, int]:
    """``"t2-t5/3"`` -> ("t2", "t5", 3)."""
    body, _, count = move.partition("/")
    src, _, dst = body.partition("-")
    return src, dst, int(count) if count else 1


def transfer(src: str, dst: str, count: int = 1) -> str:
    return f"{src}-{dst}" if count == 1 else f"{src}-{dst}/{count}"


def naive_lost(
    state: Any,
    moves: Callable[[Any], list[str]],
    apply: Callable[[Any, str], None],
    productive: Callable[[Any, Any, str], bool],
    key: Callable[[Any], object],
    cap: int,
) -> bool:
    """Breadth first over non-productive moves: True when no productive move is
    reachable and the whole reachable space is at most ``cap`` positions."""
    seen = {key(state)}
    queue = [state]
    at = 0
    while at < len(queue):
        position = queue[at]
        at += 1
        for move in moves(position):
            after = position.copy()
            apply(after, move)
            if productive(position, after, move):
                return False
            seen_key = key(after)
            if seen_key not in seen:
                if len(seen) >= cap:
                    return False  # undecided: not lost
                seen.add(seen_key)
                queue.append(after)
    return True


# The Klondike family: Klondike, Kingsley, Steps


class FamilyState:
    def __init__(self, deck: Sequence[str], draw: int) -> None:
        self.piles: list[list[list[str]]] = []  # [down, up] per pile, bottom first
        at = 0
        for size in range(1, 8):
            cards = list(deck[at : at + size])
            self.piles.append([cards[:-1], cards[-1:]])
            at += size
        self.stock = list(deck[at:])  # the last card is drawn first
        self.waste: list[str] = []
        self.foundations = [0, 0, 0, 0]  # heights, suits S H D C
        self.draw = draw
        self.recycles = 0
        self.recycles_allowed = 0
        self.score = 0
        self.slots: list[str | None] = []  # Steps' reserve slots of the deal
        self.retrieval = False

    def copy(self) -> "FamilyState":
        other = FamilyState.__new__(FamilyState)
        other.__dict__.update(self.__dict__)
        other.piles = [[list(down), list(up)] for down, up in self.piles]
        other.stock = list(self.stock)
        other.waste = list(self.waste)
        other.foundations = list(self.foundations)
        other.slots = list(self.slots)
        return other


def fits(card: str, foundations: list[int]) -> bool:
    return foundations[SUITS.index(card[1])] == rank(card) - 1


def is_sequence(cards: list[str]) -> bool:
    return all(builds_on(cards[i + 1], cards[i]) for i in range(len(cards) - 1))


def takes(pile: list[list[str]], card: str) -> bool:
    up = pile[1]
    return builds_on(card, up[-1]) if up else rank(card) == KING


def family_moves(state: FamilyState) -> list[str]:
    """Every move of the family's rules (and Steps' slots), lost or not."""
    if state.foundations == [KING] * 4:
        return []
    moves = []
    piles = state.piles
    if state.waste:
        card = state.waste[-1]
        if fits(card, state.foundations):
            moves.append("w-f")
        for target in range(7):
            if takes(piles[target], card):
                moves.append(transfer("w", f"t{target + 1}"))
    for source in range(7):
        up = piles[source][1]
        if up and fits(up[-1], state.foundations):
            moves.append(f"t{source + 1}-f")
        for count in range(1, len(up) + 1):
            if not is_sequence(up[-count:]):
                break
            for target in range(7):
                if target != source and takes(piles[target], up[-count]):
                    moves.append(transfer(f"t{source + 1}", f"t{target + 1}", count))
    if state.stock:
        moves.append("draw")
    elif state.waste and state.recycles < state.recycles_allowed:
        moves.append("recycle")
    for slot, held in enumerate(state.slots):
        place = f"r{slot + 1}"
        if held is None:
            if state.waste:
                moves.append(f"w-{place}")
            moves.extend(f"t{source + 1}-{place}" for source in range(7) if piles[source][1])
        else:
            if fits(held, state.foundations):
                moves.append(f"{place}-f")
            moves.extend(
                f"{place}-t{target + 1}" for target in range(7) if takes(piles[target], held)
            )
    if state.retrieval:
        for suit in range(4):
            height = state.foundations[suit]
            if height:
                card = RANKS[height - 1] + SUITS[suit]
                moves.extend(
                    f"f{SUITS[suit]}-t{target + 1}"
                    for target in range(7)
                    if takes(piles[target], card)
                )
    return moves


def family_apply(state: FamilyState, move: str) -> None:
    if move == "draw":
        for _ in range(min(state.draw, len(state.stock))):
            state.waste.append(state.stock.pop())
        return
    if move == "recycle":
        state.stock = state.waste[::-1]
        state.waste = []
        state.recycles += 1
        return
    src, dst, count = split(move)
    if src == "w":
        cards = [state.waste.pop()]
    elif src[0] == "r":
        slot = int(src[1:]) - 1
        cards = [str(state.slots[slot])]
        state.slots[slot] = None
    elif src[0] == "f":
        suit = SUITS.index(src[1])
        cards = [RANKS[state.foundations[suit] - 1] + src[1]]
        state.foundations[suit] -= 1
    else:
        down, up = state.piles[int(src[1:]) - 1]
        cards = up[-count:]
        del up[-count:]
        if not up and down:
            up.append(down.pop())
    if dst == "f":
        state.foundations[SUITS.index(cards[0][1])] += 1
    elif dst[0] == "r":
        state.slots[int(dst[1:]) - 1] = cards[0]
    else:
        state.piles[int(dst[1:]) - 1][1].extend(cards)


def face_down(state: FamilyState) -> int:
    return sum(len(down) for down, _ in state.piles)


class Klondike:
    """Draw 3, the waste turned back as often as the player likes, the fourth and later
    recycles charged 20 points."""

    def deal(self, deck: Sequence[str], options: Mapping[str, object]) -> FamilyState:
        state = FamilyState(deck, 3)
        state.recycles_allowed = 10**9
        return state

    def legal_moves(self, state: FamilyState) -> list[str]:
        return family_moves(state)

    def apply(self, state: FamilyState, move: str) -> None:
        family_apply(state, move)
        if move == "recycle" and state.recycles > 3:
            state.score -= 20


def family_key(state: FamilyState) -> object:
    """The engine's position for the family's searches: the piles as (face-down cards,
    face-up cards), sorted, the cards in the slots, sorted, and the foundations."""
    piles = sorted((tuple(down), tuple(up)) for down, up in state.piles)
    slots = sorted(card for card in state.slots if card is not None)
    return tuple(piles), tuple(slots), tuple(state.foundations)


class Kingsley:
    """Draw 1, one pass; lost when the stock is empty and no productive move (a card to a
    foundation, the waste card anywhere, a card turned up) is reachable."""

    cap = 20_000

    def deal(self, deck: Sequence[str], options: Mapping[str, object]) -> FamilyState:
        return FamilyState(deck, 1)

    def legal_moves(self, state: FamilyState) -> list[str]:
        moves = family_moves(state)
        if moves and not state.stock and self.is_lost(state):
            return []
        return moves

    def apply(self, state: FamilyState, move: str) -> None:
        family_apply(state, move)
        state.score = sum(state.foundations)

    def is_lost(self, state: FamilyState) -> bool:
        return naive_lost(state, family_moves, family_apply, self.productive, family_key, self.cap)

    @staticmethod
    def productive(before: FamilyState, after: FamilyState, move: str) -> bool:
        src, dst, _ = split(move)
        return src == "w" or dst == "f" or face_down(after) < face_down(before)


class Steps(Kingsley):
    """The family with the deal's options (draw 1 or 3, reserve slots, recycles,
    retrieval); lost as Kingsley, a recycle left and the waste leaving being productive,
    and a card to a foundation only while the foundations are as high as where the
    search started."""

    def deal(self, deck: Sequence[str], options: Mapping[str, object]) -> FamilyState:
        state = FamilyState(deck, int(options.get("draw", 1)))  # type: ignore[call-overload]
        state.slots = [None] * int(options.get("buffers", 4))  # type: ignore[call-overload]
        state.recycles_allowed = int(options.get("recycles", 3))  # type: ignore[call-overload]
        state.retrieval = bool(options.get("retrieval", False))
        return state

    def is_lost(self, state: FamilyState) -> bool:
        if state.waste and state.recycles < state.recycles_allowed:
            return False
        start = sum(state.foundations)

        def productive(before: FamilyState, after: FamilyState, move: str) -> bool:
            if move in ("draw", "recycle"):
                return True
            src, dst, _ = split(move)
            raising = dst == "f" and sum(before.foundations) >= start
            return src == "w" or raising or face_down(after) < face_down(before)

        cap = 5_000 if state.retrieval else 20_000
        return naive_lost(state, family_moves, family_apply, productive, family_key, cap)


# Spiderette


class SpideretteState:
    def __init__(self, deck: Sequence[str]) -> None:
        family = FamilyState(deck, 1)
        self.piles = family.piles
        self.stock = family.stock
        self.removed: list[str] = []

    def copy(self) -> "SpideretteState":
        other = SpideretteState.__new__(SpideretteState)
        other.piles = [[list(down), list(up)] for down, up in self.piles]
        other.stock = list(self.stock)
        other.removed = list(self.removed)
        return other


def suit_run(up: list[str]) -> int:
    """How many top cards form a descending run of one suit."""
    length = 1 if up else 0
    while (
        length < len(up)
        and up[-length][1] == up[-length - 1][1]
        and rank(up[-length]) == rank(up[-length - 1]) - 1
    ):
        length += 1
    return length


class Spiderette:
    """Build down regardless of suit, move runs of one suit, a K-A run of one suit
    leaves at once; deal a row when every pile holds a card; lost when the stock is
    empty and nothing productive (a card turned up, a run completed) is reachable."""

    cap = 5_000

    def deal(self, deck: Sequence[str], options: Mapping[str, object]) -> SpideretteState:
        return SpideretteState(deck)

    def moves(self, state: SpideretteState) -> list[str]:
        if len(state.removed) == 4:
            return []
        piles = state.piles
        moves = []
        for source in range(7):
            up = piles[source][1]
            for count in range(1, suit_run(up) + 1):
                for target in range(7):
                    if target == source:
                        continue
                    onto = piles[target][1]
                    if not onto or rank(onto[-1]) == rank(up[-count]) + 1:
                        moves.append(transfer(f"t{source + 1}", f"t{target + 1}", count))
        on_table = sum(len(down) + len(up) for down, up in piles)
        if state.stock and (all(up for _, up in piles) or on_table < 7):
            moves.append("deal")
        return moves

    def legal_moves(self, state: SpideretteState) -> list[str]:
        moves = self.moves(state)
        if moves and not state.stock and self.is_lost(state):
            return []
        return moves

    def apply(self, state: SpideretteState, move: str) -> None:
        if move == "deal":
            for index in range(min(7, len(state.stock))):
                state.piles[index][1].append(state.stock.pop())
                self.remove_run(state, index)
            return
        src, dst, count = split(move)
        down, up = state.piles[int(src[1:]) - 1]
        cards = up[-count:]
        del up[-count:]
        if not up and down:
            up.append(down.pop())
        state.piles[int(dst[1:]) - 1][1].extend(cards)
        self.remove_run(state, int(dst[1:]) - 1)

    @staticmethod
    def remove_run(state: SpideretteState, index: int) -> None:
        down, up = state.piles[index]
        if len(up) >= 13 and up[-1][0] == "A" and suit_run(up) >= 13:
            state.removed.append(up[-1][1])
            del up[-13:]
            if not up and down:
                up.append(down.pop())

    def is_lost(self, state: SpideretteState) -> bool:
        def productive(before: SpideretteState, after: SpideretteState, move: str) -> bool:
            hidden = sum(len(down) for down, _ in before.piles)
            return len(after.removed) > len(before.removed) or hidden > sum(
                len(down) for down, _ in after.piles
            )

        def key(state: SpideretteState) -> object:
            # Which cards lie face down never matters to the search: only whether any do.
            return tuple(sorted((bool(down), tuple(up)) for down, up in state.piles))

        return naive_lost(state, self.moves, self.apply, productive, key, self.cap)


# Spike

SPIKE_ROWS = (2, 3, 4, 3, 2)
SPIKE_PLACES = [
    (spike, row, column)
    for spike, rows in enumerate(SPIKE_ROWS)
    for row in range(rows)
    for column in range(row + 1)
]
"""The 28 positions (spike, row, column) in deal order."""
SPIKE_COVERS = [
    [
        other
        for other, place in enumerate(SPIKE_PLACES)
        if place in ((spike, row + 1, column), (spike, row + 1, column + 1))
    ]
    for spike, row, column in SPIKE_PLACES
]
"""The positions covering each position: the layout, as the rulebook draws it."""


class SpikeState:
    def __init__(self, deck: Sequence[str]) -> None:
        self.spikes: list[str | None] = list(deck[:28])
        self.stock = list(deck[28:-1])
        self.waste = list(deck[-1:])
        self.wild_used = False
        self.streak = 0
        self.score = 0
        self.draw_ends_streak = True


class Spike:
    """An exposed card (both cards below it in its spike gone) goes on the waste one rank
    above or below its top, King and Ace neighbours; draw; one wild card a game."""

    def deal(self, deck: Sequence[str], options: Mapping[str, object]) -> SpikeState:
        state = SpikeState(deck)
        state.draw_ends_streak = options.get("mode", "classic") != "relaxed"
        return state

    @staticmethod
    def exposed(state: SpikeState, position: int) -> bool:
        return state.spikes[position] is not None and all(
            state.spikes[cover] is None for cover in SPIKE_COVERS[position]
        )

    def legal_moves(self, state: SpikeState) -> list[str]:
        if all(card is None for card in state.spikes):
            return []
        top = state.waste[-1]
        moves = []
        for position, card in enumerate(state.spikes):
            if (
                card is not None
                and self.exposed(state, position)
                and (top == "WILD" or (rank(card) - rank(top)) % 13 in (1, 12))
            ):
                moves.append(card)
        if state.stock:
            moves.append("draw")
        if not state.wild_used:
            moves.append("wild")
        return moves

    def apply(self, state: SpikeState, move: str) -> None:
        if move == "draw":
            state.waste.append(state.stock.pop())
            if state.draw_ends_streak:
                state.streak = 0
        elif move == "wild":
            state.waste.append("WILD")
            state.wild_used = True
        else:
            position = state.spikes.index(move)
            state.spikes[position] = None
            state.waste.append(move)
            state.streak += 1
            place = state.streak
            state.score += 300 if place >= 8 else 200 if place >= 5 else 150 if place >= 3 else 100
            spike = SPIKE_PLACES[position][0]
            if all(
                state.spikes[other] is None
                for other, place in enumerate(SPIKE_PLACES)
                if place[0] == spike
            ):
                state.score += 1000
            if all(card is None for card in state.spikes):
                state.score += 500 * len(state.stock)


REFERENCES: dict[str, Any] = {
    "klondike": Klondike(),
    "kingsley": Kingsley(),
    "spiderette": Spiderette(),
    "spike": Spike(),
    "steps": Steps(),
}
"""The naive implementation of each game, by the engine's variant key (the Steps Duel,
a two-player game, has none)."""


def disagreement(
    variant: Variant[Any],
    reference: Any,
    deck: Sequence[str],
    moves: Sequence[Move],
    options: Mapping[str, object],
) -> str | None:
    """Play ``moves`` from ``deck`` with the engine and the reference side by side: what
    differs first between their legal moves (after the moves played so far), or None
    when they agree at every step, the last position included."""
    state = variant.deal(deck, options)
    mirror = reference.deal(deck, variant.normalize_options(options))
    for step in range(len(moves) + 1):
        ours = sorted(map(format_move, variant.legal_moves(state)))
        theirs = sorted(reference.legal_moves(mirror))
        if ours != theirs:
            return (
                f"after {step} moves the legal moves differ:\n  engine    {ours}\n"
                f"  reference {theirs}"
            )
        if step < len(moves):
            state = variant.apply(state, moves[step]).state
            reference.apply(mirror, format_move(moves[step]))
    return None
