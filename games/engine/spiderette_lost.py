"""Deciding that a game of Spiderette is lost: the search of stuck.py over Spiderette's
tableau in a compact, public form (docs/engine.md#lost-games).

A position is the tableau alone: no foundations, no waste, and the stock is empty
whenever the question is asked. Each pile is one string, a first character saying
whether face-down cards lie under it (``#``) or not (``.``), then one character per
face-up card, bottom first; the position is the tuple of those strings, sorted, so
that piles that differ only in their order are one position. The face-down cards
themselves are not part of it: turning any of them up is productive, and the search
ends there, so which card it is never matters. The verdict is therefore a proof from
what the player can see.

Strings rather than tuples of cards: a pile's move is two slices and a concatenation,
a string's hash is computed once, and sorting seven short strings is cheap, so the
search visits about three times as many positions a second as it did over tuples of
card names, which lets its cap be far larger for the same worst move.
"""

from collections.abc import Iterable
from functools import lru_cache

from .cards import RANK_VALUE, full_deck
from .stuck import FREE, search
from .tableau import Pile

SEARCH_CAP = 5_000
"""At most this many distinct positions are examined; reaching the cap leaves the
position undecided (not lost, and the board offers Finish). The issue's hopeless game
(spiderette-rand-487) is proved lost after 3,416 positions; the largest stuck space seen
in 300 random games held about 8,400 and stays undecided. A search that reaches the cap
is the slowest move there is (about 70 ms on a loaded machine), so the cap is set by the
move's time, not by the rarest proofs."""
BLOCKING_WEIGHT = 1_000
"""How much one blocking card outweighs the runs term of ``_promise``: the squares of
runs of at most 12 cards over 52 cards stay below 600."""

RUN_LENGTH = 13
HIDDEN = "#"
"""A pile's first character: face-down cards lie under its face-up ones."""
OPEN = "."
"""A pile's first character: no face-down card under it (or an empty pile)."""

Position = tuple[str, ...]

_DECK = full_deck()
_CODE = {card: chr(ord("A") + index) for index, card in enumerate(_DECK)}
_RANK = {_CODE[card]: RANK_VALUE[card] for card in _DECK}
# The card each card continues a run on: same suit, one rank higher ("" for a King).
_UNDER = {
    _CODE[card]: next(
        (
            _CODE[other]
            for other in _DECK
            if other[1] == card[1] and RANK_VALUE[other] == RANK_VALUE[card] + 1
        ),
        "",
    )
    for card in _DECK
}


def position_of(tableau: Iterable[Pile]) -> Position:
    return tuple(
        sorted(
            (HIDDEN if pile.down else OPEN) + "".join(_CODE[card] for card in pile.up)
            for pile in tableau
        )
    )


def lost_verdict(tableau: Iterable[Pile]) -> str:
    """``stuck.STUCK`` (lost, proved), ``stuck.FREE`` (a productive move is reachable)
    or ``stuck.UNDECIDED`` (the cap was reached), for a tableau whose stock is empty."""
    position = position_of(tableau)
    if explore(position) is None:
        return FREE  # a productive move is legal now: the usual case, and cheap
    return _verdict(position)


@lru_cache(maxsize=256)
def _verdict(position: Position) -> str:
    # Cached: apply() asks about the position it starts from and the one it ends in,
    # legal_moves() and the public view ask again.
    return search(position, explore, _promise, cap=SEARCH_CAP)[0]


def _promise(position: Position) -> int:
    """How near a position looks to a productive move, to try it first. Above all,
    fewer face-up cards still lying between face-down cards and the run of one suit at
    the top of their pile (those cards must leave before the run can uncover anything);
    then longer runs of one suit at the tops of the piles (the way to a run's
    completion once nothing is face down). Over the positions of solvers' winning lines
    this leaves a quarter as many searches undecided as the first term alone, and it
    only orders the search, so a lost position stays lost."""
    blocking = 0
    runs = 0
    for pile in position:
        info = _pile_info(pile)
        if pile[0] == HIDDEN:
            blocking += len(pile) - 1 - info[2]
        runs += info[2] * info[2]
    return runs - BLOCKING_WEIGHT * blocking


PileInfo = tuple[bool, int, int, tuple[tuple[int, int, str, str, bool, str], ...]]
"""What the search needs of a pile: whether cards lie face down under it, its top
card's rank (0 when empty), the length of the run of one suit at its top, and each unit
it can move: (size, the rank it goes onto, the unit, the pile without it, whether it is
the whole pile, the card it continues a run on)."""

_PILE_INFO: dict[str, PileInfo] = {}
_PILE_INFO_LIMIT = 20_000
"""Piles recur from position to position (a move changes two of seven), so what each
pile can do is worked out once; the memo is emptied when it grows past this size (about
450 bytes an entry; a search over 8,422 positions met 317 distinct piles)."""


def clear_caches() -> None:
    """Forget the piles worked out so far (benchmarks start cold)."""
    _PILE_INFO.clear()


def _pile_info(pile: str) -> PileInfo:
    info = _PILE_INFO.get(pile)
    if info is not None:
        return info
    size = len(pile) - 1
    run = 0
    if size > 0:
        run = 1
        while run < size and _UNDER[pile[-run]] == pile[-run - 1]:
            run += 1
    units = tuple(
        (
            count,
            _RANK[pile[-count]] + 1,
            pile[-count:],
            pile[:-count],
            count == size,
            _UNDER[pile[-count]],
        )
        for count in range(1, run + 1)
    )
    info = (pile[0] == HIDDEN, _RANK[pile[-1]] if size > 0 else 0, run, units)
    if len(_PILE_INFO) >= _PILE_INFO_LIMIT:
        _PILE_INFO.clear()
    _PILE_INFO[pile] = info
    return info


def explore(position: Position) -> list[Position] | None:
    """None when a productive move is legal: a unit that leaves face-down cards
    uncovered, or one that completes a run. Otherwise the positions after each other
    move: a unit (the top card, or the top cards of a run of one suit) onto a card one
    rank higher, or into an empty pile unless it is the whole pile (every empty pile is
    the same once the piles are sorted, so one stands for them all)."""
    infos = [_pile_info(pile) for pile in position]
    by_rank: dict[int, list[int]] = {}
    empty = -1
    for index, info in enumerate(infos):
        if info[1]:
            by_rank.setdefault(info[1], []).append(index)
        elif empty < 0:
            empty = index
    successors: list[Position] = []
    for source, (hidden, _, _, units) in enumerate(infos):
        for count, wanted, unit, rest, whole, under in units:
            targets = by_rank.get(wanted, ())
            if whole and hidden and (targets or empty >= 0):
                return None  # the move turns a card up
            for target in targets:
                onto = position[target]
                if onto[-1] == under and infos[target][2] + count >= RUN_LENGTH:
                    return None  # the move completes a run
                piles = list(position)
                piles[source] = rest
                piles[target] = onto + unit
                piles.sort()
                successors.append(tuple(piles))
            if empty >= 0 and not whole:
                piles = list(position)
                piles[source] = rest
                piles[empty] = OPEN + unit
                piles.sort()
                successors.append(tuple(piles))
    return successors
