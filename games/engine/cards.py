"""Cards as two-character codes, rank then suit: ``"AS"``, ``"TD"``, ``"KH"``."""

from collections.abc import Iterable

from .errors import EngineError

RANKS = "A23456789TJQK"
SUITS = ("S", "H", "D", "C")
RED_SUITS = frozenset({"H", "D"})

_RANK_NAMES = {
    "A": "ace",
    "T": "10",
    "J": "jack",
    "Q": "queen",
    "K": "king",
}
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

# Suit-major order (all spades, then hearts, diamonds, clubs): the shuffle starts from it.
_FULL_DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
_CARDS = frozenset(_FULL_DECK)

# Lookup tables keyed by card code: rules code calls these in its hot loops.
RANK_VALUE = {card: RANKS.index(card[0]) + 1 for card in _FULL_DECK}
SUIT_INDEX = {card: SUITS.index(card[1]) for card in _FULL_DECK}
IS_RED = {card: card[1] in RED_SUITS for card in _FULL_DECK}


def full_deck() -> tuple[str, ...]:
    """The 52 cards in suit-major order: AS 2S .. KS AH .. KH AD .. KD AC .. KC."""
    return _FULL_DECK


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in _CARDS


def rank_of(card: str) -> str:
    return _checked(card)[0]


def suit_of(card: str) -> str:
    return _checked(card)[1]


def is_red(card: str) -> bool:
    return IS_RED[_checked(card)]


def rank_value(card: str) -> int:
    """A = 1, 2..10 at face value, J = 11, Q = 12, K = 13."""
    return RANK_VALUE[_checked(card)]


def card_name(card: str) -> str:
    """A readable name for messages: ``card_name("TD") == "10 of diamonds"``."""
    code = _checked(card)
    rank, suit = code[0], code[1]
    return f"{_RANK_NAMES.get(rank, rank)} of {_SUIT_NAMES[suit]}"


def rank_name(value: int) -> str:
    """The rank of a value from 1 to 13 as messages say it: "Ace", "8", "Queen"."""
    return card_name(card_of("S", value)).split(" of ", 1)[0]


def suit_name(suit: str) -> str:
    if suit not in _SUIT_NAMES:
        raise EngineError(f"{suit!r} is not a suit: suits are S, H, D and C")
    return _SUIT_NAMES[suit]


def card_of(suit: str, value: int) -> str:
    """The card of a suit with a rank value from 1 (ace) to 13 (king)."""
    return RANKS[value - 1] + suit


def validate_deck(cards: object) -> tuple[str, ...]:
    """The deck as a tuple, or EngineError unless it is exactly the 52 cards once each."""
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise EngineError("A deck must be a list of 52 card codes")
    deck = tuple(cards)
    if len(deck) != len(_FULL_DECK):
        raise EngineError(f"A deck must hold 52 cards, not {len(deck)}")
    for code in deck:
        if not is_card(code):
            raise EngineError(f"{code!r} is not a card code (rank then suit, like 'TD')")
    if len(set(deck)) != len(deck):
        doubled = sorted({code for code in deck if deck.count(code) > 1})
        raise EngineError(f"A deck must hold each card once; repeated: {', '.join(doubled)}")
    return deck


def _checked(card: str) -> str:
    if not is_card(card):
        raise EngineError(f"{card!r} is not a card code (rank then suit, like 'TD')")
    return card
