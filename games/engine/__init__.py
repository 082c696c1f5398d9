"""Solitaire Arena's rules engine: pure Python, no Django, database, network or files.

Importing the package registers every variant.
"""

from . import kingsley, klondike, spiderette, spike, steps, steps_duel  # noqa: F401  (registers the variants)
from .cards import (
    RANKS,
    SUITS,
    card_name,
    full_deck,
    is_red,
    rank_of,
    rank_value,
    suit_of,
)
from .errors import EngineError
from .notation import Move, format_move, parse_move
from .registry import get_variant, register, variant_keys
from .replay import replay
from .rng import new_seed, shuffled_deck
from .variant import Step, Variant

__all__ = [
    "RANKS",
    "SUITS",
    "EngineError",
    "Move",
    "Step",
    "Variant",
    "card_name",
    "format_move",
    "full_deck",
    "get_variant",
    "is_red",
    "new_seed",
    "parse_move",
    "rank_of",
    "rank_value",
    "register",
    "replay",
    "shuffled_deck",
    "suit_of",
    "variant_keys",
]
