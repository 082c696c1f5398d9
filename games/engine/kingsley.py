"""Kingsley, as /work/shared/rulebooks/kingsley.txt states it, with the readings of
docs/rules/kingsley.md.

A member of the Klondike family (klondike_family.py): the same building, sequences,
empty piles and foundations, but one card per draw, a single pass through the stock (no
recycle, ever), a score that is the number of cards on the foundations, and a game that
ends as lost when the stock is empty and no move can change the outcome (stuck.py).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .cards import RANK_VALUE
from .klondike_family import (
    FULL_FOUNDATIONS,
    KING,
    TAKES,
    KlondikeFamily,
    KlondikeFamilyState,
    builds_on,
    fits_foundation,
)
from .registry import register
from .stuck import FREE, STUCK, UNDECIDED, PilePair, Position, moved, position_of, stuck_verdict
from .tableau import Pile
from .variant import Json, Variant

ONE_PASS = "Kingsley allows one pass through the stock"
LOST_REASON = (
    "The stock is empty and no move can change the outcome: no card can reach a "
    "foundation, leave the waste or turn up."
)


@dataclass(frozen=True, slots=True, kw_only=True)
class KingsleyState(KlondikeFamilyState):
    """The family's state as it is: no recycles, and the score is derived."""


@register
class Kingsley(KlondikeFamily[KingsleyState]):
    key = "kingsley"
    name = "Kingsley"
    goal_kinds = (*Variant.goal_kinds, "foundation_rank", "foundation_suit", "foundation_cards")
    rules_version = 1
    draw_count = 1
    can_lose = True
    lost_reason = LOST_REASON

    def start(
        self,
        *,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        options: Json,
    ) -> KingsleyState:
        return KingsleyState(tableau=tableau, foundations=foundations, stock=stock)

    def recycle_refusal(self, state: KingsleyState) -> str | None:
        return ONE_PASS

    def score(self, state: KingsleyState) -> int:
        return sum(state.foundations)

    def is_lost(self, state: KingsleyState) -> bool:
        return self.lost_verdict(state) == STUCK

    def lost_verdict(self, state: KingsleyState) -> str:
        """The search's answer (stuck.py): ``STUCK`` (lost, proved from what the player
        sees), ``FREE``, or ``UNDECIDED`` when it reached its cap."""
        if state.stock or state.foundations == FULL_FOUNDATIONS:
            return FREE
        waste = state.waste[-1] if state.waste else None
        position = position_of(state.tableau)
        if _explore(position, waste, state.foundations) is None:
            return FREE  # a productive move is legal now: the usual case, and cheap
        return _verdict(position, waste, state.foundations)

    def public_view(self, state: KingsleyState) -> Json:
        status = self.status(state)
        return {
            **self.common_view(state),
            "score": self.score(state),
            "can_draw": bool(state.stock),
            "auto_complete": self.auto_complete_offered(state),
            "cards_on_foundations": sum(state.foundations),
            "status": status,
            "lost_reason": LOST_REASON if status == "lost" else None,
            "may_be_stuck": self.lost_verdict(state) == UNDECIDED,
        }

    def load_extra(
        self,
        data: Mapping[str, Any],
        *,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        waste: tuple[str, ...],
    ) -> KingsleyState:
        return KingsleyState(tableau=tableau, foundations=foundations, stock=stock, waste=waste)


@lru_cache(maxsize=256)
def _verdict(position: Position, waste: str | None, foundations: tuple[int, ...]) -> str:
    # Cached: apply() asks about the position it starts from and the one it ends in,
    # and legal_moves() and the public view ask again.
    return stuck_verdict(position, lambda each: _explore(each, waste, foundations))


def _explore(
    position: Position, waste: str | None, foundations: tuple[int, ...]
) -> list[list[PilePair]] | None:
    """None when a productive move is legal: a card to a foundation, the waste card
    anywhere, or a whole face-up sequence off face-down cards (onto a pile or, headed by
    a King, into an empty pile). Otherwise the positions after each tableau move."""
    if waste is not None and fits_foundation(waste, foundations):
        return None
    heads: dict[str, tuple[int, int]] = {}
    tops: list[tuple[int, str]] = []
    empty = False
    for index, (_, up) in enumerate(position):
        if not up:
            empty = True
            continue
        top = up[-1]
        if fits_foundation(top, foundations):
            return None
        tops.append((index, top))
        # Every face-up stack of Kingsley is a valid sequence, so each of its cards
        # heads a unit.
        for count in range(1, len(up) + 1):
            heads[up[-count]] = (index, count)
    if waste is not None and (
        (empty and RANK_VALUE[waste] == KING) or any(builds_on(waste, top) for _, top in tops)
    ):
        return None
    successors = []
    for target, top in tops:
        for card in TAKES[top]:
            if card in heads:
                source, count = heads[card]
                down, up = position[source]
                if down and count == len(up):
                    return None  # the move turns a card up
                successors.append(moved(position, source, target, count))
    # A King heads only a whole face-up stack. Into an empty pile it turns a card up
    # when there are face-down cards under it; with nothing under it, it only changes
    # piles, which is the same position once the piles are sorted.
    if empty and any(down and RANK_VALUE[up[0]] == KING for down, up in position):
        return None
    return successors
