"""Steps' state: the Klondike family's four parts, the reserve slots, the options and
the running figures of the line of play in effect."""

from dataclasses import dataclass

from ..klondike_family import KlondikeFamilyState
from ..notation import FOUNDATION_SOURCES, RESERVE_PLACES
from .options import DEFAULT_OPTIONS, MAX_BUFFERS, StepsOptions

Reserves = tuple[str | None, ...]

RESERVE_INDEX = {place: index for index, place in enumerate(RESERVE_PLACES)}
"""r1 -> 0 .. r4 -> 3."""
FOUNDATION_SOURCE_INDEX = {place: index for index, place in enumerate(FOUNDATION_SOURCES)}
"""fS -> 0 .. fC -> 3, the suit order of the foundations."""
EMPTY_RESERVES: Reserves = (None,) * MAX_BUFFERS


@dataclass(frozen=True, slots=True, kw_only=True)
class StepsState(KlondikeFamilyState):
    reserves: Reserves = EMPTY_RESERVES
    """Slots r1..r4, a card or None; slots beyond the deal's ``buffers`` stay None."""
    options: StepsOptions = DEFAULT_OPTIONS
    recycles: int = 0
    """Recycles used in the line of play in effect."""
    points: int = 0
    """Action points (table 2.5) of the line of play in effect."""
    reserve_uses: int = 0
    """Moves of the line of play in effect that put a card into a slot; the flawless
    bonus needs none."""


def with_slot(reserves: Reserves, slot: int, card: str | None) -> Reserves:
    return (*reserves[:slot], card, *reserves[slot + 1 :])


def raised(foundations: tuple[int, ...], suit: int, by: int) -> tuple[int, ...]:
    """The foundation heights with one suit's raised by ``by`` (lowered when negative)."""
    return (*foundations[:suit], foundations[suit] + by, *foundations[suit + 1 :])
