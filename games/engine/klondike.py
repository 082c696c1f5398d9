"""Klondike, draw 3, as /work/shared/rulebooks/klondike.txt states it.

The rules that matter for reading this module: build down in alternating colours; a
face-up card or a valid face-up sequence moves as a unit; an empty pile takes only a King
(or a King-headed sequence); foundations go A to K by suit, one card at a time, and never
give a card back; the waste is turned back into the stock without a shuffle, the first
three times free and then for 20 points each time.

The rulebook's points table is not published yet, so by default the score is only that
charge. Staff publish a table through the ``points`` option (docs/engine.md#klondike):
each of the scoring events below earns its points, on top of the charge, and the game's
options record the table it was scored by.

Everything but the recycles and the score is the Klondike family's (klondike_family.py).
"""

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NamedTuple

from .errors import EngineError
from .klondike_family import (
    KlondikeFamily,
    KlondikeFamilyState,
    placement_problem,
)
from .notation import FOUNDATION, TRANSFER, WASTE, Move
from .records import is_count, misfit
from .registry import register
from .tableau import Pile
from .variant import Json, Variant

__all__ = ["Klondike", "KlondikeState", "Pile", "PointsTable", "placement_problem"]

DRAW_COUNT = 3
FREE_RECYCLES = 3
RECYCLE_CHARGE = 20
"""Version 1's figures; a later version of the rules sets its own on its class."""

POINTS_OPTION = "points"
MAX_EVENT_POINTS = 1000
"""The largest number of points, either way, that a table may give one event."""


class PointsTable(NamedTuple):
    """A published points table: what each scoring event earns. Every event can happen
    only a bounded number of times in a game (a card leaves the waste, reaches a
    foundation or turns up once, and never goes back but by undo), so no table can be
    farmed by play. Moves between piles, draws and recycles are not events: a table
    could be farmed by repeating them, and the recycle charge is the rulebook's own."""

    waste_to_tableau: int = 0
    waste_to_foundation: int = 0
    tableau_to_foundation: int = 0
    flip: int = 0
    """A face-down card turned up by a move off its pile."""


POINT_EVENTS = PointsTable._fields


def points_table_of(value: object) -> PointsTable:
    """The table of the ``points`` option, events left out scoring 0; EngineError
    naming the problem."""
    if not isinstance(value, Mapping):
        raise EngineError(
            f"The points option is a table of scoring events and their points, not "
            f"{type(value).__name__}; leave it out for no table"
        )
    unknown = [event for event in value if event not in POINT_EVENTS]
    if unknown:
        raise EngineError(
            f"The points table has no event(s) {', '.join(map(repr, unknown))}; "
            f"the events are {', '.join(POINT_EVENTS)}"
        )
    points: dict[str, int] = {}
    for event, earned in value.items():
        if (
            not isinstance(earned, int)
            or isinstance(earned, bool)
            or abs(earned) > MAX_EVENT_POINTS
        ):
            raise EngineError(
                f"The points for {event} must be a whole number from {-MAX_EVENT_POINTS} "
                f"to {MAX_EVENT_POINTS}, not {earned!r}"
            )
        points[event] = earned
    return PointsTable(**points)


def move_points(table: PointsTable, move: Move, turned_up: bool) -> int:
    """What ``move`` earns by the table; ``turned_up``: it turned a face-down card up."""
    if move.kind != TRANSFER:
        return 0
    if move.src == WASTE:
        return table.waste_to_foundation if move.dst == FOUNDATION else table.waste_to_tableau
    earned = table.tableau_to_foundation if move.dst == FOUNDATION else 0
    return (earned + table.flip) if turned_up else earned


@dataclass(frozen=True, slots=True, kw_only=True)
class KlondikeState(KlondikeFamilyState):
    recycles: int = 0
    score: int = 0
    """The recycle charge, derived from ``recycles`` by the rules version that made the
    state, plus ``points_earned`` (kept in the state so that each move need not derive
    it again)."""
    points_table: PointsTable | None = None
    """The deal's published points table; None (the default) scores the charge alone."""
    points_earned: int = 0
    """What the table's events have earned along the line of play: undo takes back what
    the undone move earned."""


@register
class Klondike(KlondikeFamily[KlondikeState]):
    key = "klondike"
    name = "Klondike"
    goal_kinds = (
        *Variant.goal_kinds,
        "foundation_rank",
        "foundation_suit",
        "foundation_cards",
        "win_within_recycles",
    )
    rules_version = 1
    draw_count = DRAW_COUNT
    # Klondike never ends a game by itself, and its Steps carry no events.
    emits_end_events = False
    free_recycles: ClassVar[int] = FREE_RECYCLES
    recycle_charge: ClassVar[int] = RECYCLE_CHARGE

    extra_snapshot_keys = frozenset({"recycles", "score"})
    # Only games with a points table have them, so other snapshots stay as they were.
    optional_snapshot_keys = frozenset({"points_table", "points_earned"})

    def normalize_options(self, options: Mapping[str, object] | None) -> Json:
        """``{}`` without a table; ``{"points": {every event: points}}`` with one."""
        if options is None:
            return {}
        if not isinstance(options, Mapping):
            raise EngineError(f"Options must be an object, not {type(options).__name__}")
        unknown = [key for key in options if key != POINTS_OPTION]
        if unknown:
            raise EngineError(
                f"{self.name} takes no options but {POINTS_OPTION!r} (a published points "
                f"table); unknown option(s): {', '.join(map(repr, unknown))}"
            )
        if POINTS_OPTION not in options:
            return {}
        return {POINTS_OPTION: points_table_of(options[POINTS_OPTION])._asdict()}

    def start(
        self,
        *,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        options: Json,
    ) -> KlondikeState:
        table = points_table_of(options[POINTS_OPTION]) if POINTS_OPTION in options else None
        return KlondikeState(
            tableau=tableau, foundations=foundations, stock=stock, points_table=table
        )

    def tally(self, state: KlondikeState, move: Move, revealed: tuple[str, ...]) -> KlondikeState:
        table = state.points_table
        if table is None:
            return state
        earned = move_points(table, move, bool(revealed))
        if not earned:
            return state
        return replace(
            state, points_earned=state.points_earned + earned, score=state.score + earned
        )

    def untally(self, state: KlondikeState, move: Move, record: Mapping[str, Any]) -> KlondikeState:
        table = state.points_table
        if table is None:
            return state
        # The family has checked that the card the record says was turned up fits.
        earned = move_points(table, move, record.get("revealed") is not None)
        if not earned:
            return state
        return replace(
            state, points_earned=state.points_earned - earned, score=state.score - earned
        )

    def recycled(self, state: KlondikeState) -> KlondikeState:
        recycles = state.recycles + 1
        # Reversed, so the next pass draws the cards in the order the last pass did.
        return replace(
            state,
            stock=state.waste[::-1],
            waste=(),
            recycles=recycles,
            score=self.recycle_score(recycles) + state.points_earned,
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
            score=self.recycle_score(recycles) + state.points_earned,
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
        extra: Json = {"recycles": state.recycles, "score": state.score}
        if state.points_table is not None:
            extra["points_table"] = state.points_table._asdict()
            extra["points_earned"] = state.points_earned
        return extra

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
        table = None
        earned = 0
        present = self.optional_snapshot_keys.intersection(data)
        if present:
            if present != self.optional_snapshot_keys:
                raise EngineError(
                    f"A {self.name} snapshot with a points table holds both points_table "
                    "and points_earned"
                )
            table = points_table_of(data["points_table"])
            earned = data["points_earned"]
            # What the table earned depends on the order of play, which a snapshot does
            # not hold: only its form is checked.
            if not isinstance(earned, int) or isinstance(earned, bool):
                raise EngineError("The points earned must be a whole number")
        # The stored score is what the rules derived from the recycles and the points
        # earned; a version of the rules with another charge derives its own, so it is
        # recomputed, not checked.
        return KlondikeState(
            tableau=tableau,
            foundations=foundations,
            stock=stock,
            waste=waste,
            recycles=recycles,
            score=self.recycle_score(recycles) + earned,
            points_table=table,
            points_earned=earned,
        )
