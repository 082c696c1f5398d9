"""Whether a closed game counts in its player's figures (history, profile)."""

from uuid import UUID

from games.models import Game


def game_figures_set(*, game_id: UUID, counted: bool) -> bool:
    """Count the game in its player's figures or leave it out (the review holds a
    result under review or voided until it is cleared); whether anything changed.
    One UPDATE that writes only when the value differs, inside the caller's
    transaction."""
    return bool(
        Game.objects.filter(id=game_id).exclude(in_figures=counted).update(in_figures=counted)
    )
