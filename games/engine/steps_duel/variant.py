"""The Steps Head-to-Head Duel: two seats take turns on one board of two decks, one move
a turn, each move's action points (Steps' table 2.5) going to the seat that made it."""

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..cards import SUITS, card_of, is_card
from ..errors import EngineError
from ..klondike_family import run_length
from ..layouts import deal_seven_piles
from ..notation import DRAW, PASS, RECYCLE, RESERVE_PLACES, TRANSFER, Move, format_move
from ..records import (
    check_snapshot,
    is_count,
    load_cards,
    misfit,
    record_card,
    record_cards,
    record_move,
)
from ..registry import register
from ..rng import shuffled_double_deck
from ..steps.ledger import move_points
from ..tableau import PILE_INDEX, Pile, load_tableau, tableau_dump, tableau_view
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
    KING,
    PASSES_TO_END,
    RECYCLES,
    SEATS,
    STAGNATION_MOVES,
    DuelState,
    check_twice,
    pillar_cards,
    pillar_name,
    validate_double_deck,
)

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
_SNAPSHOT_KEYS = {
    "variant",
    "tableau",
    "pillars",
    "stock",
    "waste",
    "reserves",
    "recycles",
    "seat",
    "scores",
    "passes",
    "idle",
}


@register
class StepsDuel(Variant[DuelState]):
    key = "steps_duel"
    name = "Steps Duel"
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
        for move in board_moves(state):
            if move.src == source and move.count == count and move.dst not in RESERVE_PLACES:
                return move
        return None

    def tap_refusal(self, state: DuelState, source: str, count: int = 1) -> str:
        return f"Nothing takes the top {count} card(s) of {source} now"

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
        return {
            "variant": self.key,
            "tableau": tableau_dump(state.tableau),
            "pillars": list(state.pillars),
            "stock": list(state.stock),
            "waste": list(state.waste),
            "reserves": list(state.reserves),
            "recycles": state.recycles,
            "seat": state.seat,
            "scores": list(state.scores),
            "passes": state.passes,
            "idle": state.idle,
        }

    def load(self, data: Mapping[str, Any]) -> DuelState:
        data = check_snapshot(data, self.name, self.key, _SNAPSHOT_KEYS)
        tableau = load_tableau(data["tableau"], _valid_up)
        pillars = _load_pillars(data["pillars"])
        reserves = _load_reserves(data["reserves"])
        stock = load_cards(data["stock"], "the stock")
        waste = load_cards(data["waste"], "the waste")
        recycles, seat, passes, idle = (data[key] for key in ("recycles", "seat", "passes", "idle"))
        if not is_count(recycles) or recycles > RECYCLES:
            raise EngineError(f"The recycle count must be a whole number from 0 to {RECYCLES}")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise EngineError("The seat to move must be 0 or 1")
        if not is_count(passes) or passes > PASSES_TO_END:
            raise EngineError(
                f"The passes in a row must be a whole number from 0 to {PASSES_TO_END}"
            )
        if not is_count(idle) or idle > STAGNATION_MOVES:
            raise EngineError(
                f"The moves without progress must be a whole number from 0 to {STAGNATION_MOVES}"
            )
        scores = data["scores"]
        # Scores follow from the moves played, which a snapshot does not hold: only their
        # form is checked.
        if (
            not isinstance(scores, list)
            or len(scores) != SEATS
            or not all(isinstance(score, int) and not isinstance(score, bool) for score in scores)
        ):
            raise EngineError("The scores must be a list of two whole numbers, seat 0 first")
        cards = [card for pile in tableau for card in pile.down + pile.up]
        cards += [*stock, *waste, *pillar_cards(pillars)]
        cards += [card for card in reserves if card is not None]
        check_twice(cards, "A Steps Duel snapshot")
        return DuelState(
            tableau=tableau,
            pillars=pillars,
            stock=stock,
            waste=waste,
            reserves=reserves,
            recycles=recycles,
            seat=seat,
            scores=tuple(scores),
            passes=passes,
            idle=idle,
        )


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


def _valid_up(up: tuple[str, ...]) -> str | None:
    return None if run_length(up) == len(up) else "are not a valid sequence"


def _load_pillars(value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != len(FULL_PILLARS)
        or not all(is_count(height) and height <= KING for height in value)
    ):
        raise EngineError(
            "The pillars must be 8 heights from 0 to 13, in order S1, S2, H1, H2, D1, D2, C1, C2"
        )
    if any(value[first] < value[first + 1] for first in range(0, len(value), 2)):
        raise EngineError("A suit's first pillar is never lower than its second")
    return tuple(value)


def _load_reserves(value: object) -> tuple[str | None, ...]:
    if (
        not isinstance(value, list)
        or len(value) != len(RESERVE_PLACES)
        or not all(card is None or is_card(card) for card in value)
    ):
        raise EngineError("The reserves must be a list of 4 slots, each a card code or null")
    return tuple(value)
