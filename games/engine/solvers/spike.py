"""The Spike solver: an exact depth-first search over the cards gone, the waste's top, the
stock left and the wild card (docs/solvers.md#spike).

Every mode has the same legal moves (the modes differ in scoring and in the platform's
clock), so one search answers for all of them and ignores time.

The search, the same in pure Python (here) and in the compiled core
(native/spike.c, ``games.engine.solvers._spike_native``), node for node:

- A position is (the spike cards still there as a 28-bit mask, the stock's size, the
  waste's top rank or the wild card, whether the wild card is used); nothing else
  decides what can follow, the suits and the waste below its top never matter. The
  transposition table's key is canonical: the top only decides which exposed cards may
  be played next (any later move covers it), so the key holds that set instead of the
  top, and tops that take the same cards (all those that take none, say) are one entry.
- Every move makes progress (a card leaves the spikes, the stock shrinks or the wild card
  is used), so the positions form a DAG: a position met again after it was searched is a
  proven loss, and the transposition table holds the lost ones. Its memory is bounded
  (two generations of TT_CAPACITY positions: when the newer fills up, the older is
  dropped), and a position forgotten is searched again: exact, only slower.
- Pruning, two proofs of loss before any move:
  - the chains: cards go to the waste in chains of ranks one apart, so the ranks left on
    the spikes fall into arcs of the rank cycle (K-A wraps) that no chain crosses, and
    each arc needs a chain of its own, started by a card of its ranks or next to them:
    the waste's top, a stock card or the wild card, each at most once. Too few starts,
    or more arcs that only the wild card (or the wild card on the waste) can start than
    that, lose;
  - the wild card's demands: a stranded card, one that no card can ever precede (no
    neighbour rank left in the stock, none on the spikes but cards it covers itself, and
    the waste's top only if the card can be played now), must go on the wild card; so
    must the first card played of a locked rank, one whose neighbours left on the spikes
    all lie above its own cards (none in the stock, and the top takes none of its cards
    now). Two demands, or one when the wild card is gone (or on the waste and the card
    not exposed), lose.
- Move ordering: plays first, those that expose more cards first, then those from the
  spike with more cards left; then draw; then the wild card.
- The budget: Budget.nodes positions expanded, Budget.ms milliseconds; when either runs
  out the answer is unknown. The answer is lost only when the whole space was searched.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from time import perf_counter

from ..cards import RANK_VALUE
from ..errors import EngineError
from ..notation import DRAW, WILD
from ..spike import COVERS, PLACES, SPIKE_CARDS, SPIKE_COUNT, UNDER, WILD_MARK, SpikeState
from ..variant import Variant
from .base import LOST, UNKNOWN, WON, Budget, Solution, Solver, elapsed_ms
from .registry import register_solver

NativeSearch = Callable[[bytes, bytes, int, bool, int, int, int], tuple[int, tuple[int, ...], int]]
_native: NativeSearch | None
try:
    from ._spike_native import search as _native
except ImportError:  # not built here: the pure-Python search answers
    _native = None

RANKS_IN_A_CYCLE = 13
WILD_TOP = RANKS_IN_A_CYCLE
"""The waste's top when it is the wild card (ranks are 0 for Ace to 12 for King)."""
TT_CAPACITY = 1 << 20
"""Lost positions in each of the transposition table's two generations (both paths; the
compiled core's tables take 32 MiB at most)."""
DRAW_CODE = SPIKE_CARDS
WILD_CODE = SPIKE_CARDS + 1
"""A line's moves as numbers, as the compiled core returns them: 0 to 27 play the card
of that position, DRAW_CODE draws, WILD_CODE plays the wild card."""
MAX_STOCK = 24
"""The most stock cards a position can have (52 - 28): the key gives the stock 5 bits."""
_CLOCK_EVERY = 256
"""Nodes between two looks at the clock."""

_COVER_MASK = tuple(sum(1 << cover for cover in covers) for covers in COVERS)


def _above(position: int) -> int:
    """The positions that ``position`` covers, directly or not: all of them leave after it."""
    mask = 0
    for above in UNDER[position]:
        mask |= 1 << above | _above(above)
    return mask


_ABOVE_MASK = tuple(_above(position) for position in range(SPIKE_CARDS))
_SPIKE_MASK = tuple(
    sum(1 << position for position in range(SPIKE_CARDS) if PLACES[position][0] == spike)
    for spike in range(SPIKE_COUNT)
)
_SPIKE_OF = tuple(PLACES[position][0] for position in range(SPIKE_CARDS))


def _rank(card: str) -> int:
    return RANK_VALUE[card] - 1


def _neighbours(rank: int) -> tuple[int, int]:
    return (rank + 1) % RANKS_IN_A_CYCLE, (rank - 1) % RANKS_IN_A_CYCLE


_ALL_RANKS = (1 << RANKS_IN_A_CYCLE) - 1


@cache
def catchments(present: int) -> tuple[int, ...]:
    """For the ranks left on the spikes (a 13-bit mask), the ranks that may start a chain
    into each arc of them: the arc and the ranks next to it, as 13-bit masks. One arc
    when every rank is left."""
    if present == _ALL_RANKS:
        return (_ALL_RANKS,)
    gap = next(rank for rank in range(RANKS_IN_A_CYCLE) if not present >> rank & 1)
    arcs: list[int] = []
    arc = 0
    for step in range(1, RANKS_IN_A_CYCLE + 1):
        rank = (gap + step) % RANKS_IN_A_CYCLE
        if present >> rank & 1:
            up, down = _neighbours(rank)
            arc |= 1 << rank | 1 << up | 1 << down
        elif arc:
            arcs.append(arc)
            arc = 0
    return tuple(arcs)


@dataclass(frozen=True, slots=True)
class SpikePosition:
    """A Spike state as the search sees it (both paths)."""

    ranks: tuple[int, ...]
    """The rank (0 to 12) of each of the 28 positions, -1 where the card is gone."""
    stock: tuple[int, ...]
    """The stock's ranks, the last drawn first."""
    top: int
    """The waste's top rank, or WILD_TOP."""
    wild_used: bool

    @classmethod
    def of(cls, state: SpikeState) -> "SpikePosition":
        if len(state.spikes) != SPIKE_CARDS or not state.waste or len(state.stock) > MAX_STOCK:
            raise EngineError(
                "A Spike state has 28 spike places, a card on the waste and at most 24 in the stock"
            )
        top = state.waste[-1]
        return cls(
            ranks=tuple(-1 if card is None else _rank(card) for card in state.spikes),
            stock=tuple(_rank(card) for card in state.stock),
            top=WILD_TOP if top == WILD_MARK else _rank(top),
            wild_used=state.wild_used,
        )


class _OutOfBudget(Exception):
    pass


class _Search:
    """One pure-Python search (the compiled core's twin, native/spike.c)."""

    def __init__(self, position: SpikePosition, budget: Budget, started: float) -> None:
        self.ranks = position.ranks
        self.stock = position.stock
        rank_mask = [0] * RANKS_IN_A_CYCLE
        for place, rank in enumerate(position.ranks):
            if rank >= 0:
                rank_mask[rank] |= 1 << place
        self.rank_mask = tuple(rank_mask)
        neighbours = tuple(map(_neighbours, range(RANKS_IN_A_CYCLE)))
        self.neighbour_ranks = neighbours
        neighbour_mask = [rank_mask[up] | rank_mask[down] for up, down in neighbours]
        # What may be played on each top: a neighbour rank, or any card on the wild card.
        self.playable_on = (*neighbour_mask, (1 << SPIKE_CARDS) - 1)
        # The neighbours that may leave before each card (not those it covers itself).
        self.free_neighbours = tuple(
            0 if rank < 0 else neighbour_mask[rank] & ~_ABOVE_MASK[place]
            for place, rank in enumerate(position.ranks)
        )
        # For the first s stock cards (the ones still to come when s are left): their
        # ranks (a mask), the ranks with a neighbour among them (a mask), and their count
        # in each set of ranks (filled as asked).
        ranks_mask = [0]
        for rank in position.stock:
            ranks_mask.append(ranks_mask[-1] | 1 << rank)
        self.stock_ranks = tuple(ranks_mask)
        self.stock_neighbour_ranks = tuple(
            sum(
                1 << rank
                for rank, (up, down) in enumerate(neighbours)
                if mask >> up & 1 or mask >> down & 1
            )
            for mask in ranks_mask
        )
        self.stock_starts: dict[int, int] = {}
        self.lost: set[int] = set()
        self.older_lost: set[int] = set()
        self.line: list[int] = []
        self.nodes = 0
        self.max_nodes = budget.nodes
        self.deadline = budget.deadline(started)

    def run(self, position: SpikePosition) -> bool:
        remaining = sum(1 << place for place, rank in enumerate(self.ranks) if rank >= 0)
        exposed = sum(
            1 << place
            for place in range(SPIKE_CARDS)
            if remaining >> place & 1 and not remaining & _COVER_MASK[place]
        )
        present = 0
        for rank in self.ranks:
            if rank >= 0:
                present |= 1 << rank
        return self.search(
            remaining, exposed, present, len(self.stock), position.top, position.wild_used
        )

    def hopeless(
        self, remaining: int, exposed: int, present: int, stock: int, top: int, wild_used: bool
    ) -> bool:
        """Whether the chains cannot be started or the wild card is asked for more than
        it can give (see the module's docstring); ``present``: the ranks left on the
        spikes."""
        arcs = catchments(present)
        if len(arcs) > 1 and self.too_few_starts(arcs, stock, top, wild_used):
            return True
        # The ranks that no stock card can start; each one locked, or each card stranded,
        # asks for the wild card.
        lonely = present & ~self.stock_neighbour_ranks[stock]
        demands = 0
        met_now = False  # whether the one demand is an exposed card (for a wild on the waste)
        while lonely:
            bit = lonely & -lonely
            lonely ^= bit
            rank = bit.bit_length() - 1
            cards = remaining & self.rank_mask[rank]
            top_fits = top in self.neighbour_ranks[rank]
            stranded = 0
            shadow = 0  # the cards above this rank's cards
            while cards:
                low = cards & -cards
                cards ^= low
                place = low.bit_length() - 1
                shadow |= _ABOVE_MASK[place]
                if remaining & self.free_neighbours[place] or (top_fits and exposed & low):
                    continue
                stranded += 1
                met_now = bool(exposed & low)
            if stranded:
                demands += stranded
            else:
                cards = remaining & self.rank_mask[rank]
                if (top_fits and cards & exposed) or remaining & self.playable_on[rank] & ~shadow:
                    continue
                demands += 1
                met_now = bool(cards & exposed)
            if demands > 1:
                return True
        if not demands or not wild_used:
            return False
        return not (top == WILD_TOP and met_now)

    def too_few_starts(self, arcs: tuple[int, ...], stock: int, top: int, wild_used: bool) -> bool:
        """Whether the arcs of ranks left need more chain starts than there can be."""
        any_start = (top == WILD_TOP) + (not wild_used)  # the wild card, on the waste or not
        top_rank = 0 if top == WILD_TOP else 1 << top
        ranks_to_come = self.stock_ranks[stock]
        union = 0
        wild_only = 0
        for arc in arcs:
            union |= arc
            if not arc & (ranks_to_come | top_rank):
                wild_only += 1
        if wild_only > any_start:
            return True
        asked = union << 5 | stock
        starts = self.stock_starts.get(asked)
        if starts is None:
            starts = sum(union >> rank & 1 for rank in self.stock[:stock])
            self.stock_starts[asked] = starts
        return len(arcs) > starts + bool(union & top_rank) + any_start

    def search(
        self, remaining: int, exposed: int, present: int, stock: int, top: int, wild_used: bool
    ) -> bool:
        if not remaining:
            return True
        # The top matters only for which exposed cards it takes now: that set stands for it.
        key = remaining | stock << 28 | wild_used << 33 | (exposed & self.playable_on[top]) << 34
        if key in self.lost or key in self.older_lost:
            return False
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _OutOfBudget
        self.nodes += 1
        if (
            self.deadline is not None
            and self.nodes % _CLOCK_EVERY == 0
            and perf_counter() >= self.deadline
        ):
            raise _OutOfBudget
        if not self.hopeless(remaining, exposed, present, stock, top, wild_used):
            if self.plays(remaining, exposed, present, stock, top, wild_used):
                return True
            line = self.line
            if stock:
                line.append(DRAW_CODE)
                next_top = self.stock[stock - 1]
                if self.search(remaining, exposed, present, stock - 1, next_top, wild_used):
                    return True
                line.pop()
            if not wild_used:
                line.append(WILD_CODE)
                if self.search(remaining, exposed, present, stock, WILD_TOP, True):
                    return True
                line.pop()
        self.lost.add(key)
        if len(self.lost) >= TT_CAPACITY:
            self.older_lost = self.lost
            self.lost = set()
        return False

    def plays(
        self, remaining: int, exposed: int, present: int, stock: int, top: int, wild_used: bool
    ) -> bool:
        playable = exposed & self.playable_on[top]
        options = []
        while playable:
            low = playable & -playable
            playable ^= low
            place = low.bit_length() - 1
            left = remaining ^ low
            opened = 0
            for above in UNDER[place]:
                if left >> above & 1 and not left & _COVER_MASK[above]:
                    opened |= 1 << above
            height = (remaining & _SPIKE_MASK[_SPIKE_OF[place]]).bit_count()
            options.append((-opened.bit_count(), -height, place, left, (exposed ^ low) | opened))
        options.sort(key=lambda option: option[:2])  # stable: position order breaks ties
        line = self.line
        ranks = self.ranks
        rank_mask = self.rank_mask
        for _, _, place, left, now_exposed in options:
            rank = ranks[place]
            still = present if left & rank_mask[rank] else present & ~(1 << rank)
            line.append(place)
            if self.search(left, now_exposed, still, stock, rank, wild_used):
                return True
            line.pop()
        return False


def search_position(position: SpikePosition, budget: Budget) -> tuple[str, tuple[int, ...], int]:
    """The pure-Python search: the verdict, the line as move codes, the nodes expanded."""
    search = _Search(position, budget, perf_counter())
    try:
        won = search.run(position)
    except _OutOfBudget:
        return UNKNOWN, (), search.nodes
    return (WON if won else LOST), (tuple(search.line) if won else ()), search.nodes


_NATIVE_VERDICTS = {0: LOST, 1: WON, 2: UNKNOWN}
_NO_LIMIT_ABOVE = 1 << 62
"""A budget beyond this (ms: 146 million years) is no limit, and fits the core's 64 bits."""


def native_search_position(
    position: SpikePosition, budget: Budget
) -> tuple[str, tuple[int, ...], int]:
    """The compiled search, the same answers as ``search_position``."""
    if _native is None:
        raise EngineError("The compiled Spike solver is not built on this machine")
    code, line, nodes = _native(
        bytes(rank & 0xFF for rank in position.ranks),
        bytes(position.stock),
        position.top,
        position.wild_used,
        min(budget.nodes or 0, _NO_LIMIT_ABOVE),
        min(budget.ms or 0, _NO_LIMIT_ABOVE),
        TT_CAPACITY,
    )
    return _NATIVE_VERDICTS[code], tuple(line), nodes


def line_text(state: SpikeState, line: Sequence[int]) -> tuple[str, ...]:
    """A line of move codes in the notation."""
    moves = []
    for code in line:
        if code == DRAW_CODE:
            moves.append(DRAW)
        elif code == WILD_CODE:
            moves.append(WILD)
        else:
            moves.append(str(state.spikes[code]))
    return tuple(moves)


@register_solver
class SpikeSolver(Solver[SpikeState]):
    variant_key = "spike"
    difficulty_bounds = (42, 46, 50, 53)
    """Most deals are won without backtracking, the nodes then being the line's length
    (28 plays and the draws): bands 1 to 4 are deals won with fewer and fewer stock cards
    left, band 5 (from 53, one more than the longest line) the deals that needed search.
    Over bench-spike-0..999: 22%, 27%, 22%, 25% and 4%."""

    def search(self, variant: Variant[SpikeState], state: SpikeState, budget: Budget) -> Solution:
        return self._solve(state, budget, native=False)

    def native_available(self) -> bool:
        return _native is not None

    def native_search(
        self, variant: Variant[SpikeState], state: SpikeState, budget: Budget
    ) -> Solution:
        return self._solve(state, budget, native=True)

    @staticmethod
    def _solve(state: SpikeState, budget: Budget, *, native: bool) -> Solution:
        started = perf_counter()
        position = SpikePosition.of(state)
        run = native_search_position if native else search_position
        verdict, line, nodes = run(position, budget)
        return Solution(
            verdict=verdict,
            moves=line_text(state, line),
            nodes=nodes,
            ms=elapsed_ms(started),
            native=native,
        )
