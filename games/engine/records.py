"""Reading undo records and snapshots back: the checks every variant shares."""

from collections.abc import Mapping
from typing import Any

from .cards import is_card
from .errors import EngineError
from .notation import Move, parse_move


def misfit() -> EngineError:
    return EngineError("This undo record does not fit the current state")


def record_move(record: Mapping[str, Any]) -> Move:
    """The move an undo record is for; the misfit error if it names none."""
    if not isinstance(record, Mapping) or not isinstance(record.get("move"), str):
        raise misfit()
    try:
        return parse_move(record["move"])
    except EngineError:
        raise misfit() from None


def record_cards(record: Mapping[str, Any], key: str) -> tuple[str, ...]:
    cards = record.get(key)
    if not isinstance(cards, list) or not all(is_card(card) for card in cards):
        raise misfit()
    return tuple(cards)


def record_card(record: Mapping[str, Any], key: str) -> str | None:
    """A card or null under ``key``; the misfit error for anything else."""
    card = record.get(key)
    if card is not None and not is_card(card):
        raise misfit()
    return card


def is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def load_cards(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(is_card(card) for card in value):
        raise EngineError(f"{where.capitalize()} must be a list of card codes")
    return tuple(value)


def check_snapshot(data: object, name: str, key: str, keys: set[str]) -> Mapping[str, Any]:
    """The snapshot as a mapping with exactly ``keys``, of the variant ``key``."""
    if not isinstance(data, Mapping):
        raise EngineError(f"A {name} snapshot must be an object")
    if set(data) != keys:
        raise EngineError(f"A {name} snapshot has exactly the keys {', '.join(sorted(keys))}")
    if data["variant"] != key:
        raise EngineError(f"Not a {name} snapshot: variant {data['variant']!r}")
    return data
