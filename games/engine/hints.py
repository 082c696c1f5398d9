"""Hints that do not cheat: a suggested move from what the player can see.

A solver reads the whole state, face-down cards and stock included, so asking it about
the real game would tell the player where the hidden cards lie. A hint asks it about
other games instead: the cards the public view does not show (the full deck less the
cards it shows) are dealt at random into the hidden places (determinization), each such
arrangement is solved under a small budget, and the hint is the first move of the
winning lines that wins in the most arrangements. The random arrangements come from a
generator seeded by the public view alone, and everything after the deal of the first
arrangement reads only the arrangements, so two games that look the same to the player
get the same hint whatever lies underneath (docs/hints.md).

When no arrangement is won within the budget, the hint falls back to an order of moves
that reads only the public view: a card to a foundation (or a run completed), a move
that turns a card up, a Spike card played, the waste card onto the tableau, then a draw
or a deal, a recycle, and Spike's wild card. When every arrangement is proved lost, or
no move of that order is legal, the hint says that no move helps.
"""

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Any

from .cards import SUIT_INDEX, SUITS, card_name, card_of, full_deck
from .errors import EngineError
from .notation import (
    DEAL,
    DRAW,
    FOUNDATION,
    FOUNDATION_SOURCES,
    PLAY,
    RECYCLE,
    RESERVE_PLACES,
    TABLEAU_PLACES,
    TRANSFER,
    WASTE,
    WILD,
    Move,
    format_move,
    parse_move,
)
from .rng import Sha256CounterStream
from .solvers import LOST, WON, Budget, Solver, solver_for
from .variant import IN_PROGRESS, Variant

BUDGET_MS = 250
"""The whole hint's wall-clock budget: the server's 300 ms less room for the request."""
SAMPLES = 6
"""Arrangements of the unseen cards solved per hint."""
NODES_NATIVE = 5_000
NODES_PYTHON = 250
"""Positions each arrangement's search may expand, with the compiled core or in pure
Python: the budget that binds on this machine, so that the hint does not depend on the
machine's speed; the wall-clock budget only guards against a loaded server."""
MIN_SAMPLE_MS = 3
"""An arrangement is not started with less time than this left."""

RUN_REMOVED = "run_removed:"
"""Spiderette's event of a completed run leaving the table."""

SOLVER = "solver"
FALLBACK = "fallback"
NONE = "none"


@dataclass(frozen=True, slots=True, kw_only=True)
class Hint:
    """What a hint suggests, and why."""

    move: str | None
    """The suggested move in the notation, legal in the position; None when no move
    helps."""
    basis: str
    """``solver`` (the move wins in ``wins`` of ``samples`` arrangements), ``fallback``
    (no arrangement was won: the public order of moves chose it) or ``none``."""
    wins: int = 0
    samples: int = 0
    """Arrangements solved to the end of their budget."""
    lost: int = 0
    """Arrangements proved lost."""
    text: str
    """The hint for the player, one sentence."""
    ms: int = 0


def shown_cards(public: Mapping[str, Any]) -> frozenset[str]:
    """The cards a public view shows, for every game's view: the face-up tableau cards,
    the foundations' cards (each holds Ace up to its top), the waste cards it shows,
    the reserve slots' cards, Spiderette's removed runs and Spike's face-up cards."""
    shown: set[str] = set()
    for pile in public.get("tableau", ()):
        shown.update(pile["up"])
    for foundation in public.get("foundations", ()):
        shown.update(
            card_of(foundation["suit"], value) for value in range(1, foundation["count"] + 1)
        )
    waste = public.get("waste")
    if isinstance(waste, Mapping):
        shown.update(waste.get("fan", ()))
        if waste.get("top"):
            shown.add(waste["top"])
    for reserve in public.get("reserves", ()):
        if reserve["card"]:
            shown.add(reserve["card"])
    for suit in public.get("removed_runs", ()):
        shown.update(card_of(suit, value) for value in range(1, 14))
    for spike in public.get("spikes", ()):
        for row in spike["rows"]:
            shown.update(slot["card"] for slot in row if slot["face_up"] and slot["card"])
    return frozenset(shown)


def unseen_cards(public: Mapping[str, Any]) -> tuple[str, ...]:
    """The full deck less the cards the public view shows, in the deck's order."""
    shown = shown_cards(public)
    return tuple(card for card in full_deck() if card not in shown)


def canonical(value: object) -> str:
    """A canonical text of a JSON-like value (sorted keys), for seeding: the engine
    does not import json."""
    if isinstance(value, Mapping):
        items = sorted((str(key), canonical(item)) for key, item in value.items())
        return "{" + ",".join(f"{key!r}:{item}" for key, item in items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(canonical(item) for item in value) + "]"
    if value is None or isinstance(value, bool | int | str):
        return repr(value)
    raise EngineError(f"A public view holds only JSON values, not {type(value).__name__}")


def view_seed(public: Mapping[str, Any]) -> str:
    """The hint generator's seed: the SHA-256 of the public view's canonical text."""
    return hashlib.sha256(canonical(public).encode()).hexdigest()


def arrangements(unseen: Sequence[str], seed: str, count: int) -> list[tuple[str, ...]]:
    """``count`` shuffles of the unseen cards (Fisher-Yates, the deal's generator)."""
    stream = Sha256CounterStream(f"hint:{seed}")
    result = []
    for _ in range(count):
        cards = list(unseen)
        for i in range(len(cards) - 1, 0, -1):
            j = stream.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        result.append(tuple(cards))
    return result


def hint(
    variant: Variant[Any],
    state: Any,
    *,
    budget_ms: int = BUDGET_MS,
    samples: int = SAMPLES,
    nodes: int | None = None,
    solver: Solver[Any] | None = None,
    native: bool | None = None,
) -> Hint:
    """One suggested move for ``state`` from its public view (module docstring).
    ``solver`` defaults to the game's registered one; without one, the hint is the
    public order's. ``nodes`` is each arrangement's node budget (default: by path);
    ``native`` picks the solver's path as ``Solver.solve`` does."""
    started = perf_counter()
    deadline = started + budget_ms / 1000
    if variant.status(state) != IN_PROGRESS:
        return _done(None, NONE, "The game is over: there is no move to suggest.", started)
    public = variant.public_view(state)
    unseen = unseen_cards(public)
    if len(unseen) != len(variant.hidden_cards(state)):
        raise EngineError(f"The {variant.name} public view and hidden cards do not add up to 52")
    seed = view_seed(public)
    draws = arrangements(unseen, seed, max(1, samples))
    # From here on only arrangements are read: the first stands for the position.
    worlds = [variant.with_hidden_cards(state, cards) for cards in draws]
    base = worlds[0]
    legal = [format_move(move) for move in variant.legal_moves(base)]
    if not legal:
        return _done(None, NONE, "No move is legal in this position.", started)
    if len(legal) == 1:
        return _done(legal[0], FALLBACK, _text(variant, base, legal[0]), started)
    if solver is None:
        try:
            solver = solver_for(variant.key)
        except EngineError:
            solver = None
    wins: dict[str, int] = {}
    solved = lost = 0
    if solver is not None and samples > 0:
        if native is None:
            native = solver.native_available()
        per_sample = nodes if nodes is not None else NODES_NATIVE if native else NODES_PYTHON
        for world in worlds:
            left_ms = int((deadline - perf_counter()) * 1000)
            if left_ms < MIN_SAMPLE_MS:
                break
            try:
                solution = solver.solve(
                    variant, world, budget=Budget(ms=left_ms, nodes=per_sample), native=native
                )
            except EngineError:
                break  # a solver that does not take these options: the public order
            solved += 1
            if solution.verdict == WON and solution.moves and solution.moves[0] in legal:
                first = solution.moves[0]
                wins[first] = wins.get(first, 0) + 1
            elif solution.verdict == LOST:
                lost += 1
    if wins:
        # Most wins; on a tie the move the earlier arrangement won with (dict order).
        best = max(wins, key=lambda move: wins[move])
        count = wins[best]
        text = (
            f"{_text(variant, base, best)} (it wins in {count} of {solved} arrangements "
            "of the cards you cannot see)"
        )
        return _done(best, SOLVER, text, started, wins=count, samples=solved, lost=lost)
    if solved and lost == solved == len(worlds):
        return _done(
            None,
            NONE,
            "No move helps: every arrangement of the cards you cannot see that was tried is lost.",
            started,
            samples=solved,
            lost=lost,
        )
    move = fallback_move(variant, base, legal)
    if move is None:
        return _done(
            None,
            NONE,
            "No move helps: only moves that change nothing lasting are left.",
            started,
            samples=solved,
            lost=lost,
        )
    return _done(move, FALLBACK, _text(variant, base, move), started, samples=solved, lost=lost)


def fallback_move(variant: Variant[Any], state: Any, legal: Sequence[str]) -> str | None:
    """The first legal move of the public order (module docstring), or None. ``state``
    is an arrangement, never the real position."""
    best: tuple[int, int] | None = None
    choice = None
    for index, text in enumerate(legal):
        move = parse_move(text)
        rank = _fallback_rank(variant, state, move)
        if rank is not None and (best is None or (rank, index) < best):
            best, choice = (rank, index), text
    return choice


def _fallback_rank(variant: Variant[Any], state: Any, move: Move) -> int | None:
    kind = move.kind
    if kind == TRANSFER:
        if move.src in FOUNDATION_SOURCES:
            return None  # a card back from a foundation is a step back
        step = variant.apply(state, move)
        if move.dst == FOUNDATION or any(event.startswith(RUN_REMOVED) for event in step.events):
            return 0
        if step.revealed:
            return 1
        if move.src == WASTE and move.dst in TABLEAU_PLACES:
            return 3
        return None
    return {PLAY: 2, DRAW: 4, DEAL: 4, RECYCLE: 5, WILD: 6}.get(kind)


def describe_move(variant: Variant[Any], state: Any, text: str) -> str:
    """The move for the player, from what the position shows: "move the 7 of hearts
    onto the 8 of spades"."""
    move = parse_move(text)
    public = variant.public_view(state)
    kind = move.kind
    if kind == DRAW:
        return "draw from the stock"
    if kind == RECYCLE:
        return "turn the waste back into the stock"
    if kind == DEAL:
        return "deal a row from the stock"
    if kind == WILD:
        return "play the wild card onto the waste"
    if kind == PLAY:
        return f"play the {card_name(str(move.card))} onto the waste"
    src, dst, count = str(move.src), str(move.dst), move.count
    head = _card_at(public, src, count)
    what = (
        f"the {card_name(head)}"
        if count == 1
        else f"the {count} cards headed by the {card_name(head)}"
    )
    if dst == FOUNDATION:
        return f"move {what} to its foundation"
    if dst in RESERVE_PLACES:
        return f"put {what} in reserve slot {dst[1:]}"
    onto = public["tableau"][TABLEAU_PLACES.index(dst)]["up"]
    where = f"onto the {card_name(onto[-1])}" if onto else f"to the empty pile {dst[1:]}"
    if src in FOUNDATION_SOURCES:
        return f"take {what} back from its foundation {where}"
    return f"move {what} {where}"


def _card_at(public: Mapping[str, Any], src: str, count: int) -> str:
    if src == WASTE:
        return str(public["waste"]["fan"][-1])
    if src in TABLEAU_PLACES:
        return str(public["tableau"][TABLEAU_PLACES.index(src)]["up"][-count])
    if src in RESERVE_PLACES:
        return str(public["reserves"][RESERVE_PLACES.index(src)]["card"])
    suit = src[1:]
    return card_of(suit, public["foundations"][SUITS.index(suit)]["count"])


def hint_card_places(text: str, public: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """Where a hinted move starts and ends, for the board to mark: places of the
    notation ("t3", "w", "r1", "fH"; a foundation destination as "f" + the card's suit),
    "stock" for a draw, deal or recycle, "wild" for the wild card, and a Spike card's
    code for a play (which goes to "w")."""
    move = parse_move(text)
    if move.kind in (DRAW, DEAL, RECYCLE):
        return "stock", None
    if move.kind == WILD:
        return "wild", WASTE
    if move.kind == PLAY:
        return str(move.card), WASTE
    src = str(move.src)
    if move.dst == FOUNDATION:
        head = _card_at(public, src, 1)
        return src, FOUNDATION + SUITS[SUIT_INDEX[head]]
    return src, str(move.dst)


def _text(variant: Variant[Any], state: Any, move: str) -> str:
    described = describe_move(variant, state, move)
    return f"Hint: {described[0].upper()}{described[1:]}"


def _done(
    move: str | None,
    basis: str,
    text: str,
    started: float,
    *,
    wins: int = 0,
    samples: int = 0,
    lost: int = 0,
) -> Hint:
    ms = int((perf_counter() - started) * 1000)
    return Hint(move=move, basis=basis, wins=wins, samples=samples, lost=lost, text=text, ms=ms)
