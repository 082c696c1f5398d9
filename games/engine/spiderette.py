"""Spiderette, as /work/shared/rulebooks/spiderette.txt states it, with the readings of
docs/rules/spiderette.md.

Seven piles dealt like Klondike's and a 24-card stock, but no foundations, waste or
draw: cards build down by one rank regardless of suit; a single card moves onto any card
one rank higher, several only as a descending run of one suit; an empty pile takes any
card or run. ``deal`` puts one card on each pile (3, to piles 1 to 3, the last time) and
needs every pile to hold a card. A King-to-Ace run of one suit at the top of a pile
leaves the table at once, as part of the move or deal that completed it, and the card
under it turns up. Four runs removed win; a stuck game with an empty stock is lost.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import RANK_VALUE, SUITS, card_name, card_of, full_deck, rank_name, validate_deck
from .errors import EngineError
from .klondike_family import already_lost
from .layouts import deal_seven_piles
from .notation import (
    DEAL,
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
    load_cards,
    misfit,
    record_card,
    record_cards,
    record_move,
)
from .registry import register
from .spiderette_lost import lost_verdict
from .stuck import FREE, STUCK, UNDECIDED
from .tableau import (
    PILE_INDEX,
    Pile,
    lift,
    load_tableau,
    pile_number,
    tableau_dump,
    tableau_view,
    turn_down,
    turn_up,
)
from .variant import LOST, WON, Json, Step, Variant

DEAL_SIZE = 7
RUN_LENGTH = 13
RUNS = len(SUITS)
STOCK_SIZES = frozenset({24, 17, 10, 3, 0})
"""The stock's possible sizes: 24 dealt in rows of 7, 7, 7 and 3."""
RUN_UNIT = "a run of one suit"

NO_REDEAL = "The stock is empty: there is no redeal."
FILL_FIRST = "Every pile must hold at least one card before a deal."
LOST_REASON = (
    "The stock is empty and no move can change the outcome: no run can be completed and "
    "no card can turn up."
)
RUN_REMOVED = "run_removed:"

_DEAL_MOVE = Move(DEAL)
_TRANSFERS = {
    (src, dst, count): Move(TRANSFER, src, dst, count)
    for src in TABLEAU_PLACES
    for dst in TABLEAU_PLACES
    for count in range(1, MAX_COUNT + 1)
    if src != dst
}
# The runs as they lie on a pile, King at the bottom.
_RUN_CARDS = {suit: tuple(card_of(suit, value) for value in range(13, 0, -1)) for suit in SUITS}


@dataclass(frozen=True, slots=True, kw_only=True)
class SpideretteState:
    tableau: tuple[Pile, ...]
    stock: tuple[str, ...]
    """The last card is dealt first, to pile 1."""
    removed: tuple[str, ...] = ()
    """The suits of the runs removed, in the order they left the table."""


def run_problem(upper: str, lower: str) -> str | None:
    """Why ``upper`` cannot lie on ``lower`` within a unit that moves together."""
    if RANK_VALUE[upper] != RANK_VALUE[lower] - 1:
        return "a group moves together only when each card is one rank below the one under it"
    if upper[1] != lower[1]:
        return "a group moves together only when it is all one suit"
    return None


# The card each card continues a run on: one rank higher, same suit (none for a King).
_UNDER = {
    card: card_of(card[1], RANK_VALUE[card] + 1) if RANK_VALUE[card] < RUN_LENGTH else ""
    for card in full_deck()
}


def suit_run_length(up: tuple[str, ...]) -> int:
    """How many cards at the top of a face-up stack form a descending run of one suit."""
    size = len(up)
    length = 1 if up else 0
    while length < size and _UNDER[up[-length]] == up[-length - 1]:
        length += 1
    return length


def _has_full_run(up: tuple[str, ...]) -> bool:
    return len(up) >= RUN_LENGTH and RANK_VALUE[up[-1]] == 1 and suit_run_length(up) >= RUN_LENGTH


def deals_left(stock_size: int) -> int:
    return -(-stock_size // DEAL_SIZE)


@register
class Spiderette(Variant[SpideretteState]):
    key = "spiderette"
    name = "Spiderette"
    goal_kinds = (*Variant.goal_kinds, "runs_removed")
    rules_version = 1

    def deal(
        self, deck: Sequence[str], options: Mapping[str, object] | None = None
    ) -> SpideretteState:
        self.normalize_options(options)
        layout = deal_seven_piles(validate_deck(deck))
        return SpideretteState(
            tableau=tuple(Pile(pile.down, (pile.top,)) for pile in layout.piles),
            stock=layout.stock,
        )

    # Moves

    def legal_moves(self, state: SpideretteState) -> list[Move]:
        """Transfers by source pile from the left, smaller units first, each onto the
        piles from the left; then the deal. Nothing once the game is over."""
        if len(state.removed) == RUNS or self.is_lost(state):
            return []
        tableau = state.tableau
        by_rank: dict[int, list[int]] = {}
        empty: list[int] = []
        for index, pile in enumerate(tableau):
            if pile.up:
                by_rank.setdefault(RANK_VALUE[pile.up[-1]], []).append(index)
            else:
                empty.append(index)
        moves: list[Move] = []
        for source, pile in enumerate(tableau):
            up = pile.up
            for count in range(1, suit_run_length(up) + 1):
                targets = by_rank.get(RANK_VALUE[up[-count]] + 1, [])
                if empty:
                    targets = sorted(targets + empty)
                moves.extend(
                    _TRANSFERS[TABLEAU_PLACES[source], TABLEAU_PLACES[target], count]
                    for target in targets
                    if target != source
                )
        if self.deal_refusal(state) is None:
            moves.append(_DEAL_MOVE)
        return moves

    def deal_refusal(self, state: SpideretteState) -> str | None:
        """Why ``deal`` is refused now, or None when it is legal (the game not over)."""
        if not state.stock:
            return NO_REDEAL
        if not all(pile.up for pile in state.tableau) and _cards_on_table(state) >= len(
            state.tableau
        ):
            return FILL_FIRST
        return None

    def apply(self, state: SpideretteState, move: Move) -> Step[SpideretteState]:
        if len(state.removed) == RUNS:
            raise EngineError("The game is already won: all four runs are removed")
        try:
            step = self._dispatch(state, move)
        except EngineError:
            if self.is_lost(state):
                raise EngineError(already_lost(LOST_REASON)) from None
            raise
        # No move is legal in a lost game. Asking only here is enough: a productive move
        # is never legal in a lost position, and a position from which a non-productive
        # move leads to one that is not lost is not lost either.
        productive = bool(step.revealed) or step.points > 0 or move.kind == DEAL
        if step.lost and not productive and self.is_lost(state):
            raise EngineError(already_lost(LOST_REASON))
        return step

    def _dispatch(self, state: SpideretteState, move: Move) -> Step[SpideretteState]:
        kind = move.kind
        if kind == TRANSFER:
            return self._transfer(state, move)
        if kind == DEAL:
            return self._deal(state, move)
        if kind == DRAW:
            raise EngineError("Spiderette has no 'draw' move: 'deal' deals a row from the stock")
        if kind == RECYCLE:
            raise EngineError("Spiderette has no 'recycle' move: the stock is dealt only once")
        raise self.unknown_move(move)

    def _deal(self, state: SpideretteState, move: Move) -> Step[SpideretteState]:
        refusal = self.deal_refusal(state)
        if refusal is not None:
            raise EngineError(refusal)
        stock = state.stock
        size = min(DEAL_SIZE, len(stock))
        dealt = stock[: -size - 1 : -1]  # the stock's last card goes to pile 1
        piles = list(state.tableau)
        removed = state.removed
        revealed: list[str] = []
        runs: list[Json] = []
        for index, card in enumerate(dealt):
            pile = Pile(piles[index].down, (*piles[index].up, card))
            pile, suit, turned = _remove_run(pile)
            if suit is None:
                revealed.append(card)
            else:
                removed = (*removed, suit)
                revealed.extend(turned)
                runs.append({"pile": pile_number(index), "suit": suit, "revealed": _first(turned)})
            piles[index] = pile
        new_state = SpideretteState(tableau=tuple(piles), stock=stock[:-size], removed=removed)
        record: Json = {"move": DEAL, "cards": list(dealt), "runs": runs}
        return self._step(state, new_state, move, tuple(revealed), record)

    def _transfer(self, state: SpideretteState, move: Move) -> Step[SpideretteState]:
        src, dst, count = move.src, move.dst, move.count
        if (src, dst, count) not in _TRANSFERS:
            raise self._refuse_transfer(move)
        source_index = PILE_INDEX[str(src)]
        target_index = PILE_INDEX[str(dst)]
        tableau = state.tableau
        cards, source_pile = lift(tableau[source_index], source_index, count, run_problem, RUN_UNIT)
        head = cards[0]
        target = tableau[target_index]
        if target.up:
            onto = target.up[-1]
            if RANK_VALUE[head] != RANK_VALUE[onto] - 1:
                raise EngineError(
                    f"The {card_name(head)} cannot go on the {card_name(onto)}: a card goes "
                    "only on a card one rank higher"
                )
        source_pile, revealed = turn_up(source_pile)
        target_pile, suit, turned = _remove_run(Pile(target.down, target.up + cards))
        piles = list(tableau)
        piles[source_index] = source_pile
        piles[target_index] = target_pile
        removed = state.removed if suit is None else (*state.removed, suit)
        new_state = SpideretteState(tableau=tuple(piles), stock=state.stock, removed=removed)
        record: Json = {
            "move": format_move(move),
            "cards": list(cards),
            "revealed": _first(revealed),
            "run": None if suit is None else {"suit": suit, "revealed": _first(turned)},
        }
        return self._step(state, new_state, move, revealed + turned, record)

    def _refuse_transfer(self, move: Move) -> EngineError:
        places = (move.src, move.dst)
        if WASTE in places:
            return EngineError("Spiderette has no waste: the stock is dealt onto the piles")
        if FOUNDATION in places or move.src in FOUNDATION_SOURCES:
            return EngineError(
                "Spiderette has no foundations: a King-to-Ace run of one suit leaves the "
                "table by itself"
            )
        if any(place in RESERVE_PLACES for place in places):
            return EngineError("Spiderette has no reserve slots")
        return self.unknown_move(move)

    def _step(
        self,
        before: SpideretteState,
        after: SpideretteState,
        move: Move,
        revealed: tuple[str, ...],
        record: Json,
    ) -> Step[SpideretteState]:
        new_runs = after.removed[len(before.removed) :]
        won = len(after.removed) == RUNS
        lost = not won and self.is_lost(after)
        events = tuple(RUN_REMOVED + suit for suit in new_runs)
        if won:
            events += (WON,)
        elif lost:
            events += (LOST,)
        points = RUN_LENGTH * len(new_runs)
        return Step(after, move, points, revealed, won, lost, record, events)

    def undo(self, state: SpideretteState, record: Mapping[str, Any]) -> SpideretteState:
        move = record_move(record)
        if move.kind == DEAL:
            return self._undo_deal(state, record)
        if move.kind != TRANSFER or (move.src, move.dst, move.count) not in _TRANSFERS:
            raise misfit()
        cards = record_cards(record, "cards")
        revealed = record_card(record, "revealed")
        if len(cards) != move.count:
            raise misfit()
        piles = list(state.tableau)
        removed = state.removed
        source_index = PILE_INDEX[str(move.src)]
        target_index = PILE_INDEX[str(move.dst)]
        run = record.get("run")
        if run is not None:
            if not isinstance(run, Mapping):
                raise misfit()
            piles[target_index], removed = _put_run_back(
                piles[target_index], removed, run.get("suit"), record_card(run, "revealed")
            )
        target = piles[target_index]
        if target.up[-len(cards) :] != cards:
            raise misfit()
        piles[target_index] = Pile(target.down, target.up[: -len(cards)])
        source = piles[source_index]
        if revealed is not None:
            turned = turn_down(source, revealed)
            if turned is None:
                raise misfit()
            source = turned
        piles[source_index] = Pile(source.down, source.up + cards)
        return SpideretteState(tableau=tuple(piles), stock=state.stock, removed=removed)

    @staticmethod
    def _undo_deal(state: SpideretteState, record: Mapping[str, Any]) -> SpideretteState:
        dealt = record_cards(record, "cards")
        runs = record.get("runs")
        if not 1 <= len(dealt) <= DEAL_SIZE or not isinstance(runs, list):
            raise misfit()
        piles = list(state.tableau)
        removed = state.removed
        for run in reversed(runs):
            if not isinstance(run, Mapping) or run.get("pile") not in range(1, len(dealt) + 1):
                raise misfit()
            index = run["pile"] - 1
            piles[index], removed = _put_run_back(
                piles[index], removed, run.get("suit"), record_card(run, "revealed")
            )
        for index, card in enumerate(dealt):
            pile = piles[index]
            if pile.up[-1:] != (card,):
                raise misfit()
            piles[index] = Pile(pile.down, pile.up[:-1])
        return SpideretteState(
            tableau=tuple(piles), stock=state.stock + dealt[::-1], removed=removed
        )

    # Status

    def is_won(self, state: SpideretteState) -> bool:
        return len(state.removed) == RUNS

    def is_lost(self, state: SpideretteState) -> bool:
        return self.lost_verdict(state) == STUCK

    def lost_verdict(self, state: SpideretteState) -> str:
        """The search's answer (spiderette_lost.py): ``STUCK`` (lost, proved from what
        the player sees), ``FREE``, or ``UNDECIDED`` when it reached its cap."""
        if state.stock or len(state.removed) == RUNS:
            return FREE
        return lost_verdict(state.tableau)

    def score(self, state: SpideretteState) -> int:
        return RUN_LENGTH * len(state.removed)

    # Helpers for the player

    def tap(self, state: SpideretteState, source: str, count: int = 1) -> Move | None:
        if not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise EngineError(f"A tap moves from 1 to {MAX_COUNT} cards, not {count!r}")
        if source not in PILE_INDEX:
            raise EngineError(f"{source!r} is not a place to tap: use t1 to t7")
        source_index = PILE_INDEX[source]
        pile = state.tableau[source_index]
        if not pile.up or count > suit_run_length(pile.up):
            return None
        head = pile.up[-count]
        wanted = RANK_VALUE[head] + 1
        whole_pile = not pile.down and count == len(pile.up)
        others = [
            (index, other.up[-1] if other.up else None)
            for index, other in enumerate(state.tableau)
            if index != source_index
        ]
        choices = (
            # A pile whose top continues the run in the same suit,
            next(
                (i for i, top in others if top and top[1] == head[1] and RANK_VALUE[top] == wanted),
                None,
            ),
            # else any pile whose top is one rank higher,
            next((i for i, top in others if top and RANK_VALUE[top] == wanted), None),
            # else an empty pile, unless the whole pile would only change places.
            None if whole_pile else next((i for i, top in others if top is None), None),
        )
        target = next((choice for choice in choices if choice is not None), None)
        if target is None:
            return None
        return _TRANSFERS[source, TABLEAU_PLACES[target], count]

    def tap_refusal(self, state: SpideretteState, source: str, count: int = 1) -> str:
        if source not in PILE_INDEX:
            return f"{source!r} is not a place to tap: use t1 to t7"
        index = PILE_INDEX[source]
        pile = state.tableau[index]
        if not pile.up:
            return f"Pile {pile_number(index)} has no face-up card to move"
        if count > len(pile.up):
            return f"Pile {pile_number(index)} has fewer than {count} face-up cards"
        head = pile.up[-count]
        if count > suit_run_length(pile.up):
            return (
                f"The {count} cards from the {card_name(head)} down are not a run of one "
                "suit: only a run of one suit moves as a unit"
            )
        what = (
            f"The {card_name(head)}"
            if count == 1
            else f"The {count} cards headed by the {card_name(head)}"
        )
        others = [other for position, other in enumerate(state.tableau) if position != index]
        whole_pile = not pile.down and count == len(pile.up)
        if whole_pile and any(not other.up for other in others):
            empty = "moving a whole pile to an empty pile changes nothing"
        else:
            empty = "no pile is empty"
        if RANK_VALUE[head] == RANK_VALUE["KS"]:
            return f"{what} has nowhere to go: a King goes only to an empty pile, and {empty}"
        wanted = rank_name(RANK_VALUE[head] + 1)
        return f"{what} has nowhere to go: no pile ends in a {wanted} and {empty}"

    def auto_complete(self, state: SpideretteState) -> list[Move]:
        return []  # never offered: there are no foundations to send cards to

    # Views and storage

    def public_view(self, state: SpideretteState) -> Json:
        status = self.status(state)
        stock = len(state.stock)
        refusal = self.deal_refusal(state)
        return {
            "variant": self.key,
            "tableau": tableau_view(state.tableau),
            "stock": stock,
            "deals_left": deals_left(stock),
            "next_deal_size": min(DEAL_SIZE, stock),
            "can_deal": refusal is None,
            "deal_refusal": refusal,
            "removed_runs": list(state.removed),
            "cards_removed": RUN_LENGTH * len(state.removed),
            "score": self.score(state),
            "status": status,
            "lost_reason": LOST_REASON if status == LOST else None,
            "may_be_stuck": self.lost_verdict(state) == UNDECIDED,
        }

    def hidden_cards(self, state: SpideretteState) -> tuple[str, ...]:
        """Each pile's face-down cards (pile 1 to 7, bottom first), then the stock."""
        return tuple(card for pile in state.tableau for card in pile.down) + state.stock

    def with_hidden_cards(self, state: SpideretteState, cards: Sequence[str]) -> SpideretteState:
        given = self._refill_check(state, cards)
        piles = []
        at = 0
        for pile in state.tableau:
            size = len(pile.down)
            piles.append(Pile(given[at : at + size], pile.up) if size else pile)
            at += size
        return SpideretteState(tableau=tuple(piles), stock=given[at:], removed=state.removed)

    def dump(self, state: SpideretteState) -> Json:
        return {
            "variant": self.key,
            "tableau": tableau_dump(state.tableau),
            "stock": list(state.stock),
            "removed": list(state.removed),
        }

    def load(self, data: Mapping[str, Any]) -> SpideretteState:
        data = check_snapshot(data, self.name, self.key, {"variant", "tableau", "stock", "removed"})
        tableau = load_tableau(data["tableau"], _valid_up)
        stock = load_cards(data["stock"], "the stock")
        if len(stock) not in STOCK_SIZES:
            raise EngineError("The stock must hold 24, 17, 10, 3 or no cards")
        removed = data["removed"]
        if (
            not isinstance(removed, list)
            or not all(suit in SUITS for suit in removed)
            or len(set(removed)) != len(removed)
        ):
            raise EngineError("The removed runs must be a list of distinct suits (S, H, D, C)")
        present = [card for pile in tableau for card in pile.down + pile.up] + list(stock)
        present += [card for suit in removed for card in _RUN_CARDS[suit]]
        if sorted(present) != sorted(full_deck()):
            raise EngineError("A Spiderette snapshot must hold each of the 52 cards exactly once")
        return SpideretteState(tableau=tableau, stock=stock, removed=tuple(removed))


def _valid_up(up: tuple[str, ...]) -> str | None:
    return "end in a complete run, which would have been removed" if _has_full_run(up) else None


def _first(cards: tuple[str, ...]) -> str | None:
    return cards[0] if cards else None


def _remove_run(pile: Pile) -> tuple[Pile, str | None, tuple[str, ...]]:
    """The pile without a complete run at its top, the run's suit (None when there is
    none) and the card turned up under it."""
    if not _has_full_run(pile.up):
        return pile, None, ()
    suit = pile.up[-1][1]
    turned_pile, turned = turn_up(Pile(pile.down, pile.up[:-RUN_LENGTH]))
    return turned_pile, suit, turned


def _put_run_back(
    pile: Pile, removed: tuple[str, ...], suit: object, revealed: str | None
) -> tuple[Pile, tuple[str, ...]]:
    """The reverse of ``_remove_run``, for undo; the misfit error if it does not fit."""
    if not isinstance(suit, str) or suit not in SUITS or removed[-1:] != (suit,):
        raise misfit()
    if revealed is not None:
        turned = turn_down(pile, revealed)
        if turned is None:
            raise misfit()
        pile = turned
    return Pile(pile.down, pile.up + _RUN_CARDS[suit]), removed[:-1]


def _cards_on_table(state: SpideretteState) -> int:
    """With fewer cards on the table than piles no pile can be left empty-free, so the
    rule that every pile must hold a card before a deal gives way."""
    return sum(len(pile.down) + len(pile.up) for pile in state.tableau)
