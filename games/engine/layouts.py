"""Deal conventions shared by several variants.

Klondike, Kingsley, Spiderette and Steps all lay out seven piles the same way, so the
convention lives here once.
"""

from collections.abc import Sequence
from dataclasses import dataclass

SEVEN_PILES = 7


@dataclass(frozen=True, slots=True)
class DealtPile:
    down: tuple[str, ...]
    """Face-down cards, bottom first."""
    top: str
    """The last card dealt to the pile, face up."""


@dataclass(frozen=True, slots=True)
class SevenPileDeal:
    piles: tuple[DealtPile, ...]
    stock: tuple[str, ...]
    """The cards left over; the last element is drawn first."""


def deal_seven_piles(deck: Sequence[str]) -> SevenPileDeal:
    """Pile i (1 to 7) takes the next i cards of the deck, starting at deck[0]; the last
    card a pile takes is its face-up top. The other cards form the stock in deck order,
    so deck[-1] is drawn first.

    The deck is expected to be validated by the caller.
    """
    piles = []
    start = 0
    for size in range(1, SEVEN_PILES + 1):
        cards = tuple(deck[start : start + size])
        piles.append(DealtPile(down=cards[:-1], top=cards[-1]))
        start += size
    return SevenPileDeal(piles=tuple(piles), stock=tuple(deck[start:]))
