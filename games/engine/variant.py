"""The interface every variant implements, and the result of applying a move."""

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from .errors import EngineError
from .notation import Move, format_move, parse_move
from .rng import shuffled_deck

StateT = TypeVar("StateT")

Json = dict[str, Any]
"""A JSON-serialisable object (str keys; values are JSON values)."""

IN_PROGRESS = "in_progress"
WON = "won"
LOST = "lost"


@dataclass(frozen=True, slots=True)
class Step(Generic[StateT]):
    """What applying one move did."""

    state: StateT
    """The state after the move; the state it was applied to is left untouched."""
    move: Move
    points: int
    """The change of score made by this move."""
    revealed: tuple[str, ...]
    """Cards that were face down before the move and are face up after it."""
    won: bool
    lost: bool
    undo: Json
    """A small JSON-serialisable record that, with ``state``, restores the state before
    the move exactly (see Variant.undo)."""
    events: tuple[str, ...] = ()
    """What the board may animate, in order: ``"run_removed:S"`` (Spiderette: a run of
    that suit left the table), ``"won"``, ``"lost"`` (the move ended the game). See
    docs/engine.md."""


_new = object.__new__
_SET_STATE, _SET_MOVE, _SET_POINTS, _SET_REVEALED, _SET_WON, _SET_LOST, _SET_UNDO, _SET_EVENTS = (
    Step.__dict__[name].__set__
    for name in ("state", "move", "points", "revealed", "won", "lost", "undo", "events")
)


def new_step(
    state: StateT,
    move: Move,
    points: int,
    revealed: tuple[str, ...],
    won: bool,
    lost: bool,
    undo: Json,
    events: tuple[str, ...] = (),
) -> Step[StateT]:
    """``Step(...)``, the same object, at about half the cost, for the hottest moves: the
    dataclass's frozen ``__init__`` sets each field through ``object.__setattr__`` by
    name, this through the slots' own setters."""
    step: Step[StateT] = _new(Step)
    _SET_STATE(step, state)
    _SET_MOVE(step, move)
    _SET_POINTS(step, points)
    _SET_REVEALED(step, revealed)
    _SET_WON(step, won)
    _SET_LOST(step, lost)
    _SET_UNDO(step, undo)
    _SET_EVENTS(step, events)
    return step


class Variant(ABC, Generic[StateT]):
    """The rules of one game. A variant is stateless: every hook takes the state it works
    on and returns a new one, so one instance serves every game."""

    key: ClassVar[str]
    name: ClassVar[str]
    rules_version: ClassVar[int]
    """Which version of the variant's rules this class implements, from 1. A change that
    can alter the outcome of a stored game (a scoring constant, a move gained or lost)
    is a new class with the next version, registered beside the old one: a game keeps
    the version it was dealt under (``get_variant(key, rules_version=...)``)."""

    goal_kinds: ClassVar[tuple[str, ...]] = ("win", "win_within", "win_without_undo")
    """The kinds of goal a daily challenge of this variant may set (goals.py)."""
    score_name: ClassVar[str] = "score"
    """What the variant's score is called, in a goal's words."""

    def normalize_options(self, options: Mapping[str, object] | None) -> Json:
        """The options in canonical form, or EngineError. By default a variant has no
        options, so only an empty object (or none at all) is accepted."""
        if options is None:
            return {}
        if not isinstance(options, Mapping):
            raise EngineError(f"Options must be an object, not {type(options).__name__}")
        if options:
            unknown = ", ".join(repr(key) for key in options)
            raise EngineError(f"{self.name} takes no options; unknown option(s): {unknown}")
        return {}

    def deck_of_seed(self, seed: str) -> tuple[str, ...]:
        """The deck in deal order that a seed gives this variant: one shuffled deck
        (``rng.shuffled_deck``); the Steps Duel shuffles two."""
        return shuffled_deck(seed)

    @abstractmethod
    def deal(self, deck: Sequence[str], options: Mapping[str, object] | None = None) -> StateT:
        """The starting state for a deck in deal order; EngineError on a bad deck or bad
        options."""

    @abstractmethod
    def legal_moves(self, state: StateT) -> list[Move]:
        """Every move that ``apply`` accepts in this state, in a stable order."""

    @abstractmethod
    def apply(self, state: StateT, move: Move) -> Step[StateT]:
        """The result of a move; EngineError, with the reason, if it is not legal."""

    def play(self, state: StateT, text: str) -> Step[StateT]:
        """Apply a move written in the notation."""
        return self.apply(state, parse_move(text))

    @abstractmethod
    def undo(self, state: StateT, record: Mapping[str, Any]) -> StateT:
        """The state before the step whose ``undo`` record this is and whose result is
        ``state``; EngineError if the record does not fit the state."""

    @abstractmethod
    def is_won(self, state: StateT) -> bool: ...

    def is_lost(self, state: StateT) -> bool:
        """Whether the rules end the game in a loss; variants the player finishes by hand
        never lose."""
        return False

    def status(self, state: StateT) -> str:
        if self.is_won(state):
            return WON
        if self.is_lost(state):
            return LOST
        return IN_PROGRESS

    @abstractmethod
    def score(self, state: StateT) -> int: ...

    def points(self, state: StateT) -> int | None:
        """A running figure kept beside the score, for variants whose rules have one
        (Steps: its action points); None for the others. The replay reports it as
        "points" when it is not None."""
        return None

    def final_score(self, state: StateT, elapsed_seconds: int) -> int:
        """The score a finished game ranks by, given the time it took on the server
        clock. Most variants rank by ``score``; a variant whose rules take time off
        (or add a time bonus) overrides this."""
        return self.score(state)

    def time_limit_seconds(self, state: StateT) -> int | None:
        """How long the game may last in seconds, bonus time included; None for no limit.
        The platform keeps the clock and closes the game when it runs out."""
        return None

    def is_ranked(self, options: Mapping[str, object]) -> bool:
        """Whether games with these options go on leaderboards."""
        return True

    @abstractmethod
    def public_view(self, state: StateT) -> Json:
        """What a player may see: only face-up cards and the sizes of hidden piles. This is
        the only form of a state that templates and APIs receive."""

    @abstractmethod
    def tap(self, state: StateT, source: str, count: int = 1) -> Move | None:
        """The move a tap on the top ``count`` cards of ``source`` makes, or None when
        nothing takes them."""

    @abstractmethod
    def tap_refusal(self, state: StateT, source: str, count: int = 1) -> str:
        """Why a tap on the top ``count`` cards of ``source`` moves nothing (``tap``
        gave None), for the player: what each place that could take them wants.
        Reads only what the public view shows."""

    @abstractmethod
    def auto_complete(self, state: StateT) -> list[Move]:
        """The moves that finish the game, or [] when auto-complete is not offered."""

    offers_safe_foundation_moves: ClassVar[bool] = False
    """Whether ``safe_foundation_moves`` can ever give a move, so that the platform reads
    the player's automatic-moves setting only for variants where it acts."""

    def safe_foundation_moves(self, state: StateT) -> list[Move]:
        """The moves to the foundations of cards the tableau can never need again, in
        order, each legal in the state the previous ones leave; [] when there is none.
        By default none: Spiderette and Spike have no foundations built up by suit."""
        return []

    @abstractmethod
    def hidden_cards(self, state: StateT) -> tuple[str, ...]:
        """The cards the public view does not show, place by place in a fixed order
        (each variant documents its own): face-down cards, the stock, and the cards of
        the waste below those the view shows. As a set they are the full deck less the
        cards the view shows; their places are the secret. Hints sample arrangements of
        them (hints.py)."""

    @abstractmethod
    def with_hidden_cards(self, state: StateT, cards: Sequence[str]) -> StateT:
        """The state with its hidden places refilled, in the order ``hidden_cards``
        lists them, from ``cards``: the same cards in any order, so every hidden place
        keeps its count and everything the public view shows stays as it is.
        EngineError when ``cards`` are not the hidden cards."""

    def _refill_check(self, state: StateT, cards: Sequence[str]) -> tuple[str, ...]:
        """``cards`` as a tuple, or EngineError when they are not the state's hidden
        cards in some order (for ``with_hidden_cards``)."""
        given = tuple(cards)
        if sorted(given) != sorted(self.hidden_cards(state)):
            raise EngineError(
                f"A {self.name} state's hidden places are refilled only with its own "
                f"{len(self.hidden_cards(state))} hidden cards, in any order"
            )
        return given

    @abstractmethod
    def dump(self, state: StateT) -> Json:
        """A full JSON-serialisable snapshot, hidden cards included, for the server only."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> StateT:
        """The state of a ``dump``; EngineError if the data is not a valid state."""

    def unknown_move(self, move: Move) -> EngineError:
        """The error for a move of the notation that this variant does not have."""
        return EngineError(f"{self.name} has no {format_move(move)!r} move")
