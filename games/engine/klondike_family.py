"""The Klondike family: seven piles built down in alternating colours, four foundations
built up by suit from Ace to King, and a stock drawn onto a waste.

Klondike, Kingsley and Steps are this family with different hooks. What every member
shares lives here: building and its messages, sequences moving as a unit, Kings (or
King-headed sequences) alone filling empty piles, foundations by suit, the waste's top
card, drawing, the undo records, tap-to-move and auto-complete.

A member sets or overrides public hooks only (docs/engine.md#the-klondike-family):

- ``draw_count`` (or ``cards_per_draw(state)``): cards turned per draw;
- ``recycle_refusal(state)``, ``recycled(state)``, ``unrecycled(state)``: whether and
  how the waste turns back into the stock;
- ``score(state)``; a move's ``points`` are the change of score it makes;
- ``start(...)``: the member's state for a deal (the family rebuilds it with
  ``KlondikeFamilyState.with_parts``, keeping the member's own fields);
- ``extra_places``, ``extra_moves(state)``, ``transfer_extra(state, move)``,
  ``undo_transfer_extra(...)``: places the member adds (Steps' reserve slots and
  foundation retrieval), the moves that use them and how they are made and undone;
- ``tally(state, move, revealed)``, ``untally(state, move, record)``: the member's own
  running figures of a move (Steps' action points and reserve uses, Klondike's points
  table), and their undo;
- ``is_lost(state)``, ``lost_reason``, ``is_productive(step)``,
  ``leaves_lost_position(move)``: members that end a stuck game (Kingsley, Steps);
- ``held_cards(state)``, ``extra_snapshot_keys``, ``optional_snapshot_keys``,
  ``dump_extra(state)``, ``load_extra(...)``: the member's part of the snapshot;
- ``emits_end_events``: whether Steps carry "won" and "lost" events.
- ``foundation_candidates(state)``: the cards that could go up by themselves, for
  ``safe_foundation_moves`` (Steps adds its reserve slots).
"""

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Generic, NamedTuple, Self, TypeVar

from .cards import (
    IS_RED,
    RANK_VALUE,
    SUIT_INDEX,
    SUITS,
    card_name,
    card_of,
    full_deck,
    rank_name,
    suit_name,
    validate_deck,
)
from .errors import EngineError
from .layouts import deal_seven_piles
from .notation import (
    DRAW,
    FOUNDATION,
    FOUNDATION_SOURCES,
    MAX_COUNT,
    RECYCLE,
    RESERVE_PLACES,
    TABLEAU_PLACES,
    TRANSFER,
    WASTE,
    Move,
    format_move,
)
from .records import (
    check_snapshot,
    is_count,
    load_cards,
    misfit,
    record_card,
    record_cards,
    record_move,
)
from .tableau import (
    PILE_INDEX,
    Pile,
    lift,
    load_tableau,
    pile_number,
    replace_pile,
    tableau_dump,
    tableau_view,
    turn_down,
    turn_up,
)
from .variant import IN_PROGRESS, LOST, WON, Json, Step, Variant

KING = 13
FULL_FOUNDATIONS = (KING,) * len(SUITS)
# The public view shows this many waste cards, the top one being the only movable one.
WASTE_FAN = 3
SEQUENCE = "a valid sequence"

DRAW_MOVE = Move(DRAW)
RECYCLE_MOVE = Move(RECYCLE)
# Every transfer of the notation that the family knows, built once: legal_moves would
# otherwise create thousands of equal Move objects per game.
TRANSFERS = {
    (src, dst, count): Move(TRANSFER, src, dst, count)
    for src in (WASTE, *TABLEAU_PLACES)
    for dst in (FOUNDATION, *TABLEAU_PLACES)
    for count in range(1, (MAX_COUNT if src in TABLEAU_PLACES else 1) + 1)
    if src != dst
}


_FAMILY_PARTS = ("tableau", "foundations", "stock", "waste")
_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True, slots=True, kw_only=True)
class KlondikeFamilyState:
    """What every member's state holds; members subclass it to add their own fields.
    Built with keywords only, so that two parts of the same type cannot be swapped."""

    tableau: tuple[Pile, ...]
    foundations: tuple[int, ...]
    """How many cards each foundation holds, in suit order S, H, D, C."""
    stock: tuple[str, ...]
    """The last card is drawn first."""
    waste: tuple[str, ...] = ()
    """The last card is the top, the only movable one."""

    def with_parts(
        self,
        *,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        waste: tuple[str, ...],
    ) -> Self:
        """This state with the family's four parts replaced and the member's own fields
        kept: ``dataclasses.replace`` at less than half its cost, on the path of every
        move.
        The dataclass's ``__init__`` sets each field with ``object.__setattr__``, and so
        does this."""
        cls = type(self)
        kept = _KEPT_FIELDS.get(cls)
        if kept is None:
            kept = _KEPT_FIELDS[cls] = tuple(
                field.name for field in fields(cls) if field.name not in _FAMILY_PARTS
            )
        new = _new(cls)
        _set(new, "tableau", tableau)
        _set(new, "foundations", foundations)
        _set(new, "stock", stock)
        _set(new, "waste", waste)
        for name in kept:
            _set(new, name, getattr(self, name))
        return new


_KEPT_FIELDS: dict[type[KlondikeFamilyState], tuple[str, ...]] = {}
"""Each member state's own fields, beside the family's four."""

S = TypeVar("S", bound=KlondikeFamilyState)


class Moved(NamedTuple, Generic[S]):
    """What a member's own transfer did (``transfer_extra``): the state after it, the
    cards it moved and the cards it turned up. The family makes the undo record and the
    Step of it, as for its own transfers."""

    state: S
    cards: tuple[str, ...]
    revealed: tuple[str, ...]


def placement_problem(card: str, onto: str) -> str | None:
    """Why ``card`` cannot be built on ``onto`` in the tableau, or None if it can."""
    if RANK_VALUE[card] != RANK_VALUE[onto] - 1:
        return "a card goes only on a card one rank higher"
    if IS_RED[card] == IS_RED[onto]:
        return "colours must alternate"
    return None


def builds_on(card: str, onto: str) -> bool:
    return RANK_VALUE[card] == RANK_VALUE[onto] - 1 and IS_RED[card] != IS_RED[onto]


# The two cards that can be built on each card: one rank lower, of the other colour.
TAKES = {onto: tuple(card for card in full_deck() if builds_on(card, onto)) for onto in full_deck()}


def run_length(up: tuple[str, ...]) -> int:
    """How many cards at the top of a face-up stack form a valid sequence."""
    length = 1 if up else 0
    while length < len(up) and builds_on(up[-length], up[-length - 1]):
        length += 1
    return length


def already_lost(reason: str) -> str:
    """The refusal of a move in a lost game, from the one-sentence reason."""
    return f"The game is already lost: {reason[0].lower()}{reason[1:]}"


def fits_foundation(card: str, foundations: tuple[int, ...]) -> bool:
    return foundations[SUIT_INDEX[card]] == RANK_VALUE[card] - 1


# For each suit, the suits of the other colour (indexes into the foundations).
_OTHER_COLOUR = {
    suit: tuple(
        index for index, other in enumerate(SUITS) if IS_RED[f"A{other}"] != IS_RED[f"A{suit}"]
    )
    for suit in SUITS
}


def is_safe_for_foundation(card: str, foundations: tuple[int, ...]) -> bool:
    """Whether the tableau can never need ``card`` again (the usual "safe" rule): an Ace
    or a Two always; another card once both foundations of the other colour hold at
    least the card one rank lower, since every card it could take is then up. It says
    nothing about whether the card fits its foundation now."""
    rank = RANK_VALUE[card]
    return rank <= 2 or all(foundations[index] >= rank - 1 for index in _OTHER_COLOUR[card[1]])


def pile_refusal(target: Pile, target_index: int, head: str) -> str | None:
    """Why a unit headed by ``head`` cannot go onto the pile ``target`` (at
    ``target_index``), as the message for the player; None when it can."""
    if target.up:
        onto = target.up[-1]
        problem = placement_problem(head, onto)
        if problem is not None:
            return f"The {card_name(head)} cannot go on the {card_name(onto)}: {problem}"
    elif RANK_VALUE[head] != KING:
        return (
            f"Pile {pile_number(target_index)} is empty and takes only a King or a "
            f"sequence headed by a King, not the {card_name(head)}"
        )
    return None


def foundation_problem(card: str, height: int) -> str:
    """Why ``card`` cannot go onto its foundation, ``height`` cards high."""
    suit = card[1]
    if height == 0:
        wanted = f"starts with the {card_name(card_of(suit, 1))}"
    else:
        wanted = f"needs the {card_name(card_of(suit, height + 1))} next"
    return (
        f"The {card_name(card)} cannot go to its foundation: the {suit_name(suit)} "
        f"foundation {wanted}"
    )


def _colour(red: bool) -> str:
    return "red" if red else "black"


def nowhere_to_go(
    head: str,
    count: int,
    tableau: tuple[Pile, ...],
    foundations: tuple[int, ...],
    *,
    source_index: int | None = None,
    whole_pile: bool = False,
) -> str:
    """Why the unit of ``count`` cards headed by ``head`` has no place to go: what
    its foundation and the piles would need (the family's tap found none)."""
    what = (
        f"The {card_name(head)}"
        if count == 1
        else f"The {count} cards headed by the {card_name(head)}"
    )
    reasons = []
    if count == 1:
        suit = head[1]
        height = foundations[SUIT_INDEX[head]]
        reasons.append(
            f"no foundation takes it (the {suit_name(suit)} foundation needs the "
            f"{card_name(card_of(suit, height + 1))})"
        )
    others = [pile for index, pile in enumerate(tableau) if index != source_index]
    if RANK_VALUE[head] == KING:
        if whole_pile and any(not pile.up for pile in others):
            reasons.append("moving a whole pile headed by a King to an empty pile changes nothing")
        else:
            reasons.append("no pile is empty (an empty pile takes a King)")
    else:
        wanted = f"{_colour(not IS_RED[head])} {rank_name(RANK_VALUE[head] + 1)}"
        reasons.append(f"no pile ends in a {wanted}")
    return f"{what} has nowhere to go: {' and '.join(reasons)}"


def _valid_up(up: tuple[str, ...]) -> str | None:
    return None if run_length(up) == len(up) else "are not a valid sequence"


class KlondikeFamily(Variant[S]):
    draw_count: ClassVar[int] = 3
    emits_end_events: ClassVar[bool] = True
    can_lose: ClassVar[bool] = False
    """Whether the member ends a stuck game as lost (then it implements ``is_lost``)."""
    lost_reason: ClassVar[str] = ""
    """One sentence saying why a lost game is lost (members that can lose)."""
    extra_snapshot_keys: ClassVar[frozenset[str]] = frozenset()
    """The member's own snapshot keys, beside variant, tableau, foundations, stock, waste."""
    optional_snapshot_keys: ClassVar[frozenset[str]] = frozenset()
    """The member's snapshot keys that only some games have (Klondike's points table), so
    that the snapshots of the games without them stay as they were."""
    extra_places: ClassVar[frozenset[str]] = frozenset()
    """Places of the notation the member adds (Steps: r1-r4, and fS-fC as sources): a
    transfer from or to one of them is the member's (``transfer_extra``)."""

    # Hooks

    @abstractmethod
    def start(
        self,
        *,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        options: Json,
    ) -> S:
        """The starting state of a deal with these (normalised) options."""

    def cards_per_draw(self, state: S) -> int:
        return self.draw_count

    def recycle_refusal(self, state: S) -> str | None:
        """Why the member's rules forbid turning the waste back now (beyond an empty
        waste or a stock that still has cards), or None."""
        return None

    def recycled(self, state: S) -> S:
        """The state after turning the waste back into the stock."""
        raise EngineError(self.recycle_refusal(state) or f"{self.name} has no 'recycle' move")

    def unrecycled(self, state: S) -> S:
        """The reverse of ``recycled``, for undo; the misfit error if it does not fit."""
        raise misfit()

    def extra_moves(self, state: S) -> list[Move]:
        """The member's own legal moves (through ``extra_places``), listed after the
        family's; called only while the game is neither won nor lost."""
        return []

    def transfer_extra(self, state: S, move: Move) -> Moved[S]:
        """A transfer from or to one of ``extra_places``; EngineError if it is illegal."""
        raise self._refuse_transfer(move)

    def undo_transfer_extra(
        self, state: S, move: Move, cards: tuple[str, ...], revealed: str | None
    ) -> S:
        """The reverse of ``transfer_extra`` for undo, from the record's cards and the
        card it turned up; the misfit error if it does not fit."""
        raise misfit()

    def tally(self, state: S, move: Move, revealed: tuple[str, ...]) -> S:
        """The state after ``move`` with the member's own running figures brought up to
        date (Steps: action points, reserve uses), before won, lost and the score change
        are read from it; by default the state as it is."""
        return state

    def untally(self, state: S, move: Move, record: Mapping[str, Any]) -> S:
        """The reverse of ``tally`` for undo, on the state before the move; the misfit
        error if it does not fit."""
        return state

    def is_productive(self, step: Step[S]) -> bool:
        """Whether the step can change the outcome (see stuck.py): anything but a tableau
        move that turns nothing up."""
        move = step.move
        return bool(step.revealed) or move.src not in PILE_INDEX or move.dst not in PILE_INDEX

    def leaves_lost_position(self, move: Move) -> bool:
        """Whether the move can lead out of a lost position into one that is not (Steps:
        a retrieval, since the card can go back up): ``apply`` then asks about the
        position before the move, as it cannot tell from the position after it."""
        return False

    # Dealing

    def deal(self, deck: Sequence[str], options: Mapping[str, object] | None = None) -> S:
        normalized = self.normalize_options(options)
        layout = deal_seven_piles(validate_deck(deck))
        return self.start(
            tableau=tuple(Pile(pile.down, (pile.top,)) for pile in layout.piles),
            foundations=(0,) * len(SUITS),
            stock=layout.stock,
            options=normalized,
        )

    # Moves

    def legal_moves(self, state: S) -> list[Move]:
        """Foundation moves (waste, then piles from the left), then builds on each pile
        top from the left, then Kings to empty piles, then draw or recycle, then the
        member's ``extra_moves``; nothing once the game is won or lost."""
        tableau = state.tableau
        foundations = state.foundations
        if foundations == FULL_FOUNDATIONS:
            return []
        moves: list[Move] = []
        waste_card = state.waste[-1] if state.waste else None
        if (
            waste_card is not None
            and foundations[SUIT_INDEX[waste_card]] == RANK_VALUE[waste_card] - 1
        ):
            moves.append(TRANSFERS[WASTE, FOUNDATION, 1])
        # Every card that can head a unit, with where it is and the unit's size. Looking
        # up the two cards each pile top takes is cheaper than trying every head on every
        # pile, and legal_moves is the engine's hottest path.
        heads: dict[str, tuple[str, int]] = {}
        kings: list[tuple[str, int]] = []
        tops: list[tuple[str, str]] = []
        empty: list[str] = []
        for place, pile in zip(TABLEAU_PLACES, tableau, strict=True):
            up = pile.up
            if not up:
                empty.append(place)
                continue
            top = up[-1]
            tops.append((place, top))
            if foundations[SUIT_INDEX[top]] == RANK_VALUE[top] - 1:
                moves.append(TRANSFERS[place, FOUNDATION, 1])
            count = 1
            heads[top] = (place, 1)
            while count < len(up) and builds_on(up[-count], up[-count - 1]):
                count += 1
                heads[up[-count]] = (place, count)
            if RANK_VALUE[up[-count]] == KING:
                kings.append((place, count))
        for target, top in tops:
            for card in TAKES[top]:
                if card == waste_card:
                    moves.append(TRANSFERS[WASTE, target, 1])
                elif card in heads:
                    source, count = heads[card]
                    moves.append(TRANSFERS[source, target, count])
        for target in empty:
            if waste_card is not None and RANK_VALUE[waste_card] == KING:
                moves.append(TRANSFERS[WASTE, target, 1])
            moves.extend(TRANSFERS[source, target, count] for source, count in kings)
        if state.stock:
            moves.append(DRAW_MOVE)
        else:
            if state.waste and self.recycle_refusal(state) is None:
                moves.append(RECYCLE_MOVE)
            if self.can_lose and self.is_lost(state):
                return []
        moves += self.extra_moves(state)
        return moves

    def apply(self, state: S, move: Move) -> Step[S]:
        if state.foundations == FULL_FOUNDATIONS:
            raise EngineError("The game is already won: every card is on the foundations")
        if (
            self.can_lose
            and not state.stock
            and self.leaves_lost_position(move)
            and self.is_lost(state)
        ):
            raise EngineError(already_lost(self.lost_reason))
        try:
            step = self._dispatch(state, move)
        except EngineError:
            if self.can_lose and not state.stock and self.is_lost(state):
                raise EngineError(already_lost(self.lost_reason)) from None
            raise
        # No move is legal in a lost game. Asking only here is enough: a productive move
        # is never legal in a lost position, and a position from which a non-productive
        # move leads to one that is not lost is not lost either.
        if step.lost and not self.is_productive(step) and self.is_lost(state):
            raise EngineError(already_lost(self.lost_reason))
        return step

    def _dispatch(self, state: S, move: Move) -> Step[S]:
        kind = move.kind
        if kind == TRANSFER:
            return self._transfer(state, move)
        if kind == DRAW:
            return self._draw(state, move)
        if kind == RECYCLE:
            return self._recycle(state, move)
        raise self.unknown_move(move)

    def _step(
        self, before: S, after: S, move: Move, revealed: tuple[str, ...], record: Json
    ) -> Step[S]:
        after = self.tally(after, move, revealed)
        won = after.foundations == FULL_FOUNDATIONS
        lost = self.can_lose and not won and not after.stock and self.is_lost(after)
        points = self.score(after) - self.score(before)
        if self.emits_end_events and (won or lost):
            events = (WON,) if won else (LOST,)
            return Step(after, move, points, revealed, won, lost, record, events)
        return Step(after, move, points, revealed, won, lost, record)

    def _draw(self, state: S, move: Move) -> Step[S]:
        stock = state.stock
        if not stock:
            refusal = self.recycle_refusal(state)
            if refusal is not None:
                raise EngineError(f"The stock is empty: {refusal}")
            if state.waste:
                raise EngineError("The stock is empty: recycle the waste to draw again")
            raise EngineError("The stock and the waste are both empty: there is nothing to draw")
        count = min(self.cards_per_draw(state), len(stock))
        # The stock's last card is drawn first and so lands lowest of those drawn.
        drawn = stock[: -count - 1 : -1]
        new_state = state.with_parts(
            tableau=state.tableau,
            foundations=state.foundations,
            stock=stock[:-count],
            waste=state.waste + drawn,
        )
        return self._step(state, new_state, move, drawn, {"move": DRAW, "cards": list(drawn)})

    def _recycle(self, state: S, move: Move) -> Step[S]:
        refusal = self.recycle_refusal(state)
        if refusal is not None:
            raise EngineError(refusal)
        if state.stock:
            raise EngineError(
                "The stock still has cards: the waste is turned back only when the stock is empty"
            )
        if not state.waste:
            raise EngineError("There is nothing to recycle: the waste is empty")
        return self._step(state, self.recycled(state), move, (), {"move": RECYCLE})

    def _refuse_transfer(self, move: Move) -> EngineError:
        """The error for a transfer of the notation that the family does not have."""
        if move.src in RESERVE_PLACES or move.dst in RESERVE_PLACES:
            return EngineError(f"{self.name} has no reserve slots")
        if move.src in FOUNDATION_SOURCES:
            return EngineError(f"Foundation cards never return to the tableau in {self.name}")
        return self.unknown_move(move)

    def _transfer(self, state: S, move: Move) -> Step[S]:
        src, dst, count = move.src, move.dst, move.count
        if (src, dst, count) not in TRANSFERS:
            if src in self.extra_places or dst in self.extra_places:
                moved = self.transfer_extra(state, move)
                return self._step(
                    state, moved.state, move, moved.revealed, self._record(move, moved)
                )
            raise self._refuse_transfer(move)
        tableau = state.tableau
        foundations = state.foundations
        waste = state.waste
        revealed: tuple[str, ...] = ()
        source_index = PILE_INDEX.get(str(src))
        if source_index is None:
            if not waste:
                raise EngineError("The waste is empty: draw from the stock first")
            cards: tuple[str, ...] = waste[-1:]
            waste = waste[:-1]
        else:
            cards, source_pile = lift(
                tableau[source_index], source_index, count, placement_problem, SEQUENCE
            )
            if source_pile.down and not source_pile.up:
                # A card left face down on top turns up by itself.
                source_pile, revealed = turn_up(source_pile)
        head = cards[0]
        if dst == FOUNDATION:
            if count != 1:
                raise EngineError("Only one card at a time goes to a foundation")
            suit = SUIT_INDEX[head]
            height = foundations[suit]
            if RANK_VALUE[head] != height + 1:
                raise EngineError(foundation_problem(head, height))
            foundations = (*foundations[:suit], height + 1, *foundations[suit + 1 :])
            if source_index is not None:
                tableau = replace_pile(tableau, source_index, source_pile)
        else:
            target_index = PILE_INDEX[str(dst)]
            target = tableau[target_index]
            refusal = pile_refusal(target, target_index, head)
            if refusal is not None:
                raise EngineError(refusal)
            piles = list(tableau)
            piles[target_index] = Pile(target.down, target.up + cards)
            if source_index is not None:
                piles[source_index] = source_pile
            tableau = tuple(piles)
        new_state = state.with_parts(
            tableau=tableau, foundations=foundations, stock=state.stock, waste=waste
        )
        record: Json = {
            "move": format_move(move),
            "cards": list(cards),
            "revealed": revealed[0] if revealed else None,
        }
        return self._step(state, new_state, move, revealed, record)

    @staticmethod
    def _record(move: Move, moved: Moved[S]) -> Json:
        """The undo record of a member's transfer: the family's transfer record."""
        return {
            "move": format_move(move),
            "cards": list(moved.cards),
            "revealed": moved.revealed[0] if moved.revealed else None,
        }

    def undo(self, state: S, record: Mapping[str, Any]) -> S:
        move = record_move(record)
        if move.kind == DRAW:
            drawn = record_cards(record, "cards")
            if (
                not drawn
                or len(drawn) > self.cards_per_draw(state)
                or state.waste[-len(drawn) :] != drawn
            ):
                raise misfit()
            before = state.with_parts(
                tableau=state.tableau,
                foundations=state.foundations,
                stock=state.stock + drawn[::-1],
                waste=state.waste[: -len(drawn)],
            )
        elif move.kind == RECYCLE:
            if state.waste or not state.stock:
                raise misfit()
            before = self.unrecycled(state)
        elif move.kind == TRANSFER:
            before = self._undo_transfer(state, move, record)
        else:
            raise misfit()
        return self.untally(before, move, record)

    def _undo_transfer(self, state: S, move: Move, record: Mapping[str, Any]) -> S:
        cards = record_cards(record, "cards")
        revealed = record_card(record, "revealed")
        if len(cards) != move.count:
            raise misfit()
        if move.src in self.extra_places or move.dst in self.extra_places:
            return self.undo_transfer_extra(state, move, cards, revealed)
        piles = list(state.tableau)
        foundations = state.foundations
        waste = state.waste
        if move.dst == FOUNDATION:
            suit = SUIT_INDEX[cards[0]]
            if foundations[suit] != RANK_VALUE[cards[0]]:
                raise misfit()
            foundations = (*foundations[:suit], foundations[suit] - 1, *foundations[suit + 1 :])
        elif move.dst in PILE_INDEX:
            target_index = PILE_INDEX[move.dst]
            target = piles[target_index]
            if target.up[-len(cards) :] != cards:
                raise misfit()
            piles[target_index] = Pile(target.down, target.up[: -len(cards)])
        else:
            raise misfit()
        if move.src == WASTE and revealed is None:
            waste = waste + cards
        elif move.src in PILE_INDEX:
            source_index = PILE_INDEX[move.src]
            source = piles[source_index]
            if revealed is not None:
                turned = turn_down(source, revealed)
                if turned is None:
                    raise misfit()
                source = turned
            piles[source_index] = Pile(source.down, source.up + cards)
        else:
            raise misfit()
        return state.with_parts(
            tableau=tuple(piles), foundations=foundations, stock=state.stock, waste=waste
        )

    # Status

    def is_won(self, state: S) -> bool:
        return state.foundations == FULL_FOUNDATIONS

    # Helpers for the player

    def tap(self, state: S, source: str, count: int = 1) -> Move | None:
        if not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise EngineError(f"A tap moves from 1 to {MAX_COUNT} cards, not {count!r}")
        if source in FOUNDATION_SOURCES:
            return None  # foundation cards never return
        if source == WASTE:
            if count != 1:
                raise EngineError("Only the top waste card can be tapped")
            if not state.waste:
                return None
            cards: tuple[str, ...] = state.waste[-1:]
            whole_pile = False
            source_index = None
        elif source in PILE_INDEX:
            source_index = PILE_INDEX[source]
            pile = state.tableau[source_index]
            if count > run_length(pile.up):
                return None
            cards = pile.up[-count:]
            whole_pile = not pile.down and count == len(pile.up)
        elif source in RESERVE_PLACES:
            raise EngineError(f"{self.name} has no reserve slots")
        else:
            raise EngineError(f"{source!r} is not a place to tap: use w or t1 to t7")
        head = cards[0]
        if count == 1 and fits_foundation(head, state.foundations):
            return TRANSFERS[source, FOUNDATION, 1]
        for target, target_pile in enumerate(state.tableau):
            up = target_pile.up
            takes = builds_on(head, up[-1]) if up else RANK_VALUE[head] == KING
            # Moving a whole King-headed pile into another empty pile changes nothing.
            if takes and target != source_index and not (whole_pile and not up):
                return TRANSFERS[source, TABLEAU_PLACES[target], count]
        return None

    def tap_refusal(self, state: S, source: str, count: int = 1) -> str:
        if source in FOUNDATION_SOURCES:
            return "A card on a foundation stays there: a tap never takes it back"
        if source == WASTE:
            if not state.waste:
                return "The waste is empty: draw from the stock first"
            return nowhere_to_go(state.waste[-1], 1, state.tableau, state.foundations)
        if source in PILE_INDEX:
            index = PILE_INDEX[source]
            up = state.tableau[index].up
            if not up:
                return f"Pile {pile_number(index)} has no face-up card to move"
            if count > len(up):
                return f"Pile {pile_number(index)} has fewer than {count} face-up cards"
            if count > run_length(up):
                return (
                    f"The {count} cards from the {card_name(up[-count])} down are not a valid "
                    "sequence: only a valid sequence moves as a unit"
                )
            whole_pile = not state.tableau[index].down and count == len(up)
            return nowhere_to_go(
                up[-count],
                count,
                state.tableau,
                state.foundations,
                source_index=index,
                whole_pile=whole_pile,
            )
        return f"{source!r} is not a place to tap"

    def auto_complete(self, state: S) -> list[Move]:
        if not self.auto_complete_offered(state):
            return []
        moves = []
        while not self.is_won(state):
            move = next(
                (
                    TRANSFERS[TABLEAU_PLACES[index], FOUNDATION, 1]
                    for index, pile in enumerate(state.tableau)
                    if pile.up and fits_foundation(pile.up[-1], state.foundations)
                ),
                None,
            )
            if move is None:  # only a hand-built position missing cards gets stuck
                return []
            state = self._transfer(state, move).state
            moves.append(move)
        return moves

    offers_safe_foundation_moves = True

    def safe_foundation_moves(self, state: S) -> list[Move]:
        """The safe cards that fit their foundation go up one at a time, the waste's
        first, then the piles' from the left, then the member's own
        (``foundation_candidates``), again until none is left: each may make another
        safe. Nothing in a game that is won or lost."""
        if self.status(state) != IN_PROGRESS:
            return []
        moves: list[Move] = []
        while True:
            move = next(
                (
                    move
                    for move, card in self.foundation_candidates(state)
                    if fits_foundation(card, state.foundations)
                    and is_safe_for_foundation(card, state.foundations)
                ),
                None,
            )
            if move is None:
                return moves
            step = self.apply(state, move)
            moves.append(move)
            if step.won or step.lost:
                return moves
            state = step.state

    def foundation_candidates(self, state: S) -> list[tuple[Move, str]]:
        """The cards that could go to a foundation with the move that takes each: the
        waste's top and the piles' tops; members add their own places (Steps' slots)."""
        candidates = [(TRANSFERS[WASTE, FOUNDATION, 1], state.waste[-1])] if state.waste else []
        candidates.extend(
            (TRANSFERS[place, FOUNDATION, 1], pile.up[-1])
            for place, pile in zip(TABLEAU_PLACES, state.tableau, strict=True)
            if pile.up
        )
        return candidates

    def auto_complete_offered(self, state: S) -> bool:
        # Offered only with every card face up and nothing left in the stock or waste.
        # With every pile a valid sequence, the lowest card not yet on the foundations is
        # always a top card that fits, so the foundation moves always finish the game.
        return (
            not state.stock
            and not state.waste
            and not self.is_won(state)
            and all(not pile.down and run_length(pile.up) == len(pile.up) for pile in state.tableau)
        )

    # Views and storage

    def common_view(self, state: S) -> Json:
        """The public view's keys every member has, in this order: variant, tableau,
        foundations, stock, waste."""
        return {
            "variant": self.key,
            "tableau": tableau_view(state.tableau),
            "foundations": [
                {
                    "suit": suit,
                    "top": card_of(suit, height) if height else None,
                    "count": height,
                }
                for suit, height in zip(SUITS, state.foundations, strict=True)
            ],
            "stock": len(state.stock),
            "waste": {"count": len(state.waste), "fan": list(state.waste[-WASTE_FAN:])},
        }

    def waste_fan_size(self, state: S) -> int:
        """How many of the waste's top cards the public view shows."""
        return WASTE_FAN

    def hidden_cards(self, state: S) -> tuple[str, ...]:
        """Each pile's face-down cards (pile 1 to 7, bottom first), then the stock (in
        its order), then the waste below the cards its fan shows (bottom first)."""
        hidden_waste = state.waste[: max(0, len(state.waste) - self.waste_fan_size(state))]
        down = tuple(card for pile in state.tableau for card in pile.down)
        return down + state.stock + hidden_waste

    def with_hidden_cards(self, state: S, cards: Sequence[str]) -> S:
        given = self._refill_check(state, cards)
        piles = []
        at = 0
        for pile in state.tableau:
            size = len(pile.down)
            piles.append(Pile(given[at : at + size], pile.up) if size else pile)
            at += size
        stock = given[at : at + len(state.stock)]
        at += len(stock)
        return state.with_parts(
            tableau=tuple(piles),
            foundations=state.foundations,
            stock=stock,
            waste=given[at:] + state.waste[len(given) - at :],
        )

    def dump(self, state: S) -> Json:
        return {
            "variant": self.key,
            "tableau": tableau_dump(state.tableau),
            "foundations": list(state.foundations),
            "stock": list(state.stock),
            "waste": list(state.waste),
            **self.dump_extra(state),
        }

    def held_cards(self, state: S) -> tuple[str, ...]:
        """Cards the member keeps outside the tableau, stock, waste and foundations
        (Steps: its reserve slots), for the check that a snapshot holds all 52."""
        return ()

    def dump_extra(self, state: S) -> Json:
        """The member's own snapshot keys (``extra_snapshot_keys``)."""
        return {}

    def load(self, data: Mapping[str, Any]) -> S:
        keys = {"variant", "tableau", "foundations", "stock", "waste", *self.extra_snapshot_keys}
        if isinstance(data, Mapping):
            keys.update(key for key in self.optional_snapshot_keys if key in data)
        data = check_snapshot(data, self.name, self.key, keys)
        tableau = load_tableau(data["tableau"], _valid_up)
        foundations = _load_foundations(data["foundations"])
        stock = load_cards(data["stock"], "the stock")
        waste = load_cards(data["waste"], "the waste")
        state = self.load_extra(
            data, tableau=tableau, foundations=foundations, stock=stock, waste=waste
        )
        on_foundations = [
            card_of(suit, value)
            for suit, height in zip(SUITS, foundations, strict=True)
            for value in range(1, height + 1)
        ]
        in_play = [card for pile in tableau for card in pile.down + pile.up]
        present = in_play + list(stock) + list(waste) + on_foundations
        present += self.held_cards(state)
        if sorted(present) != sorted(full_deck()):
            raise EngineError(f"A {self.name} snapshot must hold each of the 52 cards exactly once")
        return state

    @abstractmethod
    def load_extra(
        self,
        data: Mapping[str, Any],
        *,
        tableau: tuple[Pile, ...],
        foundations: tuple[int, ...],
        stock: tuple[str, ...],
        waste: tuple[str, ...],
    ) -> S:
        """The state of a snapshot whose common keys are read and valid: read and check
        the member's own keys (``extra_snapshot_keys``). Check only what the rules
        decide; a figure the rules derive (a score) is derived again, not compared with
        the stored one, so that another version of the rules can load the snapshot."""


def _load_foundations(value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != len(SUITS)
        or not all(is_count(height) and height <= KING for height in value)
    ):
        raise EngineError("The foundations must be 4 heights from 0 to 13, in order S, H, D, C")
    return tuple(value)
