"""Stagnation Lockout: deciding that a game of Steps is lost, by the bounded search of
stuck.py over the tableau, the reserve slots and (with retrieval) the foundations
(docs/rules/steps.md#winning-and-losing, docs/engine.md#lost-games)."""

from functools import lru_cache

from ..cards import RANK_VALUE, SUIT_INDEX, SUITS, card_of
from ..klondike_family import FULL_FOUNDATIONS, KING, TAKES, builds_on, fits_foundation
from ..stuck import FREE, SEARCH_CAP, STUCK, PilePair, moved, pile_pair, search
from .state import StepsState, raised

LOST_REASON = (
    "The stock is empty, no recycle can turn the waste back and no move can change the "
    "outcome: no card can reach a foundation, leave the waste or turn up."
)

RETRIEVAL_SEARCH_CAP = 5_000
"""The search's cap with retrieval on (stuck.SEARCH_CAP without it): every foundation
card that can come down multiplies the positions, a search at the cap costs about 40 µs
a position, and a position left undecided is not lost (the board offers Finish)."""

StepsPosition = tuple[tuple[PilePair, ...], tuple[str, ...], tuple[int, ...]]
"""The sorted piles (each keyed on a face-down flag, stuck.pile_pair), the sorted cards
in the slots, and the foundation heights."""


def is_locked_out(state: StepsState) -> bool:
    """Whether the game is lost: the stock empty, no recycle left that could turn the
    waste back, and no productive move legal now or after non-productive moves."""
    return lockout_verdict(state) == STUCK


def lockout_verdict(state: StepsState) -> str:
    """The search's answer: ``STUCK`` (lost, proved from what the player sees),
    ``FREE``, or ``UNDECIDED`` when it reached its cap (stuck.py)."""
    if state.stock or state.foundations == FULL_FOUNDATIONS:
        return FREE
    options = state.options
    if state.waste and state.recycles < options.recycles:
        return FREE  # a recycle is left, and it is productive
    waste = state.waste[-1] if state.waste else None
    position = position_of(state)
    context = (waste, options.buffers, sum(state.foundations), options.retrieval)
    if explore(position, *context) is None:
        return FREE  # a productive move is legal now: the usual case, and cheap
    return stuck(position, *context)


def position_of(state: StepsState) -> StepsPosition:
    return _canonical(
        [pile_pair(pile) for pile in state.tableau],
        tuple(card for card in state.reserves if card is not None),
        state.foundations,
    )


def _canonical(
    piles: list[PilePair], reserve: tuple[str, ...], foundations: tuple[int, ...]
) -> StepsPosition:
    return tuple(sorted(piles)), tuple(sorted(reserve)), foundations


@lru_cache(maxsize=256)
def stuck(
    position: StepsPosition,
    waste: str | None,
    buffers: int,
    start_total: int,
    retrieval: bool,
) -> str:
    # Cached: apply() asks about the position it starts from and the one it ends in,
    # legal_moves() and the public view ask again. Breadth first: with retrieval on, a
    # depth-first search could wander through millions of positions (retrievals and
    # putting back) before the productive move a few moves away.
    cap = RETRIEVAL_SEARCH_CAP if retrieval else SEARCH_CAP
    return search(
        position, lambda each: explore(each, waste, buffers, start_total, retrieval), cap=cap
    )[0]


def explore(
    position: StepsPosition,
    waste: str | None,
    buffers: int,
    start_total: int,
    retrieval: bool,
) -> list[StepsPosition] | None:
    """None when a productive move is legal in the position; otherwise the positions
    after each non-productive move.

    Productive: a card turned up; the waste card leaving the waste (to a foundation,
    onto a pile, into a free slot); a card put on a foundation while the foundations hold
    as many cards as where the search started (``start_total``). Below that, after
    retrievals, putting a card up only puts back what the search took down, and is a
    non-productive move like the retrievals, the tableau rearrangements and the moves
    into and out of the slots."""
    piles, reserve, foundations = position
    free = buffers - len(reserve)
    raising = sum(foundations) >= start_total
    if waste is not None and (free > 0 or fits_foundation(waste, foundations)):
        return None
    heads: dict[str, tuple[int, int]] = {}
    tops: list[tuple[int, str]] = []
    empty = -1
    for index, (down, up) in enumerate(piles):
        if not up:
            empty = index
            continue
        top = up[-1]
        fits = fits_foundation(top, foundations)
        if down and len(up) == 1 and (free > 0 or fits):
            return None  # into a slot or up to its foundation, turning a card up
        if raising and fits:
            return None
        tops.append((index, top))
        # Every face-up stack is a valid sequence, so each of its cards heads a unit.
        for count in range(1, len(up) + 1):
            heads[up[-count]] = (index, count)
    if waste is not None and (
        (empty >= 0 and RANK_VALUE[waste] == KING) or any(builds_on(waste, top) for _, top in tops)
    ):
        return None
    if raising and any(fits_foundation(card, foundations) for card in reserve):
        return None
    if empty >= 0 and any(down and RANK_VALUE[up[0]] == KING for down, up in piles):
        return None  # a King-headed stack off face-down cards into the empty pile
    successors = []
    for target, top in tops:
        for card in TAKES[top]:
            if card in heads:
                source, count = heads[card]
                down, up = piles[source]
                if down and count == len(up):
                    return None  # the move turns a card up
                successors.append(
                    _canonical(moved(piles, source, target, count), reserve, foundations)
                )
    # A King-headed stack with nothing under it into an empty pile only changes piles:
    # the same position once the piles are sorted.
    for index, top in tops:
        down, up = piles[index]
        rest = list(piles)
        rest[index] = (down, up[:-1])
        if free > 0:  # a pile's top into a slot (turning nothing up)
            successors.append(_canonical(rest, (*reserve, top), foundations))
        if not raising and fits_foundation(top, foundations):  # putting back
            successors.append(_canonical(rest, reserve, raised(foundations, SUIT_INDEX[top], 1)))
    for number, card in enumerate(reserve):
        others = reserve[:number] + reserve[number + 1 :]
        successors.extend(
            _canonical(_put(piles, target, card), others, foundations)
            for target in _targets(card, tops, empty)
        )
        if not raising and fits_foundation(card, foundations):
            successors.append(
                _canonical(list(piles), others, raised(foundations, SUIT_INDEX[card], 1))
            )
    if retrieval:
        for suit, height in enumerate(foundations):
            if height:
                card = card_of(SUITS[suit], height)
                lowered = raised(foundations, suit, -1)
                successors.extend(
                    _canonical(_put(piles, target, card), reserve, lowered)
                    for target in _targets(card, tops, empty)
                )
    return successors


def _targets(card: str, tops: list[tuple[int, str]], empty: int) -> list[int]:
    """The piles a single card can go onto (one empty pile stands for them all)."""
    targets = [index for index, top in tops if builds_on(card, top)]
    if empty >= 0 and RANK_VALUE[card] == KING:
        targets.append(empty)
    return targets


def _put(piles: tuple[PilePair, ...], index: int, card: str) -> list[PilePair]:
    result = list(piles)
    down, up = result[index]
    result[index] = (down, (*up, card))
    return result
