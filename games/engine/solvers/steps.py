"""The Steps solver, for every option set (draw 1 or 3, 0 to 4 reserve slots, 0 to 99
recycles, retrieval on or off): a depth-first search over every reachable position with
a transposition table of canonical positions, safe automatic foundation moves, dominance
pruning, best-first move ordering and talon macro moves (steps_search.py), in pure
Python or in the compiled core (native/steps.c, the same search step for step) when it
is built.

Works from any state, a deal or a game in progress: won with a line of moves in the
notation that wins when played from the state (a winnable position is never lost, so the
line never passes through a Stagnation Lockout), lost when every position reachable from
it was expanded and none wins (the recycles are bounded, so the space is finite),
unknown when the budget ran out first.
"""

from collections.abc import Callable, Sequence
from dataclasses import replace
from time import perf_counter
from typing import ClassVar

from ..steps import StepsState
from ..variant import Variant
from .base import LOST, UNKNOWN, WON, Budget, Solution, Solver, card_number, elapsed_ms
from .registry import register_solver
from .steps_search import LOST as SEARCH_LOST
from .steps_search import WON as SEARCH_WON
from .steps_search import MoveT, Position, Rules, apply, search, settle

NativeSearch = Callable[..., tuple[int, list[MoveT], int]]

try:
    from . import _steps_native  # type: ignore[attr-defined]

    _native_search: NativeSearch | None = _steps_native.search
except ImportError:  # not built here: the pure-Python search answers
    _native_search = None

_VERDICTS = {SEARCH_WON: WON, SEARCH_LOST: LOST}


def _cards(cards: Sequence[str]) -> tuple[int, ...]:
    return tuple(card_number(card) for card in cards)


def encode(state: StepsState) -> tuple[Rules, Position, list[str]]:
    """The search's rules and settled position for a state, with the safe foundation
    moves made to settle it (the first moves of any line)."""
    options = state.options
    rules = Rules(options.draw, options.buffers, options.recycles, options.retrieval)
    down = [_cards(pile.down) for pile in state.tableau]
    up = [_cards(pile.up) for pile in state.tableau]
    found = list(state.foundations)
    slots = [-1 if card is None else card_number(card) for card in state.reserves]
    # The stock's last card is drawn first.
    talon = _cards(state.waste) + _cards(state.stock[::-1])
    texts: list[str] = []
    talon, waste = settle(rules, down, up, found, slots, talon, len(state.waste), texts)
    position = (tuple(down), tuple(up), tuple(found), talon, waste, state.recycles, tuple(slots))
    return rules, position, texts


def line_text(rules: Rules, position: Position, line: Sequence[MoveT]) -> tuple[str, ...]:
    """The search's moves as the notation's moves (draws, recycles and safe foundation
    moves written out)."""
    texts: list[str] = []
    for move in line:
        position, made = apply(rules, position, tuple(move))  # type: ignore[arg-type]
        texts += made
    return tuple(texts)


@register_solver
class StepsSolver(Solver[StepsState]):
    variant_key = "steps"
    # From the nodes on the 200 won benchmark deals (default options): 20% 50, 40% 53,
    # 60% 58, 80% 131, 95% 2,064, largest 165,303. These bands put 67, 63, 37, 23 and 10
    # of them in bands 1 to 5.
    difficulty_bounds: ClassVar[tuple[int, int, int, int]] = (52, 60, 150, 2_000)

    def search(self, variant: Variant[StepsState], state: StepsState, budget: Budget) -> Solution:
        started = perf_counter()
        rules, position, settling = encode(state)
        verdict, line, nodes = search(
            rules, position, max_nodes=budget.nodes, deadline=budget.deadline(started)
        )
        return self._solution(verdict, rules, position, settling, line, nodes, started, False)

    def native_available(self) -> bool:
        return _native_search is not None

    def solve_recycling_at_most(
        self,
        variant: Variant[StepsState],
        state: StepsState,
        *,
        recycles: int,
        budget: Budget | None = None,
        native: bool | None = None,
    ) -> Solution | None:
        """The same search with the recycles option lowered to the bound: its lines keep
        to it, and they play under the real options too (fewer recycles than allowed)."""
        options = state.options
        allowed = min(options.recycles, state.recycles + max(0, recycles))
        bounded = replace(state, options=replace(options, recycles=allowed))
        return self.solve(variant, bounded, budget=budget, native=native)

    def native_search(
        self, variant: Variant[StepsState], state: StepsState, budget: Budget
    ) -> Solution:
        if _native_search is None:
            return super().native_search(variant, state, budget)
        started = perf_counter()
        rules, position, settling = encode(state)
        down, up, found, talon, waste, recycles, slots = position
        try:
            verdict, line, nodes = _native_search(
                (rules.draw, rules.buffers, rules.recycles, int(rules.retrieval)),
                [list(cards) for cards in down],
                [list(cards) for cards in up],
                list(found),
                list(talon),
                waste,
                recycles,
                list(slots),
                budget.nodes or 0,
                budget.ms_left(started) or 0,
            )
        except ValueError:  # a position beyond the core's fixed sizes (a pile of 16
            # face-down cards): only a hand-made snapshot can be one; Python answers.
            return self.search(variant, state, budget)
        return self._solution(verdict, rules, position, settling, line, nodes, started, True)

    @staticmethod
    def _solution(
        verdict: int,
        rules: Rules,
        position: Position,
        settling: list[str],
        line: Sequence[MoveT],
        nodes: int,
        started: float,
        native: bool,
    ) -> Solution:
        result = _VERDICTS.get(verdict, UNKNOWN)
        moves = (*settling, *line_text(rules, position, line)) if result == WON else ()
        return Solution(
            verdict=result, moves=moves, nodes=nodes, ms=elapsed_ms(started), native=native
        )
