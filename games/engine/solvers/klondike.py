"""The Klondike and Kingsley solvers: one depth-first search over every reachable position
(klondike_search.py: talon macro moves, a transposition table of canonical positions,
safe automatic moves, dominance pruning, move ordering), in pure Python or in the
compiled core (native/klondike.c, the same search step for step) when it is built.

Both games are the same search with two parameters read from the variant's rules for
the state solved: the cards turned per draw (Klondike 3, Kingsley 1) and whether the waste
turns back (Klondike: without limit, recycles past the free ones only cost score, which
does not decide a win; Kingsley: never). Works from any state, a deal or a game in
progress: won with a line of moves in the notation that wins when played from the state,
lost when every position reachable from it was expanded and none wins, unknown when the
budget ran out first.
"""

from collections.abc import Callable, Sequence
from dataclasses import replace
from time import perf_counter
from typing import Any, ClassVar

from ..errors import EngineError
from ..klondike_family import KlondikeFamily, KlondikeFamilyState
from ..variant import Variant
from .base import LOST, UNKNOWN, WON, Budget, Solution, Solver, card_number, elapsed_ms
from .klondike_search import LOST as SEARCH_LOST
from .klondike_search import MAX_STATES, Move, Search, State
from .klondike_search import WON as SEARCH_WON
from .registry import register_solver

NativeSearch = Callable[..., tuple[int, list[Move], int]]

try:
    from . import _klondike_native  # type: ignore[attr-defined]

    _native_search: NativeSearch | None = _klondike_native.search
except ImportError:  # not built here: the pure-Python search answers
    _native_search = None

_VERDICTS = {SEARCH_WON: WON, SEARCH_LOST: LOST}


def encode(
    variant: Variant[Any], state: KlondikeFamilyState, *, one_pass: bool = False
) -> tuple[Search, State]:
    """The search (with the deal's face-down cards and the rules' draw count and
    recycling, none at all with ``one_pass``) and its form of ``state``: the talon is
    the waste, bottom first, then the stock in drawing order, and the pointer is the
    waste's size."""
    if not isinstance(variant, KlondikeFamily):
        raise EngineError(f"The Klondike solver does not play {variant.name}")
    downs = tuple(tuple(card_number(card) for card in pile.down) for pile in state.tableau)
    ups = tuple(tuple(card_number(card) for card in pile.up) for pile in state.tableau)
    talon = tuple(card_number(card) for card in state.waste + state.stock[::-1])
    draw = variant.cards_per_draw(state)
    recycle = not one_pass and variant.recycle_refusal(state) is None
    search = Search(downs, draw, recycle)
    root: State = (ups, tuple(map(len, downs)), tuple(state.foundations), talon, len(state.waste))
    return search, root


class KlondikeFamilySolver(Solver[KlondikeFamilyState]):
    """The search of both games; each subclass names its variant."""

    def search(
        self, variant: Variant[KlondikeFamilyState], state: KlondikeFamilyState, budget: Budget
    ) -> Solution:
        return self._python_path(variant, state, budget, one_pass=False)

    def native_available(self) -> bool:
        return _native_search is not None

    def native_search(
        self, variant: Variant[KlondikeFamilyState], state: KlondikeFamilyState, budget: Budget
    ) -> Solution:
        return self._native_path(variant, state, budget, one_pass=False)

    def solve_recycling_at_most(
        self,
        variant: Variant[KlondikeFamilyState],
        state: KlondikeFamilyState,
        *,
        recycles: int,
        budget: Budget | None = None,
        native: bool | None = None,
    ) -> Solution | None:
        """One pass through the talon, the one bound this search takes (it does not
        count recycles): its lines never recycle, so they keep to any bound. A loss in
        one pass says nothing of a bound above none, which answers unknown then."""
        budget = budget or Budget()
        solve = self._native_path if self.native_chosen(variant, native) else self._python_path
        solution = solve(variant, state, budget, one_pass=True)
        recycling = isinstance(variant, KlondikeFamily) and variant.recycle_refusal(state) is None
        if solution.verdict == LOST and recycles > 0 and recycling:
            return replace(solution, verdict=UNKNOWN)
        return solution

    def _python_path(
        self,
        variant: Variant[KlondikeFamilyState],
        state: KlondikeFamilyState,
        budget: Budget,
        *,
        one_pass: bool,
    ) -> Solution:
        started = perf_counter()
        search, root = encode(variant, state, one_pass=one_pass)
        if variant.status(state) == LOST:
            return self._solution(variant, state, SEARCH_LOST, [], 1, started, native=False)
        verdict, path = search.solve(
            search.auto(root, None), budget.nodes, budget.deadline(started)
        )
        line = search.line(root, path) if verdict == SEARCH_WON else []
        return self._solution(variant, state, verdict, line, search.nodes, started, native=False)

    def _native_path(
        self,
        variant: Variant[KlondikeFamilyState],
        state: KlondikeFamilyState,
        budget: Budget,
        *,
        one_pass: bool,
    ) -> Solution:
        core = _native_search
        if core is None:
            return super().native_search(variant, state, budget)
        started = perf_counter()
        search, root = encode(variant, state, one_pass=one_pass)
        if variant.status(state) == LOST:
            return self._solution(variant, state, SEARCH_LOST, [], 1, started, native=True)
        ups, _, found, talon, pointer = root
        verdict, path, nodes = core(
            search.downs,
            ups,
            found,
            talon,
            pointer,
            search.draw,
            search.recycle,
            -1 if budget.nodes is None else budget.nodes,
            -1 if budget.ms is None else budget.ms_left(started),
            MAX_STATES,
        )
        line = (
            search.line(root, [(kind, a, b, count) for kind, a, b, count in path])
            if verdict == SEARCH_WON
            else []
        )
        return self._solution(variant, state, verdict, line, nodes, started, native=True)

    def _solution(
        self,
        variant: Variant[KlondikeFamilyState],
        state: KlondikeFamilyState,
        verdict: int,
        line: Sequence[str],
        nodes: int,
        started: float,
        *,
        native: bool,
    ) -> Solution:
        if verdict == SEARCH_WON:
            check_line(variant, state, line)
        return Solution(
            verdict=_VERDICTS.get(verdict, UNKNOWN),
            moves=tuple(line),
            nodes=nodes,
            ms=elapsed_ms(started),
            native=native,
        )


def check_line(
    variant: Variant[KlondikeFamilyState], state: KlondikeFamilyState, line: Sequence[str]
) -> None:
    """Play the line with the rules: it must be legal and end in a win (a search bug
    otherwise, never a verdict)."""
    for text in line:
        state = variant.play(state, text).state
    if not variant.is_won(state):
        raise EngineError(f"The {variant.name} solver's line does not win")


@register_solver
class KlondikeSolver(KlondikeFamilySolver):
    variant_key: ClassVar[str] = "klondike"
    # The quintiles of nodes over the won deals of the benchmark (200 seeds, 1 s each,
    # compiled core): most won deals are won in the first, narrower pass.
    difficulty_bounds: ClassVar[tuple[int, int, int, int]] = (55, 90, 340, 3_000)


@register_solver
class KingsleySolver(KlondikeFamilySolver):
    variant_key: ClassVar[str] = "kingsley"
    # The quintiles of nodes over the won deals of the benchmark (200 seeds, 5 s each,
    # compiled core).
    difficulty_bounds: ClassVar[tuple[int, int, int, int]] = (4_800, 23_000, 70_000, 172_000)
