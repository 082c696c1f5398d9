"""The Steps variant: the Klondike family with its options, the reserve slots and
foundation retrieval as extra places and moves, the action points as its tally, the
Architect Ledger as its score and Stagnation Lockout as its loss."""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..cards import (
    RANK_VALUE,
    SUIT_INDEX,
    SUITS,
    card_name,
    card_of,
    is_card,
    suit_name,
    validate_deck,
)
from ..errors import EngineError
from ..klondike_family import (
    KING,
    SEQUENCE,
    KlondikeFamily,
    Moved,
    builds_on,
    fits_foundation,
    foundation_problem,
    nowhere_to_go,
    pile_refusal,
    placement_problem,
)
from ..layouts import deal_seven_piles
from ..notation import (
    FOUNDATION,
    FOUNDATION_SOURCES,
    RESERVE_PLACES,
    TABLEAU_PLACES,
    TRANSFER,
    WASTE,
    Move,
)
from ..records import is_count, misfit
from ..registry import register
from ..stuck import UNDECIDED
from ..tableau import PILE_INDEX, Pile, lift, replace_pile, turn_down, turn_up
from ..variant import LOST, Json, Step, Variant
from .ledger import ledger, ledger_lines, move_points, time_bonus
from .lost import LOST_REASON, is_locked_out, lockout_verdict
from .options import MAX_BUFFERS, OPTION_KEYS, options_of, slots_message, whole
from .state import (
    EMPTY_RESERVES,
    FOUNDATION_SOURCE_INDEX,
    RESERVE_INDEX,
    Reserves,
    StepsState,
    raised,
    with_slot,
)

TOURNAMENT = "Foundation cards never return to the tableau in tournament play"

# Steps' own transfers, built once (the family holds the others).
MOVES = {
    (src, dst): Move(TRANSFER, src, dst)
    for src, dst in [
        *((slot, dst) for slot in RESERVE_PLACES for dst in (FOUNDATION, *TABLEAU_PLACES)),
        *((src, slot) for src in (WASTE, *TABLEAU_PLACES) for slot in RESERVE_PLACES),
        *((src, pile) for src in FOUNDATION_SOURCES for pile in TABLEAU_PLACES),
    ]
}


def _takes(pile: Pile, card: str) -> bool:
    return builds_on(card, pile.up[-1]) if pile.up else RANK_VALUE[card] == KING


@register
class Steps(KlondikeFamily[StepsState]):
    key = "steps"
    name = "Steps"
    goal_kinds = (
        *Variant.goal_kinds,
        "foundation_rank",
        "foundation_suit",
        "foundation_cards",
        "score",
        "win_without_reserve",
        "win_within_recycles",
    )
    score_name = "Architect Ledger"
    rules_version = 1
    can_lose = True
    lost_reason = LOST_REASON
    extra_snapshot_keys = frozenset({"options", "reserves", "recycles", "points", "reserve_uses"})
    extra_places = frozenset((*RESERVE_PLACES, *FOUNDATION_SOURCES))

    # Options and the family's hooks

    def normalize_options(self, options: Mapping[str, object] | None) -> Json:
        return options_of(options).as_json()

    def start(
        self,
        *,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        options: Json,
    ) -> StepsState:
        return StepsState(
            tableau=tableau,
            foundations=foundations,
            stock=stock,
            options=options_of(options),
            reserves=options_of(options).reserves,
        )

    def deal(self, deck: Sequence[str], options: Mapping[str, object] | None = None) -> StepsState:
        """The family's deal; with a starting layout (a Codex scenario's options), the
        cards it places are dealt onto the foundations and into the slots first, and the
        rest of the deck, in its order, makes the tableau and the stock."""
        normalized = self.normalize_options(options)
        chosen = options_of(normalized)
        if not chosen.has_layout:
            return super().deal(deck, normalized)
        placed = set(chosen.placed_cards())
        layout = deal_seven_piles([card for card in validate_deck(deck) if card not in placed])
        return self.start(
            tableau=tuple(Pile(pile.down, (pile.top,)) for pile in layout.piles),
            foundations=chosen.foundations,
            stock=layout.stock,
            options=normalized,
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

    def recycled(self, state: StepsState) -> StepsState:
        # Reversed, so the next pass draws the cards in the order the last pass did.
        return replace(state, stock=state.waste[::-1], waste=(), recycles=state.recycles + 1)

    def unrecycled(self, state: StepsState) -> StepsState:
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

    def tally(self, state: StepsState, move: Move, revealed: tuple[str, ...]) -> StepsState:
        """The move's action points and, for a move into a slot, one more reserve use."""
        gained = move_points(move, bool(revealed) and move.src in PILE_INDEX)
        used = 1 if move.dst in RESERVE_INDEX else 0
        if not (gained or used):
            return state
        return StepsState(
            tableau=state.tableau,
            foundations=state.foundations,
            stock=state.stock,
            waste=state.waste,
            reserves=state.reserves,
            options=state.options,
            recycles=state.recycles,
            points=state.points + gained,
            reserve_uses=state.reserve_uses + used,
        )

    def untally(self, state: StepsState, move: Move, record: Mapping[str, Any]) -> StepsState:
        """The action points and reserve use given back, recomputed from the move and
        whether it turned a card up, never read from the record."""
        turned_up = (
            move.kind == TRANSFER and move.src in PILE_INDEX and record.get("revealed") is not None
        )
        used = 1 if move.dst in RESERVE_INDEX else 0
        if state.reserve_uses < used:
            raise misfit()
        return replace(
            state,
            points=state.points - move_points(move, turned_up),
            reserve_uses=state.reserve_uses - used,
        )

    def is_productive(self, step: Step[StepsState]) -> bool:
        """A card to a foundation, a card turned up, the waste card leaving the waste
        (onto a pile, to a foundation or into a slot), a draw or a recycle."""
        move = step.move
        if move.kind != TRANSFER:
            return True
        return bool(step.revealed) or move.src == WASTE or move.dst == FOUNDATION

    def leaves_lost_position(self, move: Move) -> bool:
        # A retrieval leads out of a lost position into one that is not (the card can go
        # back up), so the family's check after the move would not catch it.
        return move.kind == TRANSFER and move.src in FOUNDATION_SOURCE_INDEX

    def extra_moves(self, state: StepsState) -> list[Move]:
        """From each slot to its foundation and onto piles, the retrievals (option on),
        then the waste and each pile top into each empty slot."""
        tableau = state.tableau
        foundations = state.foundations
        reserves = state.reserves
        options = state.options
        moves = []
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

    def transfer_extra(self, state: StepsState, move: Move) -> Moved[StepsState]:
        if move.src in FOUNDATION_SOURCE_INDEX and move.dst in PILE_INDEX:
            return self._retrieve(state, move)
        return self._reserve_transfer(state, move)

    def _open_slot(self, state: StepsState, place: str) -> int:
        """The index of a slot of this deal; EngineError for a slot it does not have."""
        slot = RESERVE_INDEX[place]
        if slot >= state.options.buffers:
            raise EngineError(slots_message(state.options.buffers))
        return slot

    def _reserve_transfer(self, state: StepsState, move: Move) -> Moved[StepsState]:
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
            reserves = with_slot(state.reserves, slot, card)
        else:
            slot = self._open_slot(state, src)
            held = state.reserves[slot]
            if held is None:
                raise EngineError(f"Reserve slot {src} is empty")
            card = held
            if dst == FOUNDATION:
                suit = SUIT_INDEX[card]
                if RANK_VALUE[card] != foundations[suit] + 1:
                    raise EngineError(foundation_problem(card, foundations[suit]))
                foundations = raised(foundations, suit, 1)
            else:
                index = PILE_INDEX[dst]
                tableau = self._onto(tableau, index, card)
            reserves = with_slot(state.reserves, slot, None)
        after = StepsState(
            tableau=tableau,
            foundations=foundations,
            stock=state.stock,
            waste=waste,
            reserves=reserves,
            options=state.options,
            recycles=state.recycles,
            points=state.points,
            reserve_uses=state.reserve_uses,
        )
        return Moved(after, (card,), revealed)

    def _retrieve(self, state: StepsState, move: Move) -> Moved[StepsState]:
        if not state.options.retrieval:
            raise EngineError(TOURNAMENT)
        suit = FOUNDATION_SOURCE_INDEX[str(move.src)]
        height = state.foundations[suit]
        if height == 0:
            raise EngineError(f"The {suit_name(SUITS[suit])} foundation is empty")
        card = card_of(SUITS[suit], height)
        index = PILE_INDEX[str(move.dst)]
        after = state.with_parts(
            tableau=self._onto(state.tableau, index, card),
            foundations=raised(state.foundations, suit, -1),
            stock=state.stock,
            waste=state.waste,
        )
        return Moved(after, (card,), ())

    @staticmethod
    def _onto(tableau: tuple[Pile, ...], index: int, card: str) -> tuple[Pile, ...]:
        """The tableau with one card put on pile ``index``; EngineError if it does not
        take it."""
        pile = tableau[index]
        refusal = pile_refusal(pile, index, card)
        if refusal is not None:
            raise EngineError(refusal)
        return replace_pile(tableau, index, Pile(pile.down, (*pile.up, card)))

    def undo_transfer_extra(
        self, state: StepsState, move: Move, cards: tuple[str, ...], revealed: str | None
    ) -> StepsState:
        src, dst = move.src, move.dst
        if len(cards) != 1:
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
            reserves = with_slot(reserves, slot, None)
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
                foundations = raised(foundations, suit, -1)
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
                reserves = with_slot(reserves, slot, card)
            elif (
                FOUNDATION_SOURCE_INDEX[str(src)] == suit
                and foundations[suit] == RANK_VALUE[card] - 1
            ):
                foundations = raised(foundations, suit, 1)
            else:
                raise misfit()
        return StepsState(
            tableau=tableau,
            foundations=foundations,
            stock=state.stock,
            waste=waste,
            reserves=reserves,
            options=state.options,
            recycles=state.recycles,
            points=state.points,
            reserve_uses=state.reserve_uses,
        )

    # Status

    def is_lost(self, state: StepsState) -> bool:
        return is_locked_out(state)

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

    def tap_refusal(self, state: StepsState, source: str, count: int = 1) -> str:
        if source not in RESERVE_INDEX:
            return super().tap_refusal(state, source, count)
        card = state.reserves[self._open_slot(state, source)]
        if card is None:
            return f"Reserve slot {source[1:]} is empty"
        return nowhere_to_go(card, 1, state.tableau, state.foundations)

    def foundation_candidates(self, state: StepsState) -> list[tuple[Move, str]]:
        """The family's, then the card of each slot, which goes to its foundation too."""
        return super().foundation_candidates(state) + [
            (MOVES[RESERVE_PLACES[slot], FOUNDATION], card)
            for slot, card in enumerate(state.reserves)
            if card is not None
        ]

    def auto_complete_offered(self, state: StepsState) -> bool:
        # Kept simple: the slots must be empty too.
        return state.reserves == EMPTY_RESERVES and super().auto_complete_offered(state)

    # Views and storage

    def public_view(self, state: StepsState) -> Json:
        options = state.options
        view = self.common_view(state)
        fan = self.waste_fan_size(state)
        total = ledger(state)
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
            "ledger_lines": ledger_lines(state),
            "recycles": state.recycles,
            "recycles_left": recycles_left,
            "can_draw": bool(state.stock),
            "can_recycle": not state.stock and bool(state.waste) and recycles_left > 0,
            "auto_complete": self.auto_complete_offered(state),
            "cards_on_foundations": sum(state.foundations),
            "reserve_used_ever": state.reserve_uses > 0,
            "status": status,
            "lost_reason": LOST_REASON if status == LOST else None,
            "may_be_stuck": lockout_verdict(state) == UNDECIDED,
            "score": total,
        }

    def waste_fan_size(self, state: StepsState) -> int:
        return 3 if state.options.draw == 3 else 1

    def held_cards(self, state: StepsState) -> tuple[str, ...]:
        return tuple(card for card in state.reserves if card is not None)

    def dump_extra(self, state: StepsState) -> Json:
        return {
            "options": state.options.as_json(),
            "reserves": list(state.reserves),
            "recycles": state.recycles,
            "points": state.points,
            "reserve_uses": state.reserve_uses,
        }

    def load_extra(
        self,
        data: Mapping[str, Any],
        *,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        waste: tuple[str, ...],
    ) -> StepsState:
        given = data["options"]
        if not isinstance(given, Mapping) or not set(OPTION_KEYS) <= set(given):
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
        # The action points follow from the moves played, which a snapshot does not hold:
        # only their form is checked.
        points = data["points"]
        if not whole(points):
            raise EngineError("The action points must be a whole number")
        uses = data["reserve_uses"]
        # A card the layout dealt into a slot, and still there, was put there by no move.
        held = sum(
            card is not None and card != dealt
            for card, dealt in zip(reserves, options.reserves, strict=True)
        )
        if not is_count(uses) or uses < held:
            raise EngineError(
                "The reserve uses must be a whole number, at least the cards in the slots"
            )
        return StepsState(
            tableau=tableau,
            foundations=foundations,
            stock=stock,
            waste=waste,
            reserves=reserves,
            options=options,
            recycles=recycles,
            points=points,
            reserve_uses=uses,
        )


def _load_reserves(value: object, buffers: int) -> Reserves:
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
