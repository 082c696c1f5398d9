"""Builders for precise Steps positions, shared by the test_steps_* modules, and the
tests of the builders themselves."""

from collections.abc import Mapping, Sequence

import pytest

from games.engine import EngineError, full_deck, get_variant
from games.engine.cards import SUITS
from games.engine.steps import EMPTY_RESERVES, Steps, StepsState, options_of
from games.engine.tableau import Pile

STEPS = get_variant("steps")
assert isinstance(STEPS, Steps)

FULL_DECK = sorted(full_deck())


def cards(text: str) -> tuple[str, ...]:
    """'KS QH' -> ('KS', 'QH')."""
    return tuple(text.split())


def make_steps(
    tableau: Sequence[tuple[str, str]] = (),
    foundations: Mapping[str, int] | None = None,
    stock: str = "",
    waste: str = "",
    reserves: str = "",
    *,
    options: Mapping[str, object] | None = None,
    recycles: int = 0,
    points: int = 0,
    reserve_uses: int | None = None,
) -> StepsState:
    """A Steps position built by hand (not necessarily all 52 cards): tableau piles as
    ("down cards", "up cards") from pile 1, missing piles empty; stock with its last card
    drawn first; waste with its top last; reserves as slot contents from r1, "." for an
    empty slot ("9S . 4H"). ``reserve_uses`` defaults to the cards in the slots."""
    piles = [Pile(cards(down), cards(up)) for down, up in tableau]
    piles += [Pile()] * (7 - len(piles))
    heights = tuple((foundations or {}).get(suit, 0) for suit in SUITS)
    slots = [None if token == "." else token for token in reserves.split()]
    held = tuple(slots) + EMPTY_RESERVES[len(slots) :]
    return StepsState(
        tableau=tuple(piles),
        foundations=heights,
        stock=cards(stock),
        waste=cards(waste),
        reserves=held,
        options=options_of(options),
        recycles=recycles,
        points=points,
        reserve_uses=(
            sum(card is not None for card in held) if reserve_uses is None else reserve_uses
        ),
    )


def steps_cards(state: StepsState) -> list[str]:
    """Every card of the state, foundations and reserve slots included."""
    found = [
        rank + suit
        for suit, height in zip(SUITS, state.foundations, strict=True)
        for rank in "A23456789TJQK"[:height]
    ]
    in_piles = [card for pile in state.tableau for card in pile.down + pile.up]
    held = [card for card in state.reserves if card is not None]
    return found + in_piles + list(state.stock) + list(state.waste) + held


def codes_in(value):
    """Every card code anywhere in a JSON value."""
    if isinstance(value, dict):
        for item in value.values():
            yield from codes_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from codes_in(item)
    elif isinstance(value, str) and value in FULL_DECK:
        yield value


def visible_cards(state: StepsState) -> set[str]:
    """The cards a player may see: foundation tops, face-up tableau cards, the waste fan
    and the reserve slots."""
    found = {
        "A23456789TJQK"[height - 1] + suit
        for suit, height in zip(SUITS, state.foundations, strict=True)
        if height
    }
    fan = 3 if state.options.draw == 3 else 1
    face_up = {card for pile in state.tableau for card in pile.up}
    held = {card for card in state.reserves if card is not None}
    return found | face_up | set(state.waste[-fan:]) | held


# The builders themselves


def test_make_steps_fills_piles_slots_and_options():
    state = make_steps([("3C", "KD")], {"S": 2}, "4S", "5H", "9S . 4H", options={"buffers": 3})
    assert state.tableau[0] == Pile(("3C",), ("KD",))
    assert state.tableau[6] == Pile()
    assert state.foundations == (2, 0, 0, 0)
    assert state.reserves == ("9S", None, "4H", None)
    assert state.reserve_uses == 2
    assert state.options.buffers == 3
    assert sorted(steps_cards(state)) == sorted(["AS", "2S", "3C", "KD", "4S", "5H", "9S", "4H"])


def test_make_steps_refuses_bad_options():
    with pytest.raises(EngineError):
        make_steps(options={"draw": 2})
