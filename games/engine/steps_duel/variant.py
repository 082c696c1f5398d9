"""The Steps Head-to-Head Duel: two seats take turns on one board of two decks, one move
a turn, each move's action points (Steps' table 2.5) going to the seat that made it."""

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..cards import SUITS, card_of
from ..errors import EngineError
from ..layouts import deal_seven_piles
from ..notation import DRAW, PASS, RECYCLE, RESERVE_PLACES, TRANSFER, Move, format_move
from ..records import (
    is_count,
    misfit,
    record_card,
    record_cards,
    record_move,
)
from ..registry import register
from ..rng import shuffled_double_deck
from ..steps.ledger import move_points
from ..tableau import PILE_INDEX, Pile, tableau_view
from ..variant import LOST, WON, Json, Step, Variant
from .moves import (
    PASS_MOVE,
    board_moves,
    is_progress,
    transfer,
    untransfer,
)
from .state import (
    CARDS_PER_DRAW,
    FULL_PILLARS,
    PASSES_TO_END,
    RECYCLES,
    STAGNATION_MOVES,
    DuelState,
    pillar_name,
    validate_double_deck,
)
from .storage import dump_state, load_state

BUILT, PASSED, LOCKED_OUT, STAGNATED = "built", "passes", "lockout", "stagnation"
END_REASONS = {
    BUILT: "Grand Ascension: all 104 cards are on the eight pillars.",
    PASSED: "Both players passed, one after the other.",
    LOCKED_OUT: (
        "Stagnation Lockout: the stock is empty, no recycle can turn the waste back and no "
        "move can put a card on a pillar, turn a card up or take the waste card."
    ),
    STAGNATED: (
        f"Stagnation: {STAGNATION_MOVES} moves in a row put no card on a pillar, turned no "
        "card up, took no waste card and drew nothing."
    ),
}


@register
class StepsDuel(Variant[DuelState]):
    key = "steps_duel"
    name = "Steps Duel"
    goal_kinds = ()
    rules_version = 1

    # For the platform

    def seat_to_move(self, state: DuelState) -> int:
        """0 or 1: whose turn it is (also after the game ended: the seat that would move)."""
        return state.seat

    def seat_scores(self, state: DuelState) -> tuple[int, int]:
        """Each seat's action points, seat 0 first."""
        return state.scores[0], state.scores[1]

    def end_reason(self, state: DuelState) -> str | None:
        """Why the game is over ("built", "passes", "lockout", "stagnation"), or None
        while it goes on."""
        if state.pillars == FULL_PILLARS:
            return BUILT
        if state.passes >= PASSES_TO_END:
            return PASSED
        if state.idle >= STAGNATION_MOVES:
            return STAGNATED
        if not state.stock and _locked_out(state):
            return LOCKED_OUT
        return None

    def is_over(self, state: DuelState) -> bool:
        return self.end_reason(state) is not None

    def winner(self, state: DuelState) -> int | None:
        """The seat with the higher score once the game is over; None for a draw (equal
        scores) and while the game goes on."""
        first, second = self.seat_scores(state)
        if not self.is_over(state) or first == second:
            return None
        return 0 if first > second else 1

    def pass_move(self) -> Move:
        """The move the platform plays for a seat whose turn ran out."""
        return PASS_MOVE

    # The Variant protocol

    def deck_of_seed(self, seed: str) -> tuple[str, ...]:
        return shuffled_double_deck(seed)

    def deal(self, deck: Sequence[str], options: Mapping[str, object] | None = None) -> DuelState:
        self.normalize_options(options)
        layout = deal_seven_piles(validate_double_deck(deck))
        return DuelState(
            tableau=tuple(Pile(pile.down, (pile.top,)) for pile in layout.piles),
            pillars=(0,) * len(FULL_PILLARS),
            stock=layout.stock,
        )

    def legal_moves(self, state: DuelState) -> list[Move]:
        """The board's moves for the seat to move (moves.board_moves), then pass;
        nothing once the game is over."""
        if self.is_over(state):
            return []
        return [*board_moves(state), PASS_MOVE]

    def apply(self, state: DuelState, move: Move) -> Step[DuelState]:
        reason = self.end_reason(state)
        if reason is not None:
            raise EngineError(f"The game is over. {END_REASONS[reason]}")
        record: Json = {"move": format_move(move), "passes": state.passes, "idle": state.idle}
        revealed: tuple[str, ...] = ()
        if move.kind == PASS:
            board = state
        elif move.kind == DRAW:
            board, revealed = _draw(state)
            record["cards"] = list(revealed)
        elif move.kind == RECYCLE:
            board = _recycle(state)
        elif move.kind == TRANSFER:
            moved = transfer(state, move)
            board, revealed = moved.state, moved.revealed
            record["cards"] = list(moved.cards)
            record["revealed"] = revealed[0] if revealed else None
        else:
            raise self.unknown_move(move)
        turned_up = move.kind == TRANSFER and bool(revealed)
        gained = move_points(move, turned_up)
        scores = list(state.scores)
        scores[state.seat] += gained
        after = DuelState(
            tableau=board.tableau,
            pillars=board.pillars,
            stock=board.stock,
            waste=board.waste,
            reserves=board.reserves,
            recycles=board.recycles,
            seat=1 - state.seat,
            scores=tuple(scores),
            passes=state.passes + 1 if move.kind == PASS else 0,
            idle=0 if is_progress(move, turned_up) else state.idle + 1,
        )
        won, lost = self.is_won(after), self.is_lost(after)
        events = (WON,) if won else (LOST,) if lost else ()
        return Step(after, move, gained, revealed, won, lost, record, events)

    def undo(self, state: DuelState, record: Mapping[str, Any]) -> DuelState:
        move = record_move(record)
        passes, idle = _record_count(record, "passes"), _record_count(record, "idle")
        if move.kind == PASS:
            if (passes, idle) != (state.passes - 1, state.idle - 1):
                raise misfit()
            board, turned_up = state, False
        elif move.kind == DRAW:
            drawn = record_cards(record, "cards")
            if len(drawn) != CARDS_PER_DRAW or state.waste[-1:] != drawn:
                raise misfit()
            board = _with_board(state, stock=(*state.stock, *drawn), waste=state.waste[:-1])
            turned_up = False
        elif move.kind == RECYCLE:
            if state.waste or not state.stock or state.recycles < 1:
                raise misfit()
            board = _with_board(
                state, stock=(), waste=state.stock[::-1], recycles=state.recycles - 1
            )
            turned_up = False
        elif move.kind == TRANSFER:
            revealed = record_card(record, "revealed")
            board = untransfer(state, move, record_cards(record, "cards"), revealed)
            turned_up = revealed is not None
        else:
            raise misfit()
        progress = is_progress(move, turned_up)
        if (
            (move.kind != PASS and state.passes != 0)
            or (progress and state.idle != 0)
            or (not progress and state.idle != idle + 1)
        ):
            raise misfit()
        seat = 1 - state.seat
        scores = list(state.scores)
        scores[seat] -= move_points(move, turned_up)
        return DuelState(
            tableau=board.tableau,
            pillars=board.pillars,
            stock=board.stock,
            waste=board.waste,
            reserves=board.reserves,
            recycles=board.recycles,
            seat=seat,
            scores=tuple(scores),
            passes=passes,
            idle=idle,
        )

    def is_won(self, state: DuelState) -> bool:
        """Whether the board is fully built (the game is then over)."""
        return state.pillars == FULL_PILLARS

    def is_lost(self, state: DuelState) -> bool:
        """Whether the game ended without a full build (passes, lockout, stagnation): the
        board, not a seat, is lost; ``winner`` says who won the game."""
        reason = self.end_reason(state)
        return reason is not None and reason != BUILT

    def score(self, state: DuelState) -> int:
        """Both seats' points together, so that a Step's points are what the move earned
        its mover; the seats' own figures are ``seat_scores``."""
        return sum(state.scores)

    def is_ranked(self, options: Mapping[str, object]) -> bool:
        return False

    def unknown_move(self, move: Move) -> EngineError:
        return EngineError(f"The Duel has no {format_move(move)!r} move")

    # Helpers for the player

    def tap(self, state: DuelState, source: str, count: int = 1) -> Move | None:
        """A single card to the first pillar that takes it, else the unit onto the first
        pile from the left that takes it; a tap never fills a slot."""
        if self.is_over(state):
            return None
        for move in board_moves(state):
            if move.src == source and move.count == count and move.dst not in RESERVE_PLACES:
                return move
        return None

    def tap_refusal(self, state: DuelState, source: str, count: int = 1) -> str:
        if self.is_over(state):
            return "The game is over: nothing moves any more"
        cards = "card" if count == 1 else f"{count} cards"
        return f"No pillar and no pile takes the top {cards} of {source} now"

    def auto_complete(self, state: DuelState) -> list[Move]:
        """Not offered: every move is a turn."""
        return []

    # Views and storage

    def public_view(self, state: DuelState) -> Json:
        reason = self.end_reason(state)
        recycles_left = RECYCLES - state.recycles
        return {
            "variant": self.key,
            "tableau": tableau_view(state.tableau),
            "pillars": [
                {
                    "pillar": pillar_name(pillar),
                    "suit": SUITS[pillar // 2],
                    "top": card_of(SUITS[pillar // 2], height) if height else None,
                    "count": height,
                }
                for pillar, height in enumerate(state.pillars)
            ],
            "reserves": [
                {"slot": slot, "card": card}
                for slot, card in zip(RESERVE_PLACES, state.reserves, strict=True)
            ],
            "stock": len(state.stock),
            "waste": {"count": len(state.waste), "fan": list(state.waste[-1:])},
            "recycles": state.recycles,
            "recycles_left": recycles_left,
            "can_draw": bool(state.stock),
            "can_recycle": not state.stock and bool(state.waste) and recycles_left > 0,
            "cards_on_pillars": sum(state.pillars),
            "seat_to_move": state.seat,
            "scores": list(state.scores),
            "passes_in_a_row": state.passes,
            "moves_without_progress": state.idle,
            "status": self.status(state),
            "over": reason is not None,
            "end_reason": reason,
            "end_text": END_REASONS[reason] if reason is not None else None,
            "winner": self.winner(state),
            "score": self.score(state),
        }

    def hidden_cards(self, state: DuelState) -> tuple[str, ...]:
        """Each pile's face-down cards (pile 1 to 7, bottom first), the stock, then the
        waste below its top card."""
        down = tuple(card for pile in state.tableau for card in pile.down)
        return down + state.stock + state.waste[:-1]

    def with_hidden_cards(self, state: DuelState, cards: Sequence[str]) -> DuelState:
        given = self._refill_check(state, cards)
        piles = []
        at = 0
        for pile in state.tableau:
            piles.append(Pile(given[at : at + len(pile.down)], pile.up))
            at += len(pile.down)
        stock = given[at : at + len(state.stock)]
        at += len(stock)
        return _with_board(
            state, tableau=tuple(piles), stock=stock, waste=given[at:] + state.waste[-1:]
        )

    def dump(self, state: DuelState) -> Json:
        return dump_state(state, key=self.key)

    def load(self, data: Mapping[str, Any]) -> DuelState:
        return load_state(data, name=self.name, key=self.key)


@lru_cache(maxsize=1024)
def _locked_out(state: DuelState) -> bool:
    # Cached: apply, status, the view and legal_moves all ask about the same states.
    return not any(_progress(state, move) for move in board_moves(state))


def _progress(state: DuelState, move: Move) -> bool:
    """Whether a legal board move would make progress, without making it."""
    turns_up = False
    if move.kind == TRANSFER and move.src in PILE_INDEX:
        pile = state.tableau[PILE_INDEX[move.src]]
        turns_up = bool(pile.down) and move.count == len(pile.up)
    return is_progress(move, turns_up)


def _draw(state: DuelState) -> tuple[DuelState, tuple[str, ...]]:
    if not state.stock:
        if state.waste and state.recycles < RECYCLES:
            raise EngineError("The stock is empty: recycle the waste to draw again")
        raise EngineError("The stock is empty and no recycle can turn the waste back")
    drawn = state.stock[-CARDS_PER_DRAW:]
    return _with_board(state, stock=state.stock[:-CARDS_PER_DRAW], waste=state.waste + drawn), drawn


def _recycle(state: DuelState) -> DuelState:
    if state.stock:
        raise EngineError(
            "The stock still has cards: the waste is turned back only when the stock is empty"
        )
    if not state.waste:
        raise EngineError("There is nothing to recycle: the waste is empty")
    if state.recycles >= RECYCLES:
        raise EngineError(f"The waste may be turned back {RECYCLES} times, and both are used")
    # Reversed, so the next pass draws the cards in the order the last pass did.
    return _with_board(state, stock=state.waste[::-1], waste=(), recycles=state.recycles + 1)


def _with_board(
    state: DuelState,
    *,
    tableau: tuple[Pile, ...] | None = None,
    stock: tuple[str, ...],
    waste: tuple[str, ...],
    recycles: int | None = None,
) -> DuelState:
    return DuelState(
        tableau=state.tableau if tableau is None else tableau,
        pillars=state.pillars,
        stock=stock,
        waste=waste,
        reserves=state.reserves,
        recycles=state.recycles if recycles is None else recycles,
        seat=state.seat,
        scores=state.scores,
        passes=state.passes,
        idle=state.idle,
    )


def _record_count(record: Mapping[str, Any], key: str) -> int:
    value = record.get(key)
    if not isinstance(value, int) or not is_count(value):
        raise misfit()
    return value
