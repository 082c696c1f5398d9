"""The review label on a player's game: "Under review" or "Voided", nothing else."""

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from django import template

from reviews import selectors

register = template.Library()


@register.simple_tag
def review_label(game_id: UUID) -> str | None:
    """The label of one game (a closed one: the board asks only then)."""
    return selectors.review_label(game_id=game_id)


@register.simple_tag
def review_labels(games: Iterable[Any]) -> dict[UUID, str]:
    """The labels of a page of games, in one query."""
    return selectors.review_labels(game_ids=[game.id for game in games])


@register.filter
def review_note(label: str | None) -> str:
    """Why a game carries its label: what it means for the player's figures."""
    return selectors.PLAYER_NOTES.get(label or "", "")


@register.filter
def label_of(labels: dict[UUID, str], game_id: UUID) -> str:
    return labels.get(game_id, "")
