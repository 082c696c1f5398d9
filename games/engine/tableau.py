"""Tableau piles, shared by every seven-pile variant: a pile, lifting a unit off it,
turning up the card left face down on top, and loading piles from a snapshot."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .cards import card_name
from .errors import EngineError
from .layouts import SEVEN_PILES
from .notation import TABLEAU_PLACES
from .records import load_cards

PILE_INDEX = {place: index for index, place in enumerate(TABLEAU_PLACES)}
"""t1 -> 0 .. t7 -> 6."""

Problem = Callable[[str, str], str | None]
"""Why a card cannot lie on another within a unit (upper, lower), or None if it can."""


@dataclass(frozen=True, slots=True)
class Pile:
    down: tuple[str, ...] = ()
    """Face-down cards, bottom first."""
    up: tuple[str, ...] = ()
    """Face-up cards, bottom first; the last one is the top of the pile."""


def pile_number(index: int) -> int:
    return index + 1


def replace_pile(tableau: tuple[Pile, ...], index: int, pile: Pile) -> tuple[Pile, ...]:
    return (*tableau[:index], pile, *tableau[index + 1 :])


def lift(
    pile: Pile, index: int, count: int, problem: Problem, unit_name: str
) -> tuple[tuple[str, ...], Pile]:
    """The top ``count`` face-up cards of a pile as a unit, and the pile without them
    (not yet turned up); EngineError if the pile is empty, the count reaches face-down
    cards, or two cards of the unit break the variant's rule (``problem``). ``unit_name``
    says what a unit must be, for the message ("a valid sequence")."""
    up = pile.up
    number = pile_number(index)
    if not up:
        raise EngineError(f"Pile {number} is empty")
    if count > len(up):
        raise EngineError(
            f"Pile {number} has only {len(up)} face-up card(s): face-down cards cannot be moved"
        )
    cards = up[-count:]
    for position in range(count - 1):
        lower, upper = cards[position], cards[position + 1]
        reason = problem(upper, lower)
        if reason is not None:
            raise EngineError(
                f"The top {count} cards of pile {number} are not {unit_name}: the "
                f"{card_name(upper)} lies on the {card_name(lower)} and {reason}"
            )
    return cards, Pile(pile.down, up[:-count])


def turn_up(pile: Pile) -> tuple[Pile, tuple[str, ...]]:
    """The pile with its top face-down card turned up if no face-up card is left, and
    the card turned up (or nothing)."""
    if pile.up or not pile.down:
        return pile, ()
    revealed = pile.down[-1:]
    return Pile(pile.down[:-1], revealed), revealed


def turn_down(pile: Pile, revealed: str) -> Pile | None:
    """The reverse of ``turn_up`` for undo: the pile with its only face-up card, which
    must be ``revealed``, turned face down again; None if it does not fit."""
    if pile.up != (revealed,):
        return None
    return Pile((*pile.down, revealed), ())


def load_tableau(
    value: object, valid_up: Callable[[tuple[str, ...]], str | None]
) -> tuple[Pile, ...]:
    """Seven piles from a snapshot; ``valid_up`` says why a pile's face-up cards cannot
    be (None when they can)."""
    if not isinstance(value, list) or len(value) != SEVEN_PILES:
        raise EngineError("The tableau must be a list of 7 piles")
    piles = []
    for number, pile in enumerate(value, start=1):
        if not isinstance(pile, Mapping) or set(pile) != {"down", "up"}:
            raise EngineError(f"Pile {number} must be an object with keys down and up")
        down = load_cards(pile["down"], f"pile {number}'s face-down cards")
        up = load_cards(pile["up"], f"pile {number}'s face-up cards")
        if down and not up:
            raise EngineError(f"Pile {number} has face-down cards but no face-up card on top")
        reason = valid_up(up)
        if reason is not None:
            raise EngineError(f"Pile {number}'s face-up cards {reason}")
        piles.append(Pile(down, up))
    return tuple(piles)


def tableau_view(tableau: tuple[Pile, ...]) -> list[dict[str, object]]:
    """The public form of the piles: face-down counts and face-up cards."""
    return [{"down": len(pile.down), "up": list(pile.up)} for pile in tableau]


def tableau_dump(tableau: tuple[Pile, ...]) -> list[dict[str, object]]:
    return [{"down": list(pile.down), "up": list(pile.up)} for pile in tableau]
