"""Steps, as /work/shared/rulebooks/steps.txt states it, with the readings of
docs/rules/steps.md (Classic Ascension, solo).

A member of the Klondike family (klondike_family.py): the same seven-pile deal, building
down in alternating colours, sequences moving as a unit, Kings alone filling empty piles,
foundations by suit, stock and waste. Steps adds:

- up to four reserve slots r1..r4 holding one card each: any single exposed card of the
  tableau or the waste goes into an empty slot, and a slot's card plays to a pile or a
  foundation when that is legal;
- options stored with the deal: ``draw`` 1 or 3, ``buffers`` 0 to 4 slots, ``recycles``
  allowed, ``retrieval`` (the top foundation card may come back onto a pile);
- two figures: the action points of the rulebook's table 2.5, kept in the state move by
  move (``points``), and the Architect Ledger of 2.7, which is the score;
- a game lost by Stagnation Lockout, decided by the bounded search of stuck.py over the
  tableau, the reserve slots and (with retrieval) the foundations.
"""

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, TypeGuard

from .cards import RANK_VALUE, SUIT_INDEX, SUITS, card_name, card_of, is_card, suit_name
from .errors import EngineError
from .klondike_family import (
    FULL_FOUNDATIONS,
    KING,
    SEQUENCE,
    TAKES,
    KlondikeFamily,
    KlondikeFamilyState,
    already_lost,
    builds_on,
    fits_foundation,
    pile_refusal,
    placement_problem,
)
from .notation import (
    FOUNDATION,
    FOUNDATION_SOURCES,
    RECYCLE,
    RESERVE_PLACES,
    TABLEAU_PLACES,
    TRANSFER,
    WASTE,
    Move,
    format_move,
)
from .records import is_count, misfit, record_card, record_cards, record_move
from .registry import register
from .stuck import PilePair, is_stuck_among, moved
from .tableau import PILE_INDEX, Pile, lift, replace_pile, turn_down, turn_up
from .variant import LOST, Json, Step

# Options (docs/rules/steps.md#options)
DRAW_OPTION, BUFFERS_OPTION, RECYCLES_OPTION, RETRIEVAL_OPTION = (
    "draw",
    "buffers",
    "recycles",
    "retrieval",
)
OPTION_KEYS = (DRAW_OPTION, BUFFERS_OPTION, RECYCLES_OPTION, RETRIEVAL_OPTION)
DRAW_CHOICES = (1, 3)
MAX_BUFFERS = len(RESERVE_PLACES)
MAX_RECYCLES = 99

# Action points, table 2.5 of the rulebook (docs/rules/steps.md#action-points)
WASTE_TO_TABLEAU = 5
TO_FOUNDATION = 10
TURNED_UP = 5
INTO_RESERVE = -2
FROM_RESERVE = 5
RECYCLE_POINTS = -20
RETRIEVAL_POINTS = -10

# The Architect Ledger, 2.7
PER_FOUNDATION_CARD = 10
PER_RECYCLE = -20
FLAWLESS_BONUS = 100
TIME_BONUS_POINTS = 2
TIME_BONUS_EVERY = 10
LEDGER_LABELS = (
    "Cards on the foundations (10 each)",
    "Recycles (-20 each)",
    "Flawless ascension (no reserve slot used)",
)

TOURNAMENT = "Foundation cards never return to the tableau in tournament play"
LOST_REASON = (
    "The stock is empty, no recycle can turn the waste back and no move can change the "
    "outcome: no card can reach a foundation, leave the waste or turn up."
)

RESERVE_INDEX = {place: index for index, place in enumerate(RESERVE_PLACES)}
"""r1 -> 0 .. r4 -> 3."""
FOUNDATION_SOURCE_INDEX = {place: index for index, place in enumerate(FOUNDATION_SOURCES)}
"""fS -> 0 .. fC -> 3, the suit order of the foundations."""
EMPTY_RESERVES: tuple[str | None, ...] = (None,) * MAX_BUFFERS

# Steps' own transfers, built once (the family holds the others).
MOVES = {
    (src, dst): Move(TRANSFER, src, dst)
    for src, dst in [
        *((slot, dst) for slot in RESERVE_PLACES for dst in (FOUNDATION, *TABLEAU_PLACES)),
        *((src, slot) for src in (WASTE, *TABLEAU_PLACES) for slot in RESERVE_PLACES),
        *((src, pile) for src in FOUNDATION_SOURCES for pile in TABLEAU_PLACES),
    ]
}


@dataclass(frozen=True, slots=True)
class StepsOptions:
    """The options of a deal, stored with the game."""

    draw: int = 1
    buffers: int = MAX_BUFFERS
    """How many reserve slots the deal has: r1 to r<buffers>."""
    recycles: int = 3
    """How many times the waste may be turned back into the stock."""
    retrieval: bool = False

    def as_json(self) -> Json:
        return {
            DRAW_OPTION: self.draw,
            BUFFERS_OPTION: self.buffers,
            RECYCLES_OPTION: self.recycles,
            RETRIEVAL_OPTION: self.retrieval,
        }


DEFAULT_OPTIONS = StepsOptions()


@dataclass(frozen=True, slots=True)
class StepsState(KlondikeFamilyState):
    reserves: tuple[str | None, ...] = EMPTY_RESERVES
    """Slots r1..r4, a card or None; slots beyond the deal's ``buffers`` stay None."""
    options: StepsOptions = DEFAULT_OPTIONS
    recycles: int = 0
    """Recycles used in the line of play in effect."""
    points: int = 0
    """Action points (table 2.5) of the line of play in effect."""
    reserve_uses: int = 0
    """Moves of the line of play in effect that put a card into a slot; the flawless
    bonus needs none."""


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def options_of(options: Mapping[str, object] | None) -> StepsOptions:
    """Validated options; EngineError naming the problem."""
    if options is None:
        return DEFAULT_OPTIONS
    if not isinstance(options, Mapping):
        raise EngineError(f"Options must be an object, not {type(options).__name__}")
    unknown = [key for key in options if key not in OPTION_KEYS]
    if unknown:
        raise EngineError(
            f"Steps has no option(s) {', '.join(map(repr, unknown))}; "
            f"the options are {', '.join(OPTION_KEYS)}"
        )
    draw = options.get(DRAW_OPTION, DEFAULT_OPTIONS.draw)
    if not _whole(draw) or draw not in DRAW_CHOICES:
        raise EngineError(f"The draw option is 1 or 3 (cards per draw), not {draw!r}")
    buffers = options.get(BUFFERS_OPTION, DEFAULT_OPTIONS.buffers)
    if not _whole(buffers) or not 0 <= buffers <= MAX_BUFFERS:
        raise EngineError(
            f"The buffers option is a whole number of reserve slots from 0 to {MAX_BUFFERS}, "
            f"not {buffers!r}"
        )
    recycles = options.get(RECYCLES_OPTION, DEFAULT_OPTIONS.recycles)
    if not _whole(recycles) or not 0 <= recycles <= MAX_RECYCLES:
        raise EngineError(
            f"The recycles option is a whole number from 0 to {MAX_RECYCLES}, not {recycles!r}"
        )
    retrieval = options.get(RETRIEVAL_OPTION, DEFAULT_OPTIONS.retrieval)
    if not isinstance(retrieval, bool):
        raise EngineError(f"The retrieval option is true or false, not {retrieval!r}")
    return StepsOptions(draw, buffers, recycles, retrieval)


def move_points(move: Move, turned_up: bool) -> int:
    """The action points a move earns (table 2.5): every line that applies, so a tableau
    card to its foundation that turns a card up earns 10 + 5. ``turned_up`` says whether
    the move turned a tableau card face up."""
    if move.kind == RECYCLE:
        return RECYCLE_POINTS
    if move.kind != TRANSFER:
        return 0  # draw
    src, dst = move.src, move.dst
    points = TURNED_UP if turned_up else 0
    if src in RESERVE_INDEX:
        return points + FROM_RESERVE  # to a pile or a foundation alike: +5 only
    if dst in RESERVE_INDEX:
        return points + INTO_RESERVE
    if src in FOUNDATION_SOURCE_INDEX:
        return RETRIEVAL_POINTS
    if dst == FOUNDATION:
        return points + TO_FOUNDATION
    if src == WASTE:
        return WASTE_TO_TABLEAU
    return points


def ledger_lines(state: StepsState) -> list[Json]:
    """The Architect Ledger line by line, without the time bonus."""
    won = state.foundations == FULL_FOUNDATIONS
    values = (
        PER_FOUNDATION_CARD * sum(state.foundations),
        PER_RECYCLE * state.recycles,
        FLAWLESS_BONUS if won and state.reserve_uses == 0 else 0,
    )
    return [
        {"label": label, "value": value} for label, value in zip(LEDGER_LABELS, values, strict=True)
    ]


def ledger(state: StepsState) -> int:
    """The Architect Ledger without the time bonus: the score."""
    flawless = state.reserve_uses == 0 and state.foundations == FULL_FOUNDATIONS
    return (
        PER_FOUNDATION_CARD * sum(state.foundations)
        + PER_RECYCLE * state.recycles
        + (FLAWLESS_BONUS if flawless else 0)
    )


def time_bonus(seconds_left: int) -> int:
    """The ledger's time bonus in timed play: 2 points for every full 10 seconds left."""
    return TIME_BONUS_POINTS * (max(0, seconds_left) // TIME_BONUS_EVERY)


def slots_message(buffers: int) -> str:
    if buffers == 0:
        return "This deal has no reserve slots"
    if buffers == 1:
        return "This deal has 1 reserve slot"
    return f"This deal has {buffers} reserve slots"


Reserves = tuple[str | None, ...]


def _with_slot(reserves: Reserves, slot: int, card: str | None) -> Reserves:
    return (*reserves[:slot], card, *reserves[slot + 1 :])


def _raised(foundations: tuple[int, ...], suit: int, by: int) -> tuple[int, ...]:
    return (*foundations[:suit], foundations[suit] + by, *foundations[suit + 1 :])


def _takes(pile: Pile, card: str) -> bool:
    return builds_on(card, pile.up[-1]) if pile.up else RANK_VALUE[card] == KING


@register
class Steps(KlondikeFamily[StepsState]):
    key = "steps"
    name = "Steps"
    rules_version = 1
    can_lose = True
    lost_reason = LOST_REASON
    _extra_keys = frozenset({"options", "reserves", "recycles", "points", "reserve_uses"})

    # Options and the family's hooks

    def normalize_options(self, options: Mapping[str, object] | None) -> Json:
        return options_of(options).as_json()

    def _start(
        self,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        options: Json,
    ) -> StepsState:
        return StepsState(tableau, foundations, stock, (), EMPTY_RESERVES, StepsOptions(**options))

    def _rebuild(
        self,
        state: StepsState,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        waste: tuple[str, ...],
    ) -> StepsState:
        return StepsState(
            tableau,
            foundations,
            stock,
            waste,
            state.reserves,
            state.options,
            state.recycles,
            state.points,
            state.reserve_uses,
        )

    def cards_per_draw(self, state: StepsState) -> int:
        return state.options.draw

    def recycle_refusal(self, state: StepsState) -> str | None:
        allowed = state.options.recycles
        if state.recycles < allowed:
            return None
        if allowed == 0:
            return "Steps allows no recycle in this deal"
        if allowed == 1:
            return "Steps allows 1 recycle in this deal, and it is used"
        return f"Steps allows {allowed} recycles in this deal, and all {allowed} are used"

    def _recycled(self, state: StepsState) -> StepsState:
        # Reversed, so the next pass draws the cards in the order the last pass did.
        return replace(state, stock=state.waste[::-1], waste=(), recycles=state.recycles + 1)

    def _unrecycled(self, state: StepsState) -> StepsState:
        if state.recycles < 1:
            raise misfit()
        return replace(state, stock=(), waste=state.stock[::-1], recycles=state.recycles - 1)

    def score(self, state: StepsState) -> int:
        return ledger(state)

    def points(self, state: StepsState) -> int:
        return state.points

    def final_score(self, state: StepsState, elapsed_seconds: int) -> int:
        """The ledger, plus the time bonus when the game has a clock (none in Classic
        Ascension: ``time_limit_seconds`` is None, so this is the ledger)."""
        limit = self.time_limit_seconds(state)
        if limit is None:
            return ledger(state)
        return ledger(state) + time_bonus(limit - elapsed_seconds)

    # Moves

    def _step(
        self,
        before: StepsState,
        after: StepsState,
        move: Move,
        revealed: tuple[str, ...],
        record: Json,
    ) -> Step[StepsState]:
        gained = move_points(move, bool(revealed) and move.src in PILE_INDEX)
        used = 1 if move.dst in RESERVE_INDEX else 0
        if gained or used:
            after = StepsState(
                after.tableau,
                after.foundations,
                after.stock,
                after.waste,
                after.reserves,
                after.options,
                after.recycles,
                after.points + gained,
                after.reserve_uses + used,
            )
        return super()._step(before, after, move, revealed, record)

    @staticmethod
    def _productive(step: Step[StepsState]) -> bool:
        """A card to a foundation, a card turned up, the waste card leaving the waste
        (onto a pile, to a foundation or into a slot), a draw or a recycle."""
        move = step.move
        if move.kind != TRANSFER:
            return True
        return bool(step.revealed) or move.src == WASTE or move.dst == FOUNDATION

    def apply(self, state: StepsState, move: Move) -> Step[StepsState]:
        # A retrieval leads out of a lost position into one that is not (the card can go
        # back up), so the family's check after the move would not catch it.
        if (
            move.kind == TRANSFER
            and move.src in FOUNDATION_SOURCE_INDEX
            and not state.stock
            and self.is_lost(state)
        ):
            raise EngineError(already_lost(LOST_REASON))
        return super().apply(state, move)

    def legal_moves(self, state: StepsState) -> list[Move]:
        """The family's moves, then from each slot to its foundation and onto piles, the
        retrievals (option on), then the waste and each pile top into each empty slot;
        nothing once the game is won or lost."""
        moves = super().legal_moves(state)
        foundations = state.foundations
        if foundations == FULL_FOUNDATIONS or (not moves and self.is_lost(state)):
            return []
        tableau = state.tableau
        reserves = state.reserves
        options = state.options
        empty_slots = []
        for slot in range(options.buffers):
            card = reserves[slot]
            place = RESERVE_PLACES[slot]
            if card is None:
                empty_slots.append(place)
                continue
            if fits_foundation(card, foundations):
                moves.append(MOVES[place, FOUNDATION])
            moves.extend(
                MOVES[place, target]
                for target, pile in zip(TABLEAU_PLACES, tableau, strict=True)
                if _takes(pile, card)
            )
        if options.retrieval:
            for source, suit, height in zip(FOUNDATION_SOURCES, SUITS, foundations, strict=True):
                if height:
                    card = card_of(suit, height)
                    moves.extend(
                        MOVES[source, target]
                        for target, pile in zip(TABLEAU_PLACES, tableau, strict=True)
                        if _takes(pile, card)
                    )
        if empty_slots:
            if state.waste:
                moves.extend(MOVES[WASTE, slot] for slot in empty_slots)
            for place, pile in zip(TABLEAU_PLACES, tableau, strict=True):
                if pile.up:
                    moves.extend(MOVES[place, slot] for slot in empty_slots)
        return moves

    def _transfer(self, state: StepsState, move: Move) -> Step[StepsState]:
        if move.src in RESERVE_INDEX or move.dst in RESERVE_INDEX:
            return self._reserve_transfer(state, move)
        if move.src in FOUNDATION_SOURCE_INDEX:
            return self._retrieve(state, move)
        return super()._transfer(state, move)

    def _open_slot(self, state: StepsState, place: str) -> int:
        """The index of a slot of this deal; EngineError for a slot it does not have."""
        slot = RESERVE_INDEX[place]
        if slot >= state.options.buffers:
            raise EngineError(slots_message(state.options.buffers))
        return slot

    def _reserve_transfer(self, state: StepsState, move: Move) -> Step[StepsState]:
        src, dst = str(move.src), str(move.dst)
        if src in RESERVE_INDEX and dst in RESERVE_INDEX:
            raise EngineError("Moving a card from one reserve slot to another changes nothing")
        if src in FOUNDATION_SOURCE_INDEX:
            if not state.options.retrieval:
                raise EngineError(TOURNAMENT)
            raise EngineError(
                "A foundation card comes back only onto a tableau pile, not into a reserve slot"
            )
        tableau = state.tableau
        foundations = state.foundations
        waste = state.waste
        revealed: tuple[str, ...] = ()
        if dst in RESERVE_INDEX:
            slot = self._open_slot(state, dst)
            if move.count != 1:
                raise EngineError("A reserve slot holds one card: move one card at a time into it")
            held = state.reserves[slot]
            if held is not None:
                raise EngineError(f"Reserve slot {dst} already holds the {card_name(held)}")
            if src == WASTE:
                if not waste:
                    raise EngineError("The waste is empty: draw from the stock first")
                card = waste[-1]
                waste = waste[:-1]
            else:
                index = PILE_INDEX[src]
                lifted, pile = lift(tableau[index], index, 1, placement_problem, SEQUENCE)
                card = lifted[0]
                pile, revealed = turn_up(pile)
                tableau = replace_pile(tableau, index, pile)
            reserves = _with_slot(state.reserves, slot, card)
        else:
            slot = self._open_slot(state, src)
            held = state.reserves[slot]
            if held is None:
                raise EngineError(f"Reserve slot {src} is empty")
            card = held
            if dst == FOUNDATION:
                suit = SUIT_INDEX[card]
                if RANK_VALUE[card] != foundations[suit] + 1:
                    raise EngineError(self._foundation_problem(card, foundations[suit]))
                foundations = _raised(foundations, suit, 1)
            else:
                index = PILE_INDEX[dst]
                tableau = self._onto(tableau, index, card)
            reserves = _with_slot(state.reserves, slot, None)
        after = StepsState(
            tableau,
            foundations,
            state.stock,
            waste,
            reserves,
            state.options,
            state.recycles,
            state.points,
            state.reserve_uses,
        )
        record: Json = {
            "move": format_move(move),
            "cards": [card],
            "revealed": revealed[0] if revealed else None,
        }
        return self._step(state, after, move, revealed, record)

    def _retrieve(self, state: StepsState, move: Move) -> Step[StepsState]:
        if not state.options.retrieval:
            raise EngineError(TOURNAMENT)
        suit = FOUNDATION_SOURCE_INDEX[str(move.src)]
        height = state.foundations[suit]
        if height == 0:
            raise EngineError(f"The {suit_name(SUITS[suit])} foundation is empty")
        card = card_of(SUITS[suit], height)
        index = PILE_INDEX[str(move.dst)]
        after = replace(
            state,
            tableau=self._onto(state.tableau, index, card),
            foundations=_raised(state.foundations, suit, -1),
        )
        record: Json = {"move": format_move(move), "cards": [card], "revealed": None}
        return self._step(state, after, move, (), record)

    @staticmethod
    def _onto(tableau: tuple[Pile, ...], index: int, card: str) -> tuple[Pile, ...]:
        """The tableau with one card put on pile ``index``; EngineError if it does not
        take it."""
        pile = tableau[index]
        refusal = pile_refusal(pile, index, card)
        if refusal is not None:
            raise EngineError(refusal)
        return replace_pile(tableau, index, Pile(pile.down, (*pile.up, card)))

    # Undo

    def undo(self, state: StepsState, record: Mapping[str, Any]) -> StepsState:
        """The family's undo, then the move's action points and reserve use given back."""
        before = super().undo(state, record)
        move = record_move(record)
        turned_up = (
            move.kind == TRANSFER and move.src in PILE_INDEX and record.get("revealed") is not None
        )
        used = 1 if move.dst in RESERVE_INDEX else 0
        if state.reserve_uses < used:
            raise misfit()
        return replace(
            before,
            points=state.points - move_points(move, turned_up),
            reserve_uses=state.reserve_uses - used,
        )

    def _undo_transfer(
        self, state: StepsState, move: Move, record: Mapping[str, Any]
    ) -> StepsState:
        src, dst = move.src, move.dst
        if (
            src not in RESERVE_INDEX
            and dst not in RESERVE_INDEX
            and src not in FOUNDATION_SOURCE_INDEX
        ):
            return super()._undo_transfer(state, move, record)
        cards = record_cards(record, "cards")
        revealed = record_card(record, "revealed")
        if len(cards) != 1 or move.count != 1:
            raise misfit()
        card = cards[0]
        tableau = state.tableau
        foundations = state.foundations
        waste = state.waste
        reserves = state.reserves
        suit = SUIT_INDEX[card]
        if dst in RESERVE_INDEX:
            slot = RESERVE_INDEX[dst]
            if reserves[slot] != card:
                raise misfit()
            reserves = _with_slot(reserves, slot, None)
            if src == WASTE and revealed is None:
                waste = (*waste, card)
            elif src in PILE_INDEX:
                index = PILE_INDEX[src]
                pile = tableau[index]
                if revealed is not None:
                    turned = turn_down(pile, revealed)
                    if turned is None:
                        raise misfit()
                    pile = turned
                tableau = replace_pile(tableau, index, Pile(pile.down, (*pile.up, card)))
            else:
                raise misfit()
        else:
            if revealed is not None:
                raise misfit()
            # Take the card back from where it went...
            if dst == FOUNDATION:
                if src not in RESERVE_INDEX or foundations[suit] != RANK_VALUE[card]:
                    raise misfit()
                foundations = _raised(foundations, suit, -1)
            elif dst in PILE_INDEX:
                index = PILE_INDEX[dst]
                pile = tableau[index]
                if pile.up[-1:] != (card,):
                    raise misfit()
                tableau = replace_pile(tableau, index, Pile(pile.down, pile.up[:-1]))
            else:
                raise misfit()
            # ... and give it back to the slot or foundation it came from.
            if src in RESERVE_INDEX:
                slot = RESERVE_INDEX[src]
                if reserves[slot] is not None:
                    raise misfit()
                reserves = _with_slot(reserves, slot, card)
            elif (
                FOUNDATION_SOURCE_INDEX[str(src)] == suit
                and foundations[suit] == RANK_VALUE[card] - 1
            ):
                foundations = _raised(foundations, suit, 1)
            else:
                raise misfit()
        return StepsState(
            tableau,
            foundations,
            state.stock,
            waste,
            reserves,
            state.options,
            state.recycles,
            state.points,
            state.reserve_uses,
        )

    # Status

    def is_lost(self, state: StepsState) -> bool:
        if state.stock or state.foundations == FULL_FOUNDATIONS:
            return False
        options = state.options
        if state.waste and state.recycles < options.recycles:
            return False  # a recycle is left, and it is productive
        waste = state.waste[-1] if state.waste else None
        position = position_of(state)
        context = (waste, options.buffers, sum(state.foundations), options.retrieval)
        if _explore(position, *context) is None:
            return False  # a productive move is legal now: the usual case, and cheap
        return _stuck(position, *context)

    # Helpers for the player

    def tap(self, state: StepsState, source: str, count: int = 1) -> Move | None:
        """As the family's tap; a slot's card goes to its foundation if it fits, else onto
        the first pile from the left that takes it. A tap never fills a slot."""
        if source not in RESERVE_INDEX:
            return super().tap(state, source, count)
        if count != 1:
            raise EngineError("A reserve slot holds one card: tap it alone")
        card = state.reserves[self._open_slot(state, source)]
        if card is None:
            return None
        if fits_foundation(card, state.foundations):
            return MOVES[source, FOUNDATION]
        for target, pile in zip(TABLEAU_PLACES, state.tableau, strict=True):
            if _takes(pile, card):
                return MOVES[source, target]
        return None

    def auto_complete_offered(self, state: StepsState) -> bool:
        # Kept simple: the slots must be empty too.
        return state.reserves == EMPTY_RESERVES and super().auto_complete_offered(state)

    # Views and storage

    def public_view(self, state: StepsState) -> Json:
        options = state.options
        view = self.common_view(state)
        fan = 3 if options.draw == 3 else 1
        lines = ledger_lines(state)
        total = sum(line["value"] for line in lines)
        recycles_left = options.recycles - state.recycles
        status = self.status(state)
        return {
            "variant": self.key,
            "options": options.as_json(),
            "tableau": view["tableau"],
            "foundations": view["foundations"],
            "reserves": [
                {"slot": RESERVE_PLACES[slot], "card": card, "enabled": slot < options.buffers}
                for slot, card in enumerate(state.reserves)
            ],
            "stock": len(state.stock),
            "waste": {"count": len(state.waste), "fan": list(state.waste[-fan:])},
            "points": state.points,
            "ledger": total,
            "ledger_lines": lines,
            "recycles": state.recycles,
            "recycles_left": recycles_left,
            "can_draw": bool(state.stock),
            "can_recycle": not state.stock and bool(state.waste) and recycles_left > 0,
            "auto_complete": self.auto_complete_offered(state),
            "cards_on_foundations": sum(state.foundations),
            "reserve_used_ever": state.reserve_uses > 0,
            "status": status,
            "lost_reason": LOST_REASON if status == LOST else None,
            "score": total,
        }

    def _held_cards(self, state: StepsState) -> tuple[str, ...]:
        return tuple(card for card in state.reserves if card is not None)

    def _dump_extra(self, state: StepsState) -> Json:
        return {
            "options": state.options.as_json(),
            "reserves": list(state.reserves),
            "recycles": state.recycles,
            "points": state.points,
            "reserve_uses": state.reserve_uses,
        }

    def _load_extra(
        self,
        data: Mapping[str, Any],
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        waste: tuple[str, ...],
    ) -> StepsState:
        given = data["options"]
        if not isinstance(given, Mapping) or set(given) != set(OPTION_KEYS):
            raise EngineError(
                f"A Steps snapshot's options must give {', '.join(OPTION_KEYS)}, all four"
            )
        options = options_of(given)
        reserves = _load_reserves(data["reserves"], options.buffers)
        recycles = data["recycles"]
        if not is_count(recycles) or recycles > options.recycles:
            raise EngineError(
                f"The recycle count must be a whole number from 0 to {options.recycles}"
            )
        points = data["points"]
        if not _whole(points):
            raise EngineError("The action points must be a whole number")
        uses = data["reserve_uses"]
        held = sum(card is not None for card in reserves)
        if not is_count(uses) or uses < held:
            raise EngineError(
                "The reserve uses must be a whole number, at least the cards in the slots"
            )
        return StepsState(
            tableau, foundations, stock, waste, reserves, options, recycles, points, uses
        )


def _load_reserves(value: object, buffers: int) -> tuple[str | None, ...]:
    if not isinstance(value, list) or len(value) != MAX_BUFFERS:
        raise EngineError("The reserves must be a list of 4 slots, each a card code or null")
    reserves: list[str | None] = []
    for slot, card in enumerate(value):
        if card is None:
            reserves.append(None)
            continue
        if not is_card(card):
            raise EngineError("The reserves must be a list of 4 slots, each a card code or null")
        if slot >= buffers:
            raise EngineError(f"Slot {RESERVE_PLACES[slot]} is closed: {slots_message(buffers)}")
        reserves.append(card)
    return tuple(reserves)


# Stagnation Lockout (docs/rules/steps.md#winning-and-losing)

StepsPosition = tuple[tuple[PilePair, ...], tuple[str, ...], tuple[int, ...]]
"""The sorted piles, the sorted cards in the slots, and the foundation heights."""


def position_of(state: StepsState) -> StepsPosition:
    return _canonical(
        [(pile.down, pile.up) for pile in state.tableau],
        tuple(card for card in state.reserves if card is not None),
        state.foundations,
    )


def _canonical(
    piles: list[PilePair], reserve: tuple[str, ...], foundations: tuple[int, ...]
) -> StepsPosition:
    return tuple(sorted(piles)), tuple(sorted(reserve)), foundations


@lru_cache(maxsize=256)
def _stuck(
    position: StepsPosition,
    waste: str | None,
    buffers: int,
    start_total: int,
    retrieval: bool,
) -> bool:
    # Cached: apply() asks about the position it starts from and the one it ends in,
    # and legal_moves() asks again.
    return is_stuck_among(
        position, lambda each: _explore(each, waste, buffers, start_total, retrieval)
    )


def _explore(
    position: StepsPosition,
    waste: str | None,
    buffers: int,
    start_total: int,
    retrieval: bool,
) -> list[StepsPosition] | None:
    """None when a productive move is legal in the position; otherwise the positions
    after each non-productive move.

    Productive: a card turned up; the waste card leaving the waste (to a foundation,
    onto a pile, into a free slot); a card put on a foundation while the foundations hold
    as many cards as where the search started (``start_total``). Below that, after
    retrievals, putting a card up only puts back what the search took down, and is a
    non-productive move like the retrievals, the tableau rearrangements and the moves
    into and out of the slots."""
    piles, reserve, foundations = position
    free = buffers - len(reserve)
    raising = sum(foundations) >= start_total
    if waste is not None and (free > 0 or fits_foundation(waste, foundations)):
        return None
    heads: dict[str, tuple[int, int]] = {}
    tops: list[tuple[int, str]] = []
    empty = -1
    for index, (down, up) in enumerate(piles):
        if not up:
            empty = index
            continue
        top = up[-1]
        fits = fits_foundation(top, foundations)
        if down and len(up) == 1 and (free > 0 or fits):
            return None  # into a slot or up to its foundation, turning a card up
        if raising and fits:
            return None
        tops.append((index, top))
        # Every face-up stack is a valid sequence, so each of its cards heads a unit.
        for count in range(1, len(up) + 1):
            heads[up[-count]] = (index, count)
    if waste is not None and (
        (empty >= 0 and RANK_VALUE[waste] == KING) or any(builds_on(waste, top) for _, top in tops)
    ):
        return None
    if raising and any(fits_foundation(card, foundations) for card in reserve):
        return None
    if empty >= 0 and any(down and RANK_VALUE[up[0]] == KING for down, up in piles):
        return None  # a King-headed stack off face-down cards into the empty pile
    successors = []
    for target, top in tops:
        for card in TAKES[top]:
            if card in heads:
                source, count = heads[card]
                down, up = piles[source]
                if down and count == len(up):
                    return None  # the move turns a card up
                successors.append(
                    _canonical(moved(piles, source, target, count), reserve, foundations)
                )
    # A King-headed stack with nothing under it into an empty pile only changes piles:
    # the same position once the piles are sorted.
    for index, top in tops:
        down, up = piles[index]
        rest = list(piles)
        rest[index] = (down, up[:-1])
        if free > 0:  # a pile's top into a slot (turning nothing up)
            successors.append(_canonical(rest, (*reserve, top), foundations))
        if not raising and fits_foundation(top, foundations):  # putting back
            successors.append(_canonical(rest, reserve, _raised(foundations, SUIT_INDEX[top], 1)))
    for number, card in enumerate(reserve):
        others = reserve[:number] + reserve[number + 1 :]
        successors.extend(
            _canonical(_put(piles, target, card), others, foundations)
            for target in _targets(card, tops, empty)
        )
        if not raising and fits_foundation(card, foundations):
            successors.append(
                _canonical(list(piles), others, _raised(foundations, SUIT_INDEX[card], 1))
            )
    if retrieval:
        for suit, height in enumerate(foundations):
            if height:
                card = card_of(SUITS[suit], height)
                lowered = _raised(foundations, suit, -1)
                successors.extend(
                    _canonical(_put(piles, target, card), reserve, lowered)
                    for target in _targets(card, tops, empty)
                )
    return successors


def _targets(card: str, tops: list[tuple[int, str]], empty: int) -> list[int]:
    """The piles a single card can go onto (one empty pile stands for them all)."""
    targets = [index for index, top in tops if builds_on(card, top)]
    if empty >= 0 and RANK_VALUE[card] == KING:
        targets.append(empty)
    return targets


def _put(piles: tuple[PilePair, ...], index: int, card: str) -> list[PilePair]:
    result = list(piles)
    down, up = result[index]
    result[index] = (down, (*up, card))
    return result
