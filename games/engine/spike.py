"""Spike: five peaks of cards played one by one onto the waste, one rank up or down.

/work/shared/rulebooks/spike.txt, with the decisions of docs/rules/spike.md where the
rulebook is vague. What matters for reading this module:

- 28 cards in five pyramids of 2, 3, 4, 3 and 2 rows; row r of a spike holds r + 1 cards
  and each card is covered by the two cards just below it in its own spike. A card is
  exposed (and face up) when both are gone; the bottom rows start face up.
- An exposed card goes to the waste when its rank is one above or below the waste's top
  card, King and Ace being neighbours. ``draw`` turns a stock card onto the waste, the
  one-per-game wild card takes any exposed card.
- The streak counts the spike cards played since the last draw (in relaxed mode since the
  start); each card scores by its place in it. +1,000 per spike emptied, +500 per stock
  card left on a win. The platform takes the time off; the engine never sees a clock.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard, cast

from .cards import RANK_VALUE, card_name, full_deck, is_card, validate_deck
from .errors import EngineError
from .notation import DEAL, DRAW, PLAY, RECYCLE, TRANSFER, WILD, Move
from .records import check_snapshot, load_cards, misfit, record_move
from .registry import register
from .variant import Json, Step, Variant, new_step

# The modes, the deal option "mode" (stored with the game).
CLASSIC = "classic"
TIME_ATTACK = "time_attack"
RELAXED = "relaxed"


@dataclass(frozen=True, slots=True, kw_only=True)
class SpikeMode:
    """What a mode changes. The engine itself uses only ``draw_ends_streak`` and
    ``time_bonus``; the rest is for the platform, which keeps the clock."""

    key: str
    name: str
    draw_ends_streak: bool
    time_bonus: bool
    """Whether a card played at place 3 or later of the streak adds seconds to the clock."""
    clock_seconds: int | None
    """The time the game may last, or None for no limit."""
    points_per_second: int
    """What each elapsed second takes off the final score."""
    ranked: bool
    always_highlight: bool


MODES: dict[str, SpikeMode] = {
    CLASSIC: SpikeMode(
        key=CLASSIC,
        name="Classic Peak",
        draw_ends_streak=True,
        time_bonus=False,
        clock_seconds=None,
        points_per_second=2,
        ranked=True,
        always_highlight=False,
    ),
    TIME_ATTACK: SpikeMode(
        key=TIME_ATTACK,
        name="Avalanche Time Attack",
        draw_ends_streak=True,
        time_bonus=True,
        clock_seconds=120,
        points_per_second=2,
        ranked=True,
        always_highlight=False,
    ),
    RELAXED: SpikeMode(
        key=RELAXED,
        name="Relaxed Expedition",
        draw_ends_streak=False,
        time_bonus=False,
        clock_seconds=None,
        points_per_second=0,
        ranked=False,
        always_highlight=True,
    ),
}
DEFAULT_MODE = CLASSIC
MODE_OPTION = "mode"

# The layout: rows per spike, left to right (3 + 6 + 10 + 6 + 3 = 28 cards).
SPIKE_ROWS = (2, 3, 4, 3, 2)
SPIKE_COUNT = len(SPIKE_ROWS)

# The wild card inside a state's waste (and a snapshot's); never a card code, never public.
WILD_MARK = "WILD"

# The Summit ledger. A card's place in the streak picks its bracket: from this place on.
BRACKETS = (
    (8, "Avalanche Chain", 300),
    (5, "Summit Surge", 200),
    (3, "Ascent Streak", 150),
    (1, "Standard Play", 100),
)
SPIKE_BONUS = 1000
STOCK_BONUS = 500
TIME_BONUS_SECONDS = 2
TIME_BONUS_FROM_PLACE = 3
GOLD, SILVER, BRONZE = "gold", "silver", "bronze"
BRONZE_SPIKES = 3
GOLD_STOCK_ABOVE = 10

_RANKS_IN_A_CYCLE = 13
_DRAW_MOVE = Move(DRAW)
_WILD_MOVE = Move(WILD)
_PLAY_MOVES = {card: Move(PLAY, card=card) for card in full_deck()}


def _build_layout() -> tuple[
    tuple[tuple[int, int, int], ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[range, ...],
]:
    """Positions (spike, row, column) in deal order, the positions covering each one, the
    positions each one covers, and each spike's range of positions."""
    places: list[tuple[int, int, int]] = []
    spans = []
    for spike, rows in enumerate(SPIKE_ROWS):
        start = len(places)
        places.extend((spike, row, column) for row in range(rows) for column in range(row + 1))
        spans.append(range(start, len(places)))
    index = {place: number for number, place in enumerate(places)}
    covers = tuple(
        tuple(
            index[spike, row + 1, column + shift]
            for shift in (0, 1)
            if (spike, row + 1, column + shift) in index
        )
        for spike, row, column in places
    )
    under = tuple(
        tuple(
            index[spike, row - 1, column - shift]
            for shift in (1, 0)
            if (spike, row - 1, column - shift) in index
        )
        for spike, row, column in places
    )
    return tuple(places), covers, under, tuple(spans)


PLACES, COVERS, UNDER, SPIKE_SPANS = _build_layout()
"""PLACES[i] is (spike, row, column) of position i, all from 0; COVERS[i] the positions
that must be gone before position i is exposed; UNDER[i] the positions position i
covers; SPIKE_SPANS[k] the positions of spike k."""
SPIKE_CARDS = len(PLACES)
_UNCOVERS = tuple(
    tuple((above, next(c for c in COVERS[above] if c != position)) for above in UNDER[position])
    for position in range(SPIKE_CARDS)
)
"""For each position, each position it covers with that one's other cover (every card
but a top one is covered by two)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SpikeState:
    spikes: tuple[str | None, ...]
    """The 28 positions in deal order (see PLACES); None where the card is gone. Whether
    a card is face up follows from them: it is face up exactly when it is exposed."""
    stock: tuple[str, ...]
    """The last card is drawn next."""
    waste: tuple[str, ...]
    """The last one is the top; WILD_MARK stands for the wild card."""
    wild_used: bool = False
    streak: int = 0
    """Spike cards played since the last draw (relaxed mode: since the start)."""
    score: int = 0
    """Everything of the Summit ledger except the time deduction."""
    time_bonus_seconds: int = 0
    mode: str = DEFAULT_MODE


(
    _SET_SPIKES,
    _SET_STOCK,
    _SET_WASTE,
    _SET_WILD_USED,
    _SET_STREAK,
    _SET_SCORE,
    _SET_SECONDS,
    _SET_MODE,
) = (
    SpikeState.__dict__[name].__set__
    for name in (
        "spikes",
        "stock",
        "waste",
        "wild_used",
        "streak",
        "score",
        "time_bonus_seconds",
        "mode",
    )
)


def _spike_state(
    spikes: tuple[str | None, ...],
    stock: tuple[str, ...],
    waste: tuple[str, ...],
    wild_used: bool,
    streak: int,
    score: int,
    time_bonus_seconds: int,
    mode: str,
) -> SpikeState:
    """``SpikeState(...)``, the same object, at under half the cost, for the moves: the
    frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` by
    name, this through the slots' own setters."""
    state: SpikeState = object.__new__(SpikeState)
    _SET_SPIKES(state, spikes)
    _SET_STOCK(state, stock)
    _SET_WASTE(state, waste)
    _SET_WILD_USED(state, wild_used)
    _SET_STREAK(state, streak)
    _SET_SCORE(state, score)
    _SET_SECONDS(state, time_bonus_seconds)
    _SET_MODE(state, mode)
    return state


def bracket(place: int) -> tuple[str, int]:
    """The name and points of the bracket of a card played at this place (1, 2, ...) of
    the streak."""
    for start, name, points in BRACKETS:
        if place >= start:
            return name, points
    raise EngineError(f"A place in the streak starts at 1, not {place}")


def is_exposed(spikes: Sequence[str | None], position: int) -> bool:
    return spikes[position] is not None and all(spikes[cover] is None for cover in COVERS[position])


def spike_is_cleared(spikes: Sequence[str | None], spike: int) -> bool:
    span = SPIKE_SPANS[spike]
    return not any(spikes[span.start : span.stop])


def spikes_cleared(state: SpikeState) -> int:
    return _cleared_count(state.spikes)


def _cleared_count(spikes: Sequence[str | None]) -> int:
    return sum(spike_is_cleared(spikes, spike) for spike in range(SPIKE_COUNT))


def summit_badge(state: SpikeState) -> str | None:
    """The Summit badge the state earns: gold for all five spikes cleared with more than
    10 cards left in the stock, silver for all five, bronze for at least three."""
    cleared = spikes_cleared(state)
    if cleared == SPIKE_COUNT:
        return GOLD if len(state.stock) > GOLD_STOCK_ABOVE else SILVER
    return BRONZE if cleared >= BRONZE_SPIKES else None


def neighbours(card: str, onto: str) -> bool:
    """Whether the ranks are one apart, King and Ace being neighbours; suits never count."""
    return (RANK_VALUE[card] - RANK_VALUE[onto]) % _RANKS_IN_A_CYCLE in (1, _RANKS_IN_A_CYCLE - 1)


# The cards one rank above or below each card, King and Ace being neighbours.
_NEIGHBOURS = {
    top: frozenset(card for card in full_deck() if neighbours(card, top)) for top in full_deck()
}

# The moves that play a card onto each card: those of its neighbours.
_PLAYS_ONTO = {top: {card: _PLAY_MOVES[card] for card in _NEIGHBOURS[top]} for top in full_deck()}

Exposed = tuple[tuple[int, ...], tuple[str, ...]]
"""The exposed positions of a spikes tuple, in order, and their cards."""

_EXPOSED: dict[tuple[str | None, ...], Exposed] = {}
_EXPOSED_LIMIT = 4096
"""The exposed positions and cards of each spikes tuple met lately: legal moves are the
engine's hottest path, the spikes stay the same from draw to draw, and a play works out
those of the spikes it leaves from those it started from. Emptied when it grows past
this size (a 28-tuple and a few cards, about 600 bytes an entry)."""


def _exposed(spikes: tuple[str | None, ...]) -> Exposed:
    """The positions of the exposed cards, in order, and those cards."""
    exposed = _EXPOSED.get(spikes)
    if exposed is None:
        exposed = _remember(
            spikes,
            tuple(
                position
                for position, card in enumerate(spikes)
                if card is not None and is_exposed(spikes, position)
            ),
        )
    return exposed


def _remember(spikes: tuple[str | None, ...], positions: tuple[int, ...]) -> Exposed:
    if len(_EXPOSED) >= _EXPOSED_LIMIT:
        _EXPOSED.clear()
    # Exposed positions hold cards, never None.
    cards = cast(tuple[str, ...], tuple([spikes[position] for position in positions]))
    exposed = _EXPOSED[spikes] = (positions, cards)
    return exposed


def clear_caches() -> None:
    """Forget the exposed cards worked out so far (benchmarks start cold)."""
    _EXPOSED.clear()


def _playable(state: SpikeState) -> list[str]:
    """The exposed cards that may go on the waste's top now, in position order."""
    top = state.waste[-1]
    cards = _exposed(state.spikes)[1]
    if top == WILD_MARK:
        return list(cards)
    fit = _NEIGHBOURS[top]
    return [card for card in cards if card in fit]


def _won(spikes: Sequence[str | None]) -> bool:
    # Cards are non-empty strings and a position left is None.
    return not any(spikes)


_PLACE_POINTS = (0, *(bracket(place)[1] for place in range(1, BRACKETS[0][0] + 1)))
"""The points of a card played at each place of the streak (index 1 up), the last one
holding for every later place: ``bracket`` worked out once."""


def _play_points(
    place: int, mode: str, cleared: bool, won: bool, stock_left: int
) -> tuple[int, int]:
    """The points and bonus seconds earned by a card played at this place of the streak
    that ``cleared`` its spike (and ``won`` the game) with ``stock_left`` cards left in
    the stock."""
    points = _PLACE_POINTS[place] if place < len(_PLACE_POINTS) else _PLACE_POINTS[-1]
    if cleared:
        points += SPIKE_BONUS
    if won:
        points += STOCK_BONUS * stock_left
    earns_seconds = place >= TIME_BONUS_FROM_PLACE and MODES[mode].time_bonus
    return points, TIME_BONUS_SECONDS if earns_seconds else 0


def _play_outcome(spikes: tuple[str | None, ...], position: int) -> tuple[int, bool, bool]:
    """The spike of ``position``, whether it is cleared and whether every spike is, in
    ``spikes`` (after the card of ``position`` left)."""
    spike = PLACES[position][0]
    cleared = spike_is_cleared(spikes, spike)
    return spike, cleared, cleared and _won(spikes)


@register
class Spike(Variant[SpikeState]):
    key = "spike"
    name = "Spike"
    goal_kinds = (*Variant.goal_kinds, "spikes_cleared", "summit_badge", "streak_bracket", "score")
    score_name = "Summit ledger"
    rules_version = 1

    def normalize_options(self, options: Mapping[str, object] | None) -> Json:
        if options is None:
            return {MODE_OPTION: DEFAULT_MODE}
        if not isinstance(options, Mapping):
            raise EngineError(f"Options must be an object, not {type(options).__name__}")
        unknown = [key for key in options if key != MODE_OPTION]
        if unknown:
            raise EngineError(
                f"Spike takes only the option 'mode'; unknown option(s): "
                f"{', '.join(repr(key) for key in unknown)}"
            )
        mode = options.get(MODE_OPTION, DEFAULT_MODE)
        if not isinstance(mode, str) or mode not in MODES:
            raise EngineError(f"Spike's mode is classic, time_attack or relaxed, not {mode!r}")
        return {MODE_OPTION: mode}

    def deal(self, deck: Sequence[str], options: Mapping[str, object] | None = None) -> SpikeState:
        mode = self.normalize_options(options)[MODE_OPTION]
        cards = validate_deck(deck)
        # The stock is drawn from the end of the deck; its first card starts the waste.
        return SpikeState(
            spikes=cards[:SPIKE_CARDS],
            stock=cards[SPIKE_CARDS:-1],
            waste=cards[-1:],
            mode=mode,
        )

    # Moves

    def legal_moves(self, state: SpikeState) -> list[Move]:
        """Playable cards in position order (spikes from the left, rows from the top),
        then draw, then wild."""
        if _won(state.spikes):
            return []
        spikes = state.spikes
        exposed = _EXPOSED.get(spikes) or _exposed(spikes)
        cards = exposed[1]
        top = state.waste[-1]
        if top == WILD_MARK:
            moves = [_PLAY_MOVES[card] for card in cards]
        else:
            plays = _PLAYS_ONTO[top]
            moves = [plays[card] for card in cards if card in plays]
        if state.stock:
            moves.append(_DRAW_MOVE)
        if not state.wild_used:
            moves.append(_WILD_MOVE)
        return moves

    def apply(self, state: SpikeState, move: Move) -> Step[SpikeState]:
        if _won(state.spikes):
            raise EngineError("The game is already won: every spike is cleared")
        if self.is_lost(state):
            raise EngineError(f"The game is over: {_lost_reason(state)}")
        kind = move.kind
        if kind == PLAY:
            return self._play(state, move)
        if kind == DRAW:
            return self._draw(state, move)
        if kind == WILD:
            return self._wild(state, move)
        if kind == TRANSFER:
            raise EngineError(
                "Spike has no tableau piles, foundations or reserve slots: play an exposed "
                "spike card by its code (such as '9D'), draw or use the wild card"
            )
        if kind == RECYCLE:
            raise EngineError("Spike has no 'recycle' move: the stock is gone through once")
        if kind == DEAL:
            raise EngineError("Spike has no 'deal' move: draw turns the next stock card")
        raise self.unknown_move(move)

    def _play(self, state: SpikeState, move: Move) -> Step[SpikeState]:
        card = str(move.card)
        spikes = state.spikes
        try:
            position = spikes.index(card)
        except ValueError:
            position = -1
        exposed = _exposed(spikes)[0]
        # The same refusal for a covered card as for one not on the spikes at all, so
        # that a refusal never tells where a face-down card lies.
        if position not in exposed:
            raise EngineError(f"The {card_name(card)} is not an exposed spike card")
        top = state.waste[-1]
        if top != WILD_MARK and card not in _NEIGHBOURS[top]:
            raise EngineError(
                f"The {card_name(card)} cannot go on the {card_name(top)}: it must be one "
                "rank above or below"
            )
        spikes = (*spikes[:position], None, *spikes[position + 1 :])
        place = state.streak + 1
        spike, cleared, won = _play_outcome(spikes, position)
        points, seconds = _play_points(place, state.mode, cleared, won, len(state.stock))
        new_state = _spike_state(
            spikes,
            state.stock,
            (*state.waste, card),
            state.wild_used,
            place,
            state.score + points,
            state.time_bonus_seconds + seconds,
            state.mode,
        )
        # The cards it covered whose other cover is gone too turn up.
        turned = [above for above, other in _UNCOVERS[position] if spikes[other] is None]
        revealed = tuple([str(spikes[above]) for above in turned])
        # Only the card played leaves the exposed ones, and only those it covered join.
        left = list(exposed)
        left.remove(position)
        if turned:
            left += turned
            left.sort()
        _remember(spikes, tuple(left))
        events: tuple[str, ...] = (f"spike_cleared:{spike + 1}",) if cleared else ()
        lost = not won and self.is_lost(new_state)
        if won:
            events += ("won",)
        elif lost:
            events += ("lost",)
        record: Json = {"move": card, "position": position}
        return new_step(new_state, move, points, revealed, won, lost, record, events)

    def _draw(self, state: SpikeState, move: Move) -> Step[SpikeState]:
        if not state.stock:
            raise EngineError("The stock is empty: there is nothing left to draw")
        card = state.stock[-1]
        new_state = _spike_state(
            state.spikes,
            state.stock[:-1],
            (*state.waste, card),
            state.wild_used,
            0 if MODES[state.mode].draw_ends_streak else state.streak,
            state.score,
            state.time_bonus_seconds,
            state.mode,
        )
        lost = self.is_lost(new_state)
        record: Json = {"move": DRAW, "card": card, "streak": state.streak}
        return new_step(new_state, move, 0, (card,), False, lost, record, ("lost",) if lost else ())

    def _wild(self, state: SpikeState, move: Move) -> Step[SpikeState]:
        if state.waste[-1] == WILD_MARK:
            raise EngineError("The wild card is already on the waste")
        if state.wild_used:
            raise EngineError("The wild card has already been used: there is one per game")
        new_state = SpikeState(
            spikes=state.spikes,
            stock=state.stock,
            waste=(*state.waste, WILD_MARK),
            wild_used=True,
            streak=state.streak,
            score=state.score,
            time_bonus_seconds=state.time_bonus_seconds,
            mode=state.mode,
        )
        return Step(new_state, move, 0, (), False, False, {"move": WILD})

    def undo(self, state: SpikeState, record: Mapping[str, Any]) -> SpikeState:
        move = record_move(record)
        waste = state.waste
        # The waste's first card is the deal's, which no move put there.
        if len(waste) < 2:
            raise misfit()
        if move.kind == WILD:
            if set(record) != {"move"} or waste[-1] != WILD_MARK or not state.wild_used:
                raise misfit()
            return SpikeState(
                spikes=state.spikes,
                stock=state.stock,
                waste=waste[:-1],
                wild_used=False,
                streak=state.streak,
                score=state.score,
                time_bonus_seconds=state.time_bonus_seconds,
                mode=state.mode,
            )
        if move.kind == DRAW:
            return self._undo_draw(state, record)
        if move.kind != PLAY:
            raise misfit()
        position = record.get("position")
        card = move.card
        if (
            set(record) != {"move", "position"}
            or not isinstance(position, int)
            or isinstance(position, bool)
            or not 0 <= position < SPIKE_CARDS
            or state.spikes[position] is not None
            or waste[-1] != card
            or state.streak < 1
            or any(state.spikes[cover] is not None for cover in COVERS[position])
        ):
            raise misfit()
        _, cleared, won = _play_outcome(state.spikes, position)
        points, seconds = _play_points(state.streak, state.mode, cleared, won, len(state.stock))
        if state.score < points or state.time_bonus_seconds < seconds:
            raise misfit()
        spikes = state.spikes
        return SpikeState(
            spikes=(*spikes[:position], card, *spikes[position + 1 :]),
            stock=state.stock,
            waste=waste[:-1],
            wild_used=state.wild_used,
            streak=state.streak - 1,
            score=state.score - points,
            time_bonus_seconds=state.time_bonus_seconds - seconds,
            mode=state.mode,
        )

    @staticmethod
    def _undo_draw(state: SpikeState, record: Mapping[str, Any]) -> SpikeState:
        card = record.get("card")
        streak = record.get("streak")
        if (
            set(record) != {"move", "card", "streak"}
            or not is_card(card)
            or state.waste[-1] != card
            or not _is_count(streak)
            or (MODES[state.mode].draw_ends_streak and state.streak != 0)
            or (not MODES[state.mode].draw_ends_streak and state.streak != streak)
        ):
            raise misfit()
        return SpikeState(
            spikes=state.spikes,
            stock=(*state.stock, card),
            waste=state.waste[:-1],
            wild_used=state.wild_used,
            streak=streak,
            score=state.score,
            time_bonus_seconds=state.time_bonus_seconds,
            mode=state.mode,
        )

    # Status

    def is_won(self, state: SpikeState) -> bool:
        return _won(state.spikes)

    def is_lost(self, state: SpikeState) -> bool:
        return (
            not state.stock and state.wild_used and not _won(state.spikes) and not _playable(state)
        )

    def score(self, state: SpikeState) -> int:
        return state.score

    # Helpers for the player

    def tap(self, state: SpikeState, source: str, count: int = 1) -> Move | None:
        raise EngineError(self.tap_refusal(state, source, count))

    def tap_refusal(self, state: SpikeState, source: str, count: int = 1) -> str:
        return "Spike moves are played by choosing a card: there is nothing to tap"

    def auto_complete(self, state: SpikeState) -> list[Move]:
        return []

    # Views and storage

    def final_score(self, state: SpikeState, elapsed_seconds: int) -> int:
        return state.score - MODES[state.mode].points_per_second * max(0, elapsed_seconds)

    def time_limit_seconds(self, state: SpikeState) -> int | None:
        limit = MODES[state.mode].clock_seconds
        return None if limit is None else limit + state.time_bonus_seconds

    def is_ranked(self, options: Mapping[str, object]) -> bool:
        return MODES[str(self.normalize_options(options)[MODE_OPTION])].ranked

    def public_view(self, state: SpikeState) -> Json:
        spikes = state.spikes
        exposed = [is_exposed(spikes, position) for position in range(SPIKE_CARDS)]
        top = state.waste[-1] if state.waste else None
        status = self.status(state)
        over = status != "in_progress"
        place = state.streak + 1
        bracket_name, bracket_points = bracket(place)
        view_spikes = []
        for spike, span in enumerate(SPIKE_SPANS):
            rows: list[list[Json]] = [[] for _ in range(SPIKE_ROWS[spike])]
            for position in span:
                card = spikes[position]
                rows[PLACES[position][1]].append(
                    {
                        "card": card if exposed[position] else None,
                        "face_up": exposed[position],
                        "exposed": exposed[position],
                        "gone": card is None,
                    }
                )
            view_spikes.append(
                {
                    "index": spike + 1,
                    "rows": rows,
                    "cleared": spike_is_cleared(spikes, spike),
                }
            )
        return {
            "variant": self.key,
            "mode": state.mode,
            "spikes": view_spikes,
            "stock": len(state.stock),
            "waste": {
                "count": len(state.waste),
                "top": top if top is not None and top != WILD_MARK else None,
                "top_is_wild": top == WILD_MARK,
            },
            "wild": {"available": not state.wild_used},
            "streak": state.streak,
            "bracket": {"name": bracket_name, "points": bracket_points},
            "score": state.score,
            "spikes_cleared": spikes_cleared(state),
            "cards_on_spikes": sum(card is not None for card in spikes),
            "playable": [] if over else _playable(state),
            "time_bonus_seconds": state.time_bonus_seconds,
            "status": status,
            "lost_reason": _lost_reason(state) if status == "lost" else None,
            "badge": summit_badge(state),
        }

    def hidden_cards(self, state: SpikeState) -> tuple[str, ...]:
        """The spike cards not yet exposed (in position order), then the stock, then
        the waste's cards but its top card (bottom first; all of them when the wild
        card is on top, and never the wild card itself)."""
        spikes = state.spikes
        covered = tuple(
            card
            for position, card in enumerate(spikes)
            if card is not None and not is_exposed(spikes, position)
        )
        return covered + state.stock + _hidden_waste(state.waste)

    def with_hidden_cards(self, state: SpikeState, cards: Sequence[str]) -> SpikeState:
        given = iter(self._refill_check(state, cards))
        spikes = state.spikes
        refilled = tuple(
            next(given) if card is not None and not is_exposed(spikes, position) else card
            for position, card in enumerate(spikes)
        )
        stock = tuple(next(given) for _ in state.stock)
        top = len(state.waste) - 1  # the top card stays, as does the wild card
        waste = tuple(
            card if card == WILD_MARK or at == top else next(given)
            for at, card in enumerate(state.waste)
        )
        return SpikeState(
            spikes=refilled,
            stock=stock,
            waste=waste,
            wild_used=state.wild_used,
            streak=state.streak,
            score=state.score,
            time_bonus_seconds=state.time_bonus_seconds,
            mode=state.mode,
        )

    def dump(self, state: SpikeState) -> Json:
        return {
            "variant": self.key,
            "mode": state.mode,
            "spikes": list(state.spikes),
            "stock": list(state.stock),
            "waste": list(state.waste),
            "wild_used": state.wild_used,
            "streak": state.streak,
            "score": state.score,
            "time_bonus_seconds": state.time_bonus_seconds,
        }

    def load(self, data: Mapping[str, Any]) -> SpikeState:
        data = check_snapshot(data, self.name, self.key, _SNAPSHOT_KEYS)
        mode = data["mode"]
        if not isinstance(mode, str) or mode not in MODES:
            raise EngineError(f"Spike's mode is classic, time_attack or relaxed, not {mode!r}")
        spikes = _load_spikes(data["spikes"])
        stock = load_cards(data["stock"], "the stock")
        waste = _load_waste(data["waste"])
        wild_used = data["wild_used"]
        if not isinstance(wild_used, bool) or wild_used != (WILD_MARK in waste):
            raise EngineError("wild_used must be true exactly when the wild card is on the waste")
        present = [card for card in spikes if card is not None] + list(stock)
        present += [card for card in waste if card != WILD_MARK]
        if sorted(present) != sorted(full_deck()):
            raise EngineError("A Spike snapshot must hold each of the 52 cards exactly once")
        played = SPIKE_CARDS - sum(card is not None for card in spikes)
        streak, score, seconds = data["streak"], data["score"], data["time_bonus_seconds"]
        if not _is_count(streak) or streak > played:
            raise EngineError(
                f"The streak must be a whole number from 0 to {played}, the cards played"
            )
        # The score and the bonus seconds follow from the order the cards were played
        # in, which a snapshot does not hold, and from scoring figures that a version of
        # the rules may change: only their form is checked.
        if not _is_count(seconds) or (seconds and not MODES[mode].time_bonus):
            raise EngineError(
                "time_bonus_seconds must be a whole number of seconds, and 0 outside time_attack"
            )
        if not _is_count(score):
            raise EngineError("The score must be a whole number from 0 up")
        return SpikeState(
            spikes=spikes,
            stock=stock,
            waste=waste,
            wild_used=wild_used,
            streak=streak,
            score=score,
            time_bonus_seconds=seconds,
            mode=mode,
        )


_SNAPSHOT_KEYS = {
    "variant",
    "mode",
    "spikes",
    "stock",
    "waste",
    "wild_used",
    "streak",
    "score",
    "time_bonus_seconds",
}


def _hidden_waste(waste: tuple[str, ...]) -> tuple[str, ...]:
    """The waste's cards the public view does not show: all but a card on top."""
    below = waste[:-1] if waste and waste[-1] != WILD_MARK else waste
    return tuple(card for card in below if card != WILD_MARK)


def _lost_reason(state: SpikeState) -> str:
    top = state.waste[-1]
    return (
        "The stock is empty, the wild card is spent and no exposed card can go on the "
        f"{card_name(top)}"
    )


def _is_count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _load_spikes(value: object) -> tuple[str | None, ...]:
    if (
        not isinstance(value, list)
        or len(value) != SPIKE_CARDS
        or not all(card is None or is_card(card) for card in value)
    ):
        raise EngineError(
            f"The spikes must be a list of {SPIKE_CARDS} card codes or nulls, in deal order"
        )
    spikes = tuple(value)
    for position, card in enumerate(spikes):
        # Only an exposed card can leave, and nothing comes back but by undo.
        if card is None and any(spikes[cover] is not None for cover in COVERS[position]):
            spike, row, column = PLACES[position]
            raise EngineError(
                f"Spike {spike + 1} has lost the card at row {row + 1}, place {column + 1} "
                "while a card still covers it"
            )
    return spikes


def _load_waste(value: object) -> tuple[str, ...]:
    if (
        not isinstance(value, list)
        or not value
        or not is_card(value[0])
        or not all(is_card(card) or card == WILD_MARK for card in value)
        or value.count(WILD_MARK) > 1
    ):
        raise EngineError(
            "The waste must be a list of card codes, starting with a card, with the wild "
            f"card ({WILD_MARK!r}) at most once"
        )
    return tuple(value)
