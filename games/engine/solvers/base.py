"""What every solver answers, and the interface each game's solver implements.

A solver works on the full state, hidden cards included: it is for the server (certified
deals, the winnable pool, proofs of loss), never for a player's eyes. Hints use it on
arrangements of the unseen cards that the public view allows (hints.py), not on the real
one.
"""

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil
from time import perf_counter
from typing import ClassVar, Generic, TypeVar

from ..cards import RANK_VALUE, RANKS, SUIT_INDEX
from ..errors import EngineError
from ..notation import Move, format_move
from ..variant import Json, Variant

WON = "won"
LOST = "lost"
UNKNOWN = "unknown"
VERDICTS = (WON, LOST, UNKNOWN)

StateT = TypeVar("StateT")


@dataclass(frozen=True, slots=True, kw_only=True)
class Solution:
    """A solver's answer for one state."""

    verdict: str
    """``won`` (``moves`` wins), ``lost`` (every reachable position was searched and
    none wins) or ``unknown`` (the budget ran out first)."""
    moves: tuple[str, ...] = ()
    """The winning line in the notation, from the state solved; empty unless won."""
    nodes: int
    """Positions the search expanded: its effort, the same on every machine."""
    ms: int
    """Wall-clock milliseconds the search took."""
    native: bool = False
    """Whether the compiled search core answered (section "Two paths", docs/solvers.md)."""

    def as_json(self) -> Json:
        return {
            "verdict": self.verdict,
            "moves": list(self.moves),
            "nodes": self.nodes,
            "ms": self.ms,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Budget:
    """When a search gives up: after ``ms`` milliseconds or ``nodes`` expanded
    positions, whichever comes first; None is no limit of that kind."""

    ms: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        for name, value in (("ms", self.ms), ("nodes", self.nodes)):
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or value < 1
            ):
                raise EngineError(
                    f"A solver budget's {name} is a whole number from 1 up, not {value!r}"
                )

    def deadline(self, started: float) -> float | None:
        """The perf_counter() value at which the search must stop, or None."""
        return None if self.ms is None else started + self.ms / 1000

    def ms_left(self, started: float) -> int | None:
        """The whole milliseconds left of ``ms`` since ``started`` (a perf_counter()
        value), at least 1 (0 is "no limit" to some cores), or None: a compiled core's
        clock starts when it is called, and the solver's work before that counts too."""
        if self.ms is None:
            return None
        return max(1, ceil(self.ms - (perf_counter() - started) * 1000))


class Solver(ABC, Generic[StateT]):
    """The solver of one variant (all its options and rules versions that it knows).

    A subclass sets ``variant_key`` and implements ``search``; it may also offer a
    compiled core (``native_search``), which must give the same verdicts and only
    lines that replay to a win."""

    variant_key: ClassVar[str]
    difficulty_bounds: ClassVar[tuple[int, int, int, int]] = (1_000, 10_000, 100_000, 1_000_000)
    """Nodes at which a won deal's difficulty goes from band 1 (easy) to 2, 2 to 3, 3 to
    4 and 4 to 5 (hardest): each solver sets its own from its benchmark's spread."""

    def difficulty(self, solution: Solution) -> int:
        """1 (easy) to 5 (hardest), from the effort the search needed."""
        return 1 + sum(solution.nodes >= bound for bound in self.difficulty_bounds)

    @abstractmethod
    def search(self, variant: Variant[StateT], state: StateT, budget: Budget) -> Solution:
        """The pure-Python search."""

    def native_available(self) -> bool:
        """Whether the compiled core of this solver is built and loadable here."""
        return False

    def native_search(self, variant: Variant[StateT], state: StateT, budget: Budget) -> Solution:
        """The compiled search; only called when ``native_available()``."""
        raise EngineError(f"The {variant.name} solver has no compiled core")

    def solve(
        self,
        variant: Variant[StateT],
        state: StateT,
        *,
        budget: Budget | None = None,
        native: bool | None = None,
    ) -> Solution:
        """Solve ``state``: with the compiled core when it is available and ``native`` is
        not False, else in pure Python. ``native=True`` demands the core (EngineError when
        it is not built)."""
        budget = budget or Budget()
        return (
            self.native_search(variant, state, budget)
            if self.native_chosen(variant, native)
            else self.search(variant, state, budget)
        )

    def native_chosen(self, variant: Variant[StateT], native: bool | None) -> bool:
        """Whether a solve with this ``native`` takes the compiled core (as ``solve``
        says); EngineError when it is demanded and not built."""
        if native is None:
            return self.native_available()
        if native and not self.native_available():
            raise EngineError(f"The compiled {variant.name} solver is not built on this machine")
        return native

    def solve_recycling_at_most(
        self,
        variant: Variant[StateT],
        state: StateT,
        *,
        recycles: int,
        budget: Budget | None = None,
        native: bool | None = None,
    ) -> Solution | None:
        """Solve ``state`` for a win that turns the waste back at most ``recycles``
        more times: won with such a line, lost when no win keeps to the bound, unknown
        when the budget ran out or the search cannot tell. None where this solver
        cannot bound the recycles (the default; the games without a waste to recycle)."""
        return None


def card_number(card: str) -> int:
    """The card as a number from 0 to 51, suit by suit (S, H, D, C) and Ace to King
    within a suit: how the compiled cores and the searches hold cards."""
    return SUIT_INDEX[card] * len(RANKS) + RANK_VALUE[card] - 1


def elapsed_ms(started: float) -> int:
    return int((perf_counter() - started) * 1000)


def moves_text(moves: Sequence[Move | str]) -> tuple[str, ...]:
    """Moves as notation text, whether they came as Move objects or text already."""
    return tuple(move if isinstance(move, str) else format_move(move) for move in moves)
