"""The Spiderette solver: a depth-first search over every reachable position with a
transposition table of canonical positions and best-first move ordering
(spiderette_search.py), in pure Python or in the compiled core
(native/spiderette.c, the same search step for step) when it is built.

Works from any state, a deal or a game in progress: won with a line of moves in the
notation that wins when played from the state, lost when every position reachable from
it was expanded and none wins, unknown when the budget ran out first.

The line is not replayed with the rules here: the engine's own check for a lost game
runs after every move and can cost a tenth of a second on a move of a long endgame, so
replaying a 250-move line would take longer than most searches. The tests replay every
line they get, from both paths.
"""

from collections.abc import Callable, Sequence
from time import perf_counter
from typing import ClassVar

from ..notation import Move, format_move
from ..spiderette import SpideretteState
from ..tableau import Pile
from ..variant import Variant
from .base import LOST, UNKNOWN, WON, Budget, Solution, Solver, card_number, elapsed_ms
from .registry import register_solver
from .spiderette_search import LOST as SEARCH_LOST
from .spiderette_search import WON as SEARCH_WON
from .spiderette_search import MoveT, Piles, search, shortened

NativeSearch = Callable[..., tuple[int, list[MoveT], int]]

try:
    from . import _spiderette_native  # type: ignore[attr-defined]

    _native_search: NativeSearch | None = _spiderette_native.search
except ImportError:  # not built here: the pure-Python search answers
    _native_search = None

_VERDICTS = {SEARCH_WON: WON, SEARCH_LOST: LOST}


def _pile(pile: Pile) -> tuple[int, tuple[int, ...]]:
    return len(pile.down), tuple(card_number(card) for card in pile.down + pile.up)


def encode(state: SpideretteState) -> tuple[Piles, tuple[int, ...], int]:
    """The search's form of a state: piles, stock and the number of runs removed."""
    piles = tuple(_pile(pile) for pile in state.tableau)
    stock = tuple(card_number(card) for card in state.stock)
    return piles, stock, len(state.removed)


def move_text(move: Sequence[int]) -> str:
    source, target, count = move
    if source < 0:
        return "deal"
    return format_move(Move("transfer", f"t{source + 1}", f"t{target + 1}", count))


@register_solver
class SpideretteSolver(Solver[SpideretteState]):
    variant_key = "spiderette"
    difficulty_bounds: ClassVar[tuple[int, int, int, int]] = (10_000, 120_000, 400_000, 2_500_000)
    """From the nodes the compiled core needed on the won deals of 100 seeds (30 s each):
    about a fifth of them in each band."""

    def search(
        self, variant: Variant[SpideretteState], state: SpideretteState, budget: Budget
    ) -> Solution:
        started = perf_counter()
        piles, stock, removed = encode(state)
        verdict, line, nodes = search(
            piles, stock, removed, max_nodes=budget.nodes, deadline=budget.deadline(started)
        )
        return self._solution(verdict, piles, stock, line, nodes, started, native=False)

    def native_available(self) -> bool:
        return _native_search is not None

    def native_search(
        self, variant: Variant[SpideretteState], state: SpideretteState, budget: Budget
    ) -> Solution:
        if _native_search is None:
            return super().native_search(variant, state, budget)
        started = perf_counter()
        piles, stock, removed = encode(state)
        verdict, line, nodes = _native_search(
            [(down, list(cards)) for down, cards in piles],
            list(stock),
            removed,
            budget.nodes or 0,
            budget.ms_left(started) or 0,
        )
        return self._solution(verdict, piles, stock, line, nodes, started, native=True)

    @staticmethod
    def _solution(
        verdict: int,
        piles: Piles,
        stock: tuple[int, ...],
        line: Sequence[MoveT],
        nodes: int,
        started: float,
        *,
        native: bool,
    ) -> Solution:
        result = _VERDICTS.get(verdict, UNKNOWN)
        won = result == WON
        moves = tuple(move_text(move) for move in shortened(piles, stock, line)) if won else ()
        return Solution(
            verdict=result, moves=moves, nodes=nodes, ms=elapsed_ms(started), native=native
        )
