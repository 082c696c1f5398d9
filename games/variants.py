"""The engine rules of a stored game."""

from typing import Any

from games.engine import Variant, get_variant
from games.models import Game


def game_variant(game: Game) -> Variant[Any]:
    """The rules the game was dealt under: its variant at its rules version, so that
    a later version of the rules never changes how an old game loads or replays."""
    return get_variant(game.variant, rules_version=game.rules_version)
