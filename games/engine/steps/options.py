"""Steps' options, fixed at the deal and stored with the game
(docs/rules/steps.md#options)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeGuard

from ..cards import RANKS, SUITS, is_card
from ..errors import EngineError
from ..notation import RESERVE_PLACES
from ..variant import Json

DRAW_OPTION, BUFFERS_OPTION, RECYCLES_OPTION, RETRIEVAL_OPTION = (
    "draw",
    "buffers",
    "recycles",
    "retrieval",
)
OPTION_KEYS = (DRAW_OPTION, BUFFERS_OPTION, RECYCLES_OPTION, RETRIEVAL_OPTION)
FOUNDATIONS_OPTION, RESERVES_OPTION = "foundations", "reserves"
LAYOUT_KEYS = (FOUNDATIONS_OPTION, RESERVES_OPTION)
"""A starting layout that differs from the plain deal (a Codex scenario's): cards dealt
onto the foundations, cards dealt into reserve slots. Stored only when set, so the
options of a plain deal stay the four above."""
TABLEAU_CARDS = 28
DRAW_CHOICES = (1, 3)
MAX_BUFFERS = len(RESERVE_PLACES)
MAX_RECYCLES = 99


@dataclass(frozen=True, slots=True, kw_only=True)
class StepsOptions:
    """The options of a deal, stored with the game."""

    draw: int = 1
    buffers: int = MAX_BUFFERS
    """How many reserve slots the deal has: r1 to r<buffers>."""
    recycles: int = 3
    """How many times the waste may be turned back into the stock."""
    retrieval: bool = False
    foundations: tuple[int, ...] = (0,) * len(SUITS)
    """Cards dealt onto each foundation (suit order S, H, D, C), from the ace up."""
    reserves: tuple[str | None, ...] = (None,) * MAX_BUFFERS
    """The card dealt into each reserve slot r1..r4, or None."""

    @property
    def has_layout(self) -> bool:
        return any(self.foundations) or any(card is not None for card in self.reserves)

    def placed_cards(self) -> tuple[str, ...]:
        """The cards the layout deals onto the foundations and into the slots."""
        built = tuple(
            RANKS[rank] + suit
            for suit, height in zip(SUITS, self.foundations, strict=True)
            for rank in range(height)
        )
        return built + tuple(card for card in self.reserves if card is not None)

    def as_json(self) -> Json:
        data: Json = {
            DRAW_OPTION: self.draw,
            BUFFERS_OPTION: self.buffers,
            RECYCLES_OPTION: self.recycles,
            RETRIEVAL_OPTION: self.retrieval,
        }
        if any(self.foundations):
            data[FOUNDATIONS_OPTION] = {
                suit: height for suit, height in zip(SUITS, self.foundations, strict=True) if height
            }
        if any(card is not None for card in self.reserves):
            data[RESERVES_OPTION] = {
                RESERVE_PLACES[slot]: card for slot, card in enumerate(self.reserves) if card
            }
        return data


DEFAULT_OPTIONS = StepsOptions()


def whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def options_of(options: Mapping[str, object] | None) -> StepsOptions:
    """Validated options; EngineError naming the problem."""
    if options is None:
        return DEFAULT_OPTIONS
    if not isinstance(options, Mapping):
        raise EngineError(f"Options must be an object, not {type(options).__name__}")
    unknown = [key for key in options if key not in (*OPTION_KEYS, *LAYOUT_KEYS)]
    if unknown:
        raise EngineError(
            f"Steps has no option(s) {', '.join(map(repr, unknown))}; "
            f"the options are {', '.join((*OPTION_KEYS, *LAYOUT_KEYS))}"
        )
    draw = options.get(DRAW_OPTION, DEFAULT_OPTIONS.draw)
    if not whole(draw) or draw not in DRAW_CHOICES:
        raise EngineError(f"The draw option is 1 or 3 (cards per draw), not {draw!r}")
    buffers = options.get(BUFFERS_OPTION, DEFAULT_OPTIONS.buffers)
    if not whole(buffers) or not 0 <= buffers <= MAX_BUFFERS:
        raise EngineError(
            f"The buffers option is a whole number of reserve slots from 0 to {MAX_BUFFERS}, "
            f"not {buffers!r}"
        )
    recycles = options.get(RECYCLES_OPTION, DEFAULT_OPTIONS.recycles)
    if not whole(recycles) or not 0 <= recycles <= MAX_RECYCLES:
        raise EngineError(
            f"The recycles option is a whole number from 0 to {MAX_RECYCLES}, not {recycles!r}"
        )
    retrieval = options.get(RETRIEVAL_OPTION, DEFAULT_OPTIONS.retrieval)
    if not isinstance(retrieval, bool):
        raise EngineError(f"The retrieval option is true or false, not {retrieval!r}")
    foundations = _foundations_of(options.get(FOUNDATIONS_OPTION, {}))
    reserves = _reserves_of(options.get(RESERVES_OPTION, {}), buffers)
    chosen = StepsOptions(
        draw=draw,
        buffers=buffers,
        recycles=recycles,
        retrieval=retrieval,
        foundations=foundations,
        reserves=reserves,
    )
    placed = chosen.placed_cards()
    if len(set(placed)) != len(placed):
        raise EngineError("A card the layout deals onto a foundation cannot be in a slot too")
    if len(placed) > len(RANKS) * len(SUITS) - TABLEAU_CARDS:
        raise EngineError(
            f"The layout places {len(placed)} cards: the tableau still needs {TABLEAU_CARDS}"
        )
    return chosen


def _foundations_of(value: object) -> tuple[int, ...]:
    if not isinstance(value, Mapping):
        raise EngineError("The foundations option maps suits (S, H, D, C) to cards dealt on them")
    unknown = [suit for suit in value if suit not in SUITS]
    if unknown:
        raise EngineError(f"The foundations option has no suit {', '.join(map(repr, unknown))}")
    heights = []
    for suit in SUITS:
        height = value.get(suit, 0)
        if not whole(height) or not 0 <= height <= len(RANKS):
            raise EngineError(
                f"The {suit} foundation is dealt 0 to 13 cards from the ace up, not {height!r}"
            )
        heights.append(height)
    return tuple(heights)


def _reserves_of(value: object, buffers: int) -> tuple[str | None, ...]:
    if not isinstance(value, Mapping):
        raise EngineError("The reserves option maps slots (r1 to r4) to the card dealt there")
    slots: list[str | None] = [None] * MAX_BUFFERS
    for place, card in value.items():
        if place not in RESERVE_PLACES:
            raise EngineError(f"The reserves option has no slot {place!r}: the slots are r1-r4")
        slot = RESERVE_PLACES.index(place)
        if slot >= buffers:
            raise EngineError(f"Slot {place} is closed: {slots_message(buffers)}")
        if not is_card(card):
            raise EngineError(f"The card dealt into {place} is a card code, not {card!r}")
        slots[slot] = card
    return tuple(slots)


def slots_message(buffers: int) -> str:
    if buffers == 0:
        return "This deal has no reserve slots"
    if buffers == 1:
        return "This deal has 1 reserve slot"
    return f"This deal has {buffers} reserve slots"
