"""Klondike, draw 3, as /work/shared/rulebooks/klondike.txt states it.

The rules that matter for reading this module: build down in alternating colours; a
face-up card or a valid face-up sequence moves as a unit; an empty pile takes only a King
(or a King-headed sequence); foundations go A to K by suit, one card at a time, and never
give a card back; the waste is turned back into the stock without a shuffle, the first
three times free and then for 20 points each time. The score is only that charge.

Everything but the recycles and the score is the Klondike family's (klondike_family.py).
"""

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from .errors import EngineError
from .klondike_family import (
    KlondikeFamily,
    KlondikeFamilyState,
    placement_problem,
)
from .records import is_count, misfit
from .registry import register
from .tableau import Pile
from .variant import Json

__all__ = ["Klondike", "KlondikeState", "Pile", "placement_problem"]

DRAW_COUNT = 3
FREE_RECYCLES = 3
RECYCLE_CHARGE = 20
"""Version 1's figures; a later version of the rules sets its own on its class."""


@dataclass(frozen=True, slots=True, kw_only=True)
class KlondikeState(KlondikeFamilyState):
    recycles: int = 0
    score: int = 0
    """The recycle charge, derived from ``recycles`` by the rules version that made the
    state (kept in the state so that each move need not derive it again)."""


@register
class Klondike(KlondikeFamily[KlondikeState]):
    key = "klondike"
    name = "Klondike"
    rules_version = 1
    draw_count = DRAW_COUNT
    # Klondike never ends a game by itself, and its Steps carry no events.
    emits_end_events = False
    free_recycles: ClassVar[int] = FREE_RECYCLES
    recycle_charge: ClassVar[int] = RECYCLE_CHARGE

    extra_snapshot_keys = frozenset({"recycles", "score"})

    def start(
        self,
        *,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        options: Json,
    ) -> KlondikeState:
        return KlondikeState(tableau=tableau, foundations=foundations, stock=stock)

    def recycled(self, state: KlondikeState) -> KlondikeState:
        recycles = state.recycles + 1
        # Reversed, so the next pass draws the cards in the order the last pass did.
        return replace(
            state,
            stock=state.waste[::-1],
            waste=(),
            recycles=recycles,
            score=self.recycle_score(recycles),
        )

    def unrecycled(self, state: KlondikeState) -> KlondikeState:
        if state.recycles < 1:
            raise misfit()
        recycles = state.recycles - 1
        return replace(
            state,
            stock=(),
            waste=state.stock[::-1],
            recycles=recycles,
            score=self.recycle_score(recycles),
        )

    def recycle_score(self, recycles: int) -> int:
        """The score after ``recycles`` recycles: the charge for each one past the free
        ones."""
        return -self.recycle_charge * max(0, recycles - self.free_recycles)

    def score(self, state: KlondikeState) -> int:
        return state.score

    def public_view(self, state: KlondikeState) -> Json:
        return {
            **self.common_view(state),
            "score": state.score,
            "recycles": state.recycles,
            "free_recycles_left": max(0, self.free_recycles - state.recycles),
            "can_draw": bool(state.stock),
            "can_recycle": not state.stock and bool(state.waste),
            "auto_complete": self.auto_complete_offered(state),
            "cards_on_foundations": sum(state.foundations),
            "status": self.status(state),
        }

    def dump_extra(self, state: KlondikeState) -> Json:
        return {"recycles": state.recycles, "score": state.score}

    def load_extra(
        self,
        data: Mapping[str, Any],
        *,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        waste: tuple[str, ...],
    ) -> KlondikeState:
        recycles = data["recycles"]
        if not is_count(recycles):
            raise EngineError("The recycle count must be a whole number from 0 up")
        score = data["score"]
        if not isinstance(score, int) or isinstance(score, bool):
            raise EngineError("The score must be a whole number")
        # The stored score is what the rules derived from the recycles; a version of the
        # rules with another charge derives its own, so it is recomputed, not checked.
        return KlondikeState(
            tableau=tableau,
            foundations=foundations,
            stock=stock,
            waste=waste,
            recycles=recycles,
            score=self.recycle_score(recycles),
        )
