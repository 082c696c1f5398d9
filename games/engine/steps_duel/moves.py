"""The Duel's moves on the shared board: which are legal, making a transfer and taking it
back. Building, sequences and empty piles are the Klondike family's (its public
functions); the pillars are the Duel's own (two per suit, ``state.pillar_for``)."""

from dataclasses import dataclass, replace

from ..cards import RANK_VALUE, card_name
from ..errors import EngineError
from ..klondike_family import SEQUENCE, TAKES, pile_refusal, placement_problem
from ..notation import (
    DRAW,
    FOUNDATION,
    FOUNDATION_SOURCES,
    MAX_COUNT,
    PASS,
    RECYCLE,
    RESERVE_PLACES,
    TABLEAU_PLACES,
    TRANSFER,
    WASTE,
    Move,
)
from ..records import misfit
from ..tableau import PILE_INDEX, Pile, lift, replace_pile, turn_down, turn_up
from .state import KING, RECYCLES, DuelState, pillar_for, pillar_of_top, pillar_problem, raised

DRAW_MOVE = Move(DRAW)
RECYCLE_MOVE = Move(RECYCLE)
PASS_MOVE = Move(PASS)
RESERVE_INDEX = {place: index for index, place in enumerate(RESERVE_PLACES)}
PERMANENCE = "A card on a pillar stays there: the Duel is played with foundation permanence"

_SINGLE_SOURCES = (WASTE, *RESERVE_PLACES)
TRANSFERS = {
    (src, dst, count): Move(TRANSFER, src, dst, count)
    for src in (*_SINGLE_SOURCES, *TABLEAU_PLACES)
    for dst in (FOUNDATION, *TABLEAU_PLACES, *RESERVE_PLACES)
    for count in range(1, (MAX_COUNT if src in TABLEAU_PLACES else 1) + 1)
    if src != dst and not (src in RESERVE_PLACES and dst in RESERVE_PLACES)
}


@dataclass(frozen=True, slots=True)
class Transferred:
    state: DuelState
    """The board after the transfer; turn, scores and counters not yet updated."""
    cards: tuple[str, ...]
    revealed: tuple[str, ...]


def is_progress(move: Move, revealed: bool) -> bool:
    """Whether a move can change the outcome: a card onto a pillar, a card turned up,
    the waste card leaving the waste, a draw or a recycle. Passes and rearrangements of
    the tableau and the slots are not (``revealed``: the move turns a card up)."""
    if move.kind in (DRAW, RECYCLE):
        return True
    if move.kind != TRANSFER:
        return False
    return revealed or move.src == WASTE or move.dst == FOUNDATION


def board_moves(state: DuelState) -> list[Move]:
    """Every legal move but the pass, in a stable order: to the pillars (waste, piles
    from the left, slots), builds on each pile from the left (waste, piles, slots), Kings
    into empty piles, into the empty slots (waste, piles), then draw or recycle."""
    tableau, pillars, reserves = state.tableau, state.pillars, state.reserves
    waste = state.waste[-1] if state.waste else None
    singles = [(WASTE, waste)] if waste is not None else []
    singles += [
        (place, pile.up[-1]) for place, pile in zip(TABLEAU_PLACES, tableau, strict=True) if pile.up
    ]
    singles += [
        (slot, card)
        for slot, card in zip(RESERVE_PLACES, reserves, strict=True)
        if card is not None
    ]
    moves = [
        TRANSFERS[place, FOUNDATION, 1]
        for place, card in singles
        if pillar_for(card, pillars) is not None
    ]
    # The cards that head a unit and where: with two decks a card code can head units on
    # two piles at once, so each card maps to every place it heads from.
    heads: dict[str, list[tuple[str, int]]] = {}
    if waste is not None:
        heads.setdefault(waste, []).append((WASTE, 1))
    for place, pile in zip(TABLEAU_PLACES, tableau, strict=True):
        for count in range(1, len(pile.up) + 1):  # face-up cards are a valid sequence
            heads.setdefault(pile.up[-count], []).append((place, count))
    for slot, card in zip(RESERVE_PLACES, reserves, strict=True):
        if card is not None:
            heads.setdefault(card, []).append((slot, 1))
    empty = []
    for target, pile in zip(TABLEAU_PLACES, tableau, strict=True):
        if not pile.up:
            empty.append(target)
            continue
        for card in TAKES[pile.up[-1]]:
            moves.extend(TRANSFERS[src, target, count] for src, count in heads.get(card, ()))
    if empty:
        kings = [
            (src, count)
            for card, places in heads.items()
            if RANK_VALUE[card] == KING
            for src, count in places
        ]
        kings.sort(key=_place_order)
        for target in empty:
            moves.extend(TRANSFERS[src, target, count] for src, count in kings)
    free = [slot for slot, card in zip(RESERVE_PLACES, reserves, strict=True) if card is None]
    for place, _ in singles:
        if place not in RESERVE_INDEX:
            moves.extend(TRANSFERS[place, slot, 1] for slot in free)
    if state.stock:
        moves.append(DRAW_MOVE)
    elif state.waste and state.recycles < RECYCLES:
        moves.append(RECYCLE_MOVE)
    return moves


_ORDER = {place: number for number, place in enumerate((WASTE, *TABLEAU_PLACES, *RESERVE_PLACES))}


def _place_order(unit: tuple[str, int]) -> int:
    return _ORDER[unit[0]]


def transfer(state: DuelState, move: Move) -> Transferred:
    """The board after a transfer; EngineError with the reason if it is illegal."""
    src, dst, count = str(move.src), str(move.dst), move.count
    if src in FOUNDATION_SOURCES:
        raise EngineError(PERMANENCE)
    if src in RESERVE_INDEX and dst in RESERVE_INDEX:
        raise EngineError("Moving a card from one reserve slot to another changes nothing")
    tableau, waste, reserves = state.tableau, state.waste, state.reserves
    revealed: tuple[str, ...] = ()
    if src == WASTE:
        if not waste:
            raise EngineError("The waste is empty: draw from the stock first")
        cards: tuple[str, ...] = waste[-1:]
        waste = waste[:-1]
    elif src in RESERVE_INDEX:
        held = reserves[RESERVE_INDEX[src]]
        if held is None:
            raise EngineError(f"Reserve slot {src} is empty")
        cards = (held,)
        reserves = _with_slot(reserves, RESERVE_INDEX[src], None)
    else:
        index = PILE_INDEX[src]
        cards, pile = lift(tableau[index], index, count, placement_problem, SEQUENCE)
        pile, revealed = turn_up(pile)
        tableau = replace_pile(tableau, index, pile)
    head = cards[0]
    pillars = state.pillars
    if dst == FOUNDATION:
        if count != 1:
            raise EngineError("Only one card at a time goes to a pillar")
        pillar = pillar_for(head, pillars)
        if pillar is None:
            raise EngineError(pillar_problem(head, pillars))
        pillars = raised(pillars, pillar, 1)
    elif dst in RESERVE_INDEX:
        if count != 1:
            raise EngineError("A reserve slot holds one card: move one card at a time into it")
        slot = RESERVE_INDEX[dst]
        held = reserves[slot]
        if held is not None:
            raise EngineError(f"Reserve slot {dst} already holds the {card_name(held)}")
        reserves = _with_slot(reserves, slot, head)
    else:
        index = PILE_INDEX[dst]
        target = tableau[index]
        refusal = pile_refusal(target, index, head)
        if refusal is not None:
            raise EngineError(refusal)
        tableau = replace_pile(tableau, index, Pile(target.down, target.up + cards))
    after = replace(state, tableau=tableau, pillars=pillars, waste=waste, reserves=reserves)
    return Transferred(after, cards, revealed)


def untransfer(
    state: DuelState, move: Move, cards: tuple[str, ...], revealed: str | None
) -> DuelState:
    """The board before a transfer, from its record's cards and the card it turned up;
    the misfit error when they do not fit."""
    src, dst = str(move.src), str(move.dst)
    if len(cards) != move.count or src in FOUNDATION_SOURCES:
        raise misfit()
    tableau, pillars, waste, reserves = state.tableau, state.pillars, state.waste, state.reserves
    # Take the cards back from where they went...
    if dst == FOUNDATION:
        pillar = pillar_of_top(cards[0], pillars)
        if pillar is None:
            raise misfit()
        pillars = raised(pillars, pillar, -1)
    elif dst in RESERVE_INDEX:
        slot = RESERVE_INDEX[dst]
        if reserves[slot] != cards[0]:
            raise misfit()
        reserves = _with_slot(reserves, slot, None)
    else:
        index = PILE_INDEX[dst]
        pile = tableau[index]
        if pile.up[-len(cards) :] != cards:
            raise misfit()
        tableau = replace_pile(tableau, index, Pile(pile.down, pile.up[: -len(cards)]))
    # ... and give them back to their source.
    if src == WASTE and revealed is None:
        waste = (*waste, cards[0])
    elif src in RESERVE_INDEX and revealed is None:
        slot = RESERVE_INDEX[src]
        if reserves[slot] is not None:
            raise misfit()
        reserves = _with_slot(reserves, slot, cards[0])
    elif src in PILE_INDEX:
        index = PILE_INDEX[src]
        pile = tableau[index]
        if revealed is not None:
            turned = turn_down(pile, revealed)
            if turned is None:
                raise misfit()
            pile = turned
        tableau = replace_pile(tableau, index, Pile(pile.down, pile.up + cards))
    else:
        raise misfit()
    return replace(state, tableau=tableau, pillars=pillars, waste=waste, reserves=reserves)


def _with_slot(
    reserves: tuple[str | None, ...], slot: int, card: str | None
) -> tuple[str | None, ...]:
    return (*reserves[:slot], card, *reserves[slot + 1 :])
