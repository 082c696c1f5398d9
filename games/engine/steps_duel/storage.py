"""The Duel's snapshot: everything, hidden cards included, for the server only."""

from collections.abc import Mapping
from typing import Any

from ..cards import is_card
from ..errors import EngineError
from ..klondike_family import run_length
from ..notation import RESERVE_PLACES
from ..records import check_snapshot, is_count, load_cards
from ..tableau import load_tableau, tableau_dump
from ..variant import Json
from .state import (
    FULL_PILLARS,
    KING,
    PASSES_TO_END,
    RECYCLES,
    SEATS,
    STAGNATION_MOVES,
    DuelState,
    check_twice,
    pillar_cards,
)

_SNAPSHOT_KEYS = {
    "variant",
    "tableau",
    "pillars",
    "stock",
    "waste",
    "reserves",
    "recycles",
    "seat",
    "scores",
    "passes",
    "idle",
}


def dump_state(state: DuelState, *, key: str) -> Json:
    return {
        "variant": key,
        "tableau": tableau_dump(state.tableau),
        "pillars": list(state.pillars),
        "stock": list(state.stock),
        "waste": list(state.waste),
        "reserves": list(state.reserves),
        "recycles": state.recycles,
        "seat": state.seat,
        "scores": list(state.scores),
        "passes": state.passes,
        "idle": state.idle,
    }


def load_state(data: Mapping[str, Any], *, name: str, key: str) -> DuelState:
    """The state of a snapshot; EngineError naming what is wrong."""
    data = check_snapshot(data, name, key, _SNAPSHOT_KEYS)
    tableau = load_tableau(data["tableau"], _valid_up)
    pillars = _load_pillars(data["pillars"])
    reserves = _load_reserves(data["reserves"])
    stock = load_cards(data["stock"], "the stock")
    waste = load_cards(data["waste"], "the waste")
    recycles, seat, passes, idle = (data[key] for key in ("recycles", "seat", "passes", "idle"))
    if not is_count(recycles) or recycles > RECYCLES:
        raise EngineError(f"The recycle count must be a whole number from 0 to {RECYCLES}")
    if seat not in (0, 1) or isinstance(seat, bool):
        raise EngineError("The seat to move must be 0 or 1")
    if not is_count(passes) or passes > PASSES_TO_END:
        raise EngineError(f"The passes in a row must be a whole number from 0 to {PASSES_TO_END}")
    if not is_count(idle) or idle > STAGNATION_MOVES:
        raise EngineError(
            f"The moves without progress must be a whole number from 0 to {STAGNATION_MOVES}"
        )
    scores = data["scores"]
    # Scores follow from the moves played, which a snapshot does not hold: only their
    # form is checked.
    if (
        not isinstance(scores, list)
        or len(scores) != SEATS
        or not all(isinstance(score, int) and not isinstance(score, bool) for score in scores)
    ):
        raise EngineError("The scores must be a list of two whole numbers, seat 0 first")
    cards = [card for pile in tableau for card in pile.down + pile.up]
    cards += [*stock, *waste, *pillar_cards(pillars)]
    cards += [card for card in reserves if card is not None]
    check_twice(cards, "A Steps Duel snapshot")
    return DuelState(
        tableau=tableau,
        pillars=pillars,
        stock=stock,
        waste=waste,
        reserves=reserves,
        recycles=recycles,
        seat=seat,
        scores=tuple(scores),
        passes=passes,
        idle=idle,
    )


def _valid_up(up: tuple[str, ...]) -> str | None:
    return None if run_length(up) == len(up) else "are not a valid sequence"


def _load_pillars(value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != len(FULL_PILLARS)
        or not all(is_count(height) and height <= KING for height in value)
    ):
        raise EngineError(
            "The pillars must be 8 heights from 0 to 13, in order S1, S2, H1, H2, D1, D2, C1, C2"
        )
    if any(value[first] < value[first + 1] for first in range(0, len(value), 2)):
        raise EngineError("A suit's first pillar is never lower than its second")
    return tuple(value)


def _load_reserves(value: object) -> tuple[str | None, ...]:
    if (
        not isinstance(value, list)
        or len(value) != len(RESERVE_PLACES)
        or not all(card is None or is_card(card) for card in value)
    ):
        raise EngineError("The reserves must be a list of 4 slots, each a card code or null")
    return tuple(value)
