"""The Duel's state and its pillars: the stepped tableau, eight foundation pillars (two
per suit), the shared stock, waste and reserve slots, and whose turn it is with each
seat's score (docs/rules/steps-duel.md)."""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import RANK_VALUE, SUIT_INDEX, SUITS, card_name, card_of, full_deck, is_card, suit_name
from ..errors import EngineError
from ..notation import RESERVE_PLACES
from ..tableau import Pile

SEATS = 2
COPIES = 2
"""Two standard decks: every card code is in the game twice."""
DECK_SIZE = len(full_deck()) * COPIES
PILLARS_PER_SUIT = 2
KING = 13
FULL_PILLARS = (KING,) * (len(SUITS) * PILLARS_PER_SUIT)
EMPTY_RESERVES: tuple[str | None, ...] = (None,) * len(RESERVE_PLACES)
CARDS_PER_DRAW = 1
RECYCLES = 2
"""How many times the shared waste may be turned back into the stock."""
STAGNATION_MOVES = 20
"""Moves in a row (ten turns each) without progress that end the game."""
PASSES_TO_END = 2

_TWICE = Counter(full_deck() * COPIES)


@dataclass(frozen=True, slots=True, kw_only=True)
class DuelState:
    tableau: tuple[Pile, ...]
    pillars: tuple[int, ...]
    """Eight heights in the order S1, S2, H1, H2, D1, D2, C1, C2: pillar 2k is the
    first pillar of suit k, 2k + 1 the second. A first pillar is never lower than its
    suit's second (a card goes to the first pillar that takes it)."""
    stock: tuple[str, ...]
    """The last card is drawn first."""
    waste: tuple[str, ...] = ()
    reserves: tuple[str | None, ...] = EMPTY_RESERVES
    recycles: int = 0
    seat: int = 0
    """The seat to move, 0 or 1."""
    scores: tuple[int, ...] = (0,) * SEATS
    """Each seat's action points, seat 0 first."""
    passes: int = 0
    """Passes in a row, ending with the last move."""
    idle: int = 0
    """Moves in a row, ending with the last move, that made no progress."""


def pillar_name(pillar: int) -> str:
    """ "S1", "S2", "H1" .. "C2"."""
    return f"{SUITS[pillar // PILLARS_PER_SUIT]}{pillar % PILLARS_PER_SUIT + 1}"


def pillar_for(card: str, pillars: tuple[int, ...]) -> int | None:
    """The first pillar of the card's suit that takes it (its top one rank lower, or
    empty for an Ace), or None."""
    first = SUIT_INDEX[card] * PILLARS_PER_SUIT
    wanted = RANK_VALUE[card] - 1
    if pillars[first] == wanted:
        return first
    if pillars[first + 1] == wanted:
        return first + 1
    return None


def pillar_of_top(card: str, pillars: tuple[int, ...]) -> int | None:
    """The pillar that the last card like ``card`` went onto, for undo: the second of its
    suit when its top is that card, else the first when its top is (pillar_for's choice
    reversed); None when neither pillar's top is the card."""
    first = SUIT_INDEX[card] * PILLARS_PER_SUIT
    rank = RANK_VALUE[card]
    if pillars[first + 1] == rank:
        return first + 1
    if pillars[first] == rank:
        return first
    return None


def pillar_problem(card: str, pillars: tuple[int, ...]) -> str:
    """Why no pillar takes the card, for the player."""
    suit = card[1]
    first = SUIT_INDEX[card] * PILLARS_PER_SUIT
    wanted = [
        f"the {card_name(card_of(suit, height + 1))}"
        for height in sorted({pillars[first], pillars[first + 1]})
        if height < KING
    ]
    return f"No pillar takes the {card_name(card)}: the {suit_name(suit)} pillars need " + (
        " or ".join(wanted) if wanted else "nothing more, both are complete"
    )


def raised(pillars: tuple[int, ...], pillar: int, by: int) -> tuple[int, ...]:
    return (*pillars[:pillar], pillars[pillar] + by, *pillars[pillar + 1 :])


def pillar_cards(pillars: tuple[int, ...]) -> list[str]:
    """The cards on the pillars, pillar by pillar, Ace first."""
    return [
        card_of(SUITS[pillar // PILLARS_PER_SUIT], value)
        for pillar, height in enumerate(pillars)
        for value in range(1, height + 1)
    ]


def validate_double_deck(cards: object) -> tuple[str, ...]:
    """The deck as a tuple, or EngineError unless it is the 104 cards of two decks."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise EngineError(f"A Duel deck must be a list of {DECK_SIZE} card codes")
    deck = tuple(cards)
    if len(deck) != DECK_SIZE:
        raise EngineError(f"A Duel deck holds two decks, {DECK_SIZE} cards, not {len(deck)}")
    for code in deck:
        if not is_card(code):
            raise EngineError(f"{code!r} is not a card code (rank then suit, like 'TD')")
    check_twice(deck, "A Duel deck")
    return deck


def check_twice(cards: Sequence[str], what: str) -> None:
    """EngineError unless ``cards`` hold each card code exactly twice."""
    counts = Counter(cards)
    if counts != _TWICE:
        wrong = sorted(card for card in _TWICE if counts[card] != COPIES)
        raise EngineError(
            f"{what} must hold each card exactly twice; not so for: {', '.join(wrong)}"
        )
