"""Builders for precise Klondike, Kingsley and Spiderette positions in tests."""

from collections.abc import Mapping, Sequence

from games.engine import full_deck, get_variant
from games.engine.cards import SUITS
from games.engine.kingsley import Kingsley, KingsleyState
from games.engine.klondike import Klondike, KlondikeState, Pile
from games.engine.spiderette import Spiderette, SpideretteState

KLONDIKE = get_variant("klondike")
assert isinstance(KLONDIKE, Klondike)

PILE_SIZES = range(1, 8)


def cards(text: str) -> tuple[str, ...]:
    """'KS QH' -> ('KS', 'QH')."""
    return tuple(text.split())


def deck_from_layout(piles: Sequence[str] = (), stock_draw_order: str = "") -> list[str]:
    """A deck in deal order that deals the given layout.

    ``piles[i]`` names the top cards of pile i + 1, bottom first and its face-up top last;
    ``stock_draw_order`` names the first cards the stock gives, first drawn first. Every
    card not named fills the remaining places in suit-major order.
    """
    named_piles = [cards(text) for text in piles] + [()] * (7 - len(piles))
    named_stock = cards(stock_draw_order)
    named = [card for pile in named_piles for card in pile] + list(named_stock)
    assert len(set(named)) == len(named), "a card is named twice"
    spare = iter([card for card in full_deck() if card not in named])
    deck: list[str] = []
    for size, pile in zip(PILE_SIZES, named_piles, strict=True):
        assert len(pile) <= size, f"pile {size} holds only {size} cards"
        deck.extend([next(spare) for _ in range(size - len(pile))] + list(pile))
    stock = list(named_stock) + list(spare)
    deck.extend(reversed(stock))  # the stock is drawn from the end of the deck
    return deck


def make_state(
    tableau: Sequence[tuple[str, str]] = (),
    foundations: Mapping[str, int] | None = None,
    stock: str = "",
    waste: str = "",
    recycles: int = 0,
) -> KlondikeState:
    """A position built by hand (not necessarily all 52 cards): tableau piles as
    ("down cards", "up cards") from pile 1, missing piles empty; stock with its last card
    drawn first; waste with its top last."""
    piles = [Pile(cards(down), cards(up)) for down, up in tableau]
    piles += [Pile()] * (7 - len(piles))
    heights = tuple((foundations or {}).get(suit, 0) for suit in SUITS)
    return KlondikeState(
        tableau=tuple(piles),
        foundations=heights,
        stock=cards(stock),
        waste=cards(waste),
        recycles=recycles,
        score=KLONDIKE.recycle_score(recycles),
    )


def all_cards(state: KlondikeState) -> list[str]:
    """Every card of the state, foundations included, in no particular order."""
    found = [
        rank + suit
        for suit, height in zip(SUITS, state.foundations, strict=True)
        for rank in "A23456789TJQK"[:height]
    ]
    in_piles = [card for pile in state.tableau for card in pile.down + pile.up]
    return found + in_piles + list(state.stock) + list(state.waste)


# Kingsley and Spiderette

KINGSLEY = get_variant("kingsley")
assert isinstance(KINGSLEY, Kingsley)
SPIDERETTE = get_variant("spiderette")
assert isinstance(SPIDERETTE, Spiderette)


def make_kingsley(
    tableau: Sequence[tuple[str, str]] = (),
    foundations: Mapping[str, int] | None = None,
    stock: str = "",
    waste: str = "",
) -> KingsleyState:
    """A Kingsley position built by hand, as make_state builds a Klondike one."""
    klondike = make_state(tableau, foundations, stock, waste)
    return KingsleyState(
        tableau=klondike.tableau,
        foundations=klondike.foundations,
        stock=klondike.stock,
        waste=klondike.waste,
    )


def make_spiderette(
    tableau: Sequence[tuple[str, str]] = (), stock: str = "", removed: str = ""
) -> SpideretteState:
    """A Spiderette position built by hand: tableau piles as ("down cards", "up cards")
    from pile 1, missing piles empty; stock with its last card dealt first; the suits of
    the runs already removed, in order ("S H")."""
    piles = [Pile(cards(down), cards(up)) for down, up in tableau]
    piles += [Pile()] * (7 - len(piles))
    return SpideretteState(tableau=tuple(piles), stock=cards(stock), removed=cards(removed))


def run_of(suit: str, high: str = "K", low: str = "A") -> str:
    """The cards of a descending run of one suit as text: run_of("S", "K", "2")."""
    ranks = "A23456789TJQK"
    return " ".join(rank + suit for rank in ranks[ranks.index(low) : ranks.index(high) + 1][::-1])


def spiderette_cards(state: SpideretteState) -> list[str]:
    """Every card of a Spiderette state, a removed run counting as its 13 cards."""
    removed = [rank + suit for suit in state.removed for rank in "A23456789TJQK"]
    in_piles = [card for pile in state.tableau for card in pile.down + pile.up]
    return removed + in_piles + list(state.stock)
