"""Klondike, draw 3, as /work/shared/rulebooks/klondike.txt states it.

The rules that matter for reading this module: build down in alternating colours; a
face-up card or a valid face-up sequence moves as a unit; an empty pile takes only a King
(or a King-headed sequence); foundations go A to K by suit, one card at a time, and never
give a card back; the waste is turned back into the stock without a shuffle, the first
three times free and then for 20 points each time. The score is only that charge.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import (
    IS_RED,
    RANK_VALUE,
    SUIT_INDEX,
    SUITS,
    card_name,
    card_of,
    full_deck,
    is_card,
    suit_name,
    validate_deck,
)
from .errors import EngineError
from .layouts import SEVEN_PILES, deal_seven_piles
from .notation import (
    DRAW,
    FOUNDATION,
    FOUNDATION_SOURCES,
    MAX_COUNT,
    RECYCLE,
    RESERVE_PLACES,
    TABLEAU_PLACES,
    TRANSFER,
    WASTE,
    Move,
    format_move,
    parse_move,
)
from .registry import register
from .variant import Json, Step, Variant

DRAW_COUNT = 3
FREE_RECYCLES = 3
RECYCLE_CHARGE = 20
KING = 13
FULL_FOUNDATIONS = (KING,) * len(SUITS)
# The public view shows this many waste cards, the top one being the only movable one.
WASTE_FAN = 3

_PILE_INDEX = {place: index for index, place in enumerate(TABLEAU_PLACES)}
_DRAW_MOVE = Move(DRAW)
_RECYCLE_MOVE = Move(RECYCLE)
# Every transfer of the notation that Klondike knows, built once: legal_moves would
# otherwise create thousands of equal Move objects per game.
_TRANSFERS = {
    (src, dst, count): Move(TRANSFER, src, dst, count)
    for src in (WASTE, *TABLEAU_PLACES)
    for dst in (FOUNDATION, *TABLEAU_PLACES)
    for count in range(1, (MAX_COUNT if src in TABLEAU_PLACES else 1) + 1)
    if src != dst
}


@dataclass(frozen=True, slots=True)
class Pile:
    down: tuple[str, ...] = ()
    """Face-down cards, bottom first."""
    up: tuple[str, ...] = ()
    """Face-up cards, bottom first; the last one is the top of the pile."""


@dataclass(frozen=True, slots=True)
class KlondikeState:
    tableau: tuple[Pile, ...]
    foundations: tuple[int, ...]
    """How many cards each foundation holds, in suit order S, H, D, C."""
    stock: tuple[str, ...]
    """The last card is drawn first."""
    waste: tuple[str, ...] = ()
    """The last card is the top, the only movable one."""
    recycles: int = 0
    score: int = 0


def recycle_score(recycles: int) -> int:
    return -RECYCLE_CHARGE * max(0, recycles - FREE_RECYCLES)


def placement_problem(card: str, onto: str) -> str | None:
    """Why ``card`` cannot be built on ``onto`` in the tableau, or None if it can."""
    if RANK_VALUE[card] != RANK_VALUE[onto] - 1:
        return "a card goes only on a card one rank higher"
    if IS_RED[card] == IS_RED[onto]:
        return "colours must alternate"
    return None


def _builds_on(card: str, onto: str) -> bool:
    return RANK_VALUE[card] == RANK_VALUE[onto] - 1 and IS_RED[card] != IS_RED[onto]


# The two cards that can be built on each card: one rank lower, of the other colour.
_TAKES = {
    onto: tuple(card for card in full_deck() if _builds_on(card, onto)) for onto in full_deck()
}


def _run_length(up: tuple[str, ...]) -> int:
    """How many cards at the top of a face-up stack form a valid sequence."""
    length = 1 if up else 0
    while length < len(up) and _builds_on(up[-length], up[-length - 1]):
        length += 1
    return length


def _pile_number(index: int) -> int:
    return index + 1


@register
class Klondike(Variant[KlondikeState]):
    key = "klondike"
    name = "Klondike"

    def deal(
        self, deck: Sequence[str], options: Mapping[str, object] | None = None
    ) -> KlondikeState:
        self.normalize_options(options)
        layout = deal_seven_piles(validate_deck(deck))
        return KlondikeState(
            tableau=tuple(Pile(pile.down, (pile.top,)) for pile in layout.piles),
            foundations=(0,) * len(SUITS),
            stock=layout.stock,
        )

    # Moves

    def legal_moves(self, state: KlondikeState) -> list[Move]:
        """Foundation moves (waste, then piles from the left), then builds on each pile
        top from the left, then Kings to empty piles, then draw or recycle."""
        tableau = state.tableau
        foundations = state.foundations
        moves: list[Move] = []
        waste_card = state.waste[-1] if state.waste else None
        if (
            waste_card is not None
            and foundations[SUIT_INDEX[waste_card]] == RANK_VALUE[waste_card] - 1
        ):
            moves.append(_TRANSFERS[WASTE, FOUNDATION, 1])
        # Every card that can head a unit, with where it is and the unit's size. Looking
        # up the two cards each pile top takes is cheaper than trying every head on every
        # pile, and legal_moves is the engine's hottest path.
        heads: dict[str, tuple[str, int]] = {}
        kings: list[tuple[str, int]] = []
        tops: list[tuple[str, str]] = []
        empty: list[str] = []
        for place, pile in zip(TABLEAU_PLACES, tableau, strict=True):
            up = pile.up
            if not up:
                empty.append(place)
                continue
            top = up[-1]
            tops.append((place, top))
            if foundations[SUIT_INDEX[top]] == RANK_VALUE[top] - 1:
                moves.append(_TRANSFERS[place, FOUNDATION, 1])
            count = 1
            heads[top] = (place, 1)
            while count < len(up) and _builds_on(up[-count], up[-count - 1]):
                count += 1
                heads[up[-count]] = (place, count)
            if RANK_VALUE[up[-count]] == KING:
                kings.append((place, count))
        for target, top in tops:
            for card in _TAKES[top]:
                if card == waste_card:
                    moves.append(_TRANSFERS[WASTE, target, 1])
                elif card in heads:
                    source, count = heads[card]
                    moves.append(_TRANSFERS[source, target, count])
        for target in empty:
            if waste_card is not None and RANK_VALUE[waste_card] == KING:
                moves.append(_TRANSFERS[WASTE, target, 1])
            moves.extend(_TRANSFERS[source, target, count] for source, count in kings)
        if state.stock:
            moves.append(_DRAW_MOVE)
        elif state.waste:
            moves.append(_RECYCLE_MOVE)
        return moves

    def apply(self, state: KlondikeState, move: Move) -> Step[KlondikeState]:
        if state.foundations == FULL_FOUNDATIONS:
            raise EngineError("The game is already won: every card is on the foundations")
        kind = move.kind
        if kind == TRANSFER:
            return self._transfer(state, move)
        if kind == DRAW:
            return self._draw(state, move)
        if kind == RECYCLE:
            return self._recycle(state, move)
        raise self.unknown_move(move)

    def _draw(self, state: KlondikeState, move: Move) -> Step[KlondikeState]:
        stock = state.stock
        if not stock:
            if state.waste:
                raise EngineError("The stock is empty: recycle the waste to draw again")
            raise EngineError("The stock and the waste are both empty: there is nothing to draw")
        count = min(DRAW_COUNT, len(stock))
        # The stock's last card is drawn first and so lands lowest of the three.
        drawn = stock[: -count - 1 : -1]
        new_state = KlondikeState(
            state.tableau,
            state.foundations,
            stock[:-count],
            state.waste + drawn,
            state.recycles,
            state.score,
        )
        return Step(new_state, move, 0, drawn, False, False, {"move": DRAW, "cards": list(drawn)})

    def _recycle(self, state: KlondikeState, move: Move) -> Step[KlondikeState]:
        if state.stock:
            raise EngineError(
                "The stock still has cards: the waste is turned back only when the stock is empty"
            )
        if not state.waste:
            raise EngineError("There is nothing to recycle: the waste is empty")
        recycles = state.recycles + 1
        score = recycle_score(recycles)
        # Reversed, so the next pass draws the cards in the order the last pass did.
        new_state = KlondikeState(
            state.tableau, state.foundations, state.waste[::-1], (), recycles, score
        )
        return Step(new_state, move, score - state.score, (), False, False, {"move": RECYCLE})

    def _transfer(self, state: KlondikeState, move: Move) -> Step[KlondikeState]:
        src, dst, count = move.src, move.dst, move.count
        if (src, dst, count) not in _TRANSFERS:
            if src in RESERVE_PLACES or dst in RESERVE_PLACES:
                raise EngineError("Klondike has no reserve slots (r1-r4 belong to Steps)")
            if src in FOUNDATION_SOURCES:
                raise EngineError("Foundation cards never return to the tableau in Klondike")
            raise self.unknown_move(move)
        tableau = state.tableau
        foundations = state.foundations
        waste = state.waste
        revealed: tuple[str, ...] = ()
        source_index = _PILE_INDEX.get(str(src))
        if source_index is None:
            if not waste:
                raise EngineError("The waste is empty: draw from the stock first")
            cards: tuple[str, ...] = waste[-1:]
            waste = waste[:-1]
        else:
            cards, source_pile = self._lift(tableau[source_index], source_index, count)
            if source_pile.down and not source_pile.up:
                # A card left face down on top turns up by itself.
                revealed = source_pile.down[-1:]
                source_pile = Pile(source_pile.down[:-1], revealed)
        head = cards[0]
        if dst == FOUNDATION:
            if count != 1:
                raise EngineError("Only one card at a time goes to a foundation")
            suit = SUIT_INDEX[head]
            height = foundations[suit]
            if RANK_VALUE[head] != height + 1:
                raise EngineError(self._foundation_problem(head, height))
            foundations = (*foundations[:suit], height + 1, *foundations[suit + 1 :])
            if source_index is not None:
                tableau = _replace(tableau, source_index, source_pile)
        else:
            target_index = _PILE_INDEX[str(dst)]
            target = tableau[target_index]
            if target.up:
                onto = target.up[-1]
                problem = placement_problem(head, onto)
                if problem is not None:
                    raise EngineError(
                        f"The {card_name(head)} cannot go on the {card_name(onto)}: {problem}"
                    )
            elif RANK_VALUE[head] != KING:
                raise EngineError(
                    f"Pile {_pile_number(target_index)} is empty and takes only a King or a "
                    f"sequence headed by a King, not the {card_name(head)}"
                )
            piles = list(tableau)
            piles[target_index] = Pile(target.down, target.up + cards)
            if source_index is not None:
                piles[source_index] = source_pile
            tableau = tuple(piles)
        new_state = KlondikeState(
            tableau, foundations, state.stock, waste, state.recycles, state.score
        )
        record: Json = {
            "move": format_move(move),
            "cards": list(cards),
            "revealed": revealed[0] if revealed else None,
        }
        won = foundations == FULL_FOUNDATIONS
        return Step(new_state, move, 0, revealed, won, False, record)

    @staticmethod
    def _lift(pile: Pile, index: int, count: int) -> tuple[tuple[str, ...], Pile]:
        """The top ``count`` cards of a pile as a unit, and the pile without them."""
        up = pile.up
        number = _pile_number(index)
        if not up:
            raise EngineError(f"Pile {number} is empty")
        if count > len(up):
            raise EngineError(
                f"Pile {number} has only {len(up)} face-up card(s): face-down cards cannot be moved"
            )
        cards = up[-count:]
        for position in range(count - 1):
            lower, upper = cards[position], cards[position + 1]
            problem = placement_problem(upper, lower)
            if problem is not None:
                raise EngineError(
                    f"The top {count} cards of pile {number} are not a valid sequence: the "
                    f"{card_name(upper)} lies on the {card_name(lower)} and {problem}"
                )
        return cards, Pile(pile.down, up[:-count])

    @staticmethod
    def _foundation_problem(card: str, height: int) -> str:
        suit = card[1]
        if height == 0:
            wanted = f"starts with the {card_name(card_of(suit, 1))}"
        else:
            wanted = f"needs the {card_name(card_of(suit, height + 1))} next"
        return (
            f"The {card_name(card)} cannot go to its foundation: the {suit_name(suit)} "
            f"foundation {wanted}"
        )

    def undo(self, state: KlondikeState, record: Mapping[str, Any]) -> KlondikeState:
        move = _record_move(record)
        if move.kind == DRAW:
            drawn = _record_cards(record, "cards")
            if not drawn or len(drawn) > DRAW_COUNT or state.waste[-len(drawn) :] != drawn:
                raise _misfit()
            return KlondikeState(
                state.tableau,
                state.foundations,
                state.stock + drawn[::-1],
                state.waste[: -len(drawn)],
                state.recycles,
                state.score,
            )
        if move.kind == RECYCLE:
            if state.waste or not state.stock or state.recycles < 1:
                raise _misfit()
            recycles = state.recycles - 1
            return KlondikeState(
                state.tableau,
                state.foundations,
                (),
                state.stock[::-1],
                recycles,
                recycle_score(recycles),
            )
        if move.kind != TRANSFER:
            raise _misfit()
        return self._undo_transfer(state, move, record)

    @staticmethod
    def _undo_transfer(
        state: KlondikeState, move: Move, record: Mapping[str, Any]
    ) -> KlondikeState:
        cards = _record_cards(record, "cards")
        revealed = record.get("revealed")
        if len(cards) != move.count or not (revealed is None or is_card(revealed)):
            raise _misfit()
        piles = list(state.tableau)
        foundations = state.foundations
        waste = state.waste
        if move.dst == FOUNDATION:
            suit = SUIT_INDEX[cards[0]]
            if foundations[suit] != RANK_VALUE[cards[0]]:
                raise _misfit()
            foundations = (*foundations[:suit], foundations[suit] - 1, *foundations[suit + 1 :])
        elif move.dst in _PILE_INDEX:
            target_index = _PILE_INDEX[move.dst]
            target = piles[target_index]
            if target.up[-len(cards) :] != cards:
                raise _misfit()
            piles[target_index] = Pile(target.down, target.up[: -len(cards)])
        else:
            raise _misfit()
        if move.src == WASTE and revealed is None:
            waste = waste + cards
        elif move.src in _PILE_INDEX:
            source_index = _PILE_INDEX[move.src]
            source = piles[source_index]
            if revealed is None:
                piles[source_index] = Pile(source.down, source.up + cards)
            elif source.up == (revealed,):
                piles[source_index] = Pile((*source.down, revealed), cards)
            else:
                raise _misfit()
        else:
            raise _misfit()
        return KlondikeState(
            tuple(piles), foundations, state.stock, waste, state.recycles, state.score
        )

    # Status

    def is_won(self, state: KlondikeState) -> bool:
        return state.foundations == FULL_FOUNDATIONS

    def score(self, state: KlondikeState) -> int:
        return state.score

    # Helpers for the player

    def tap(self, state: KlondikeState, source: str, count: int = 1) -> Move | None:
        if not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise EngineError(f"A tap moves from 1 to {MAX_COUNT} cards, not {count!r}")
        if source in FOUNDATION_SOURCES:
            return None  # foundation cards never return
        if source == WASTE:
            if count != 1:
                raise EngineError("Only the top waste card can be tapped")
            if not state.waste:
                return None
            cards: tuple[str, ...] = state.waste[-1:]
            whole_pile = False
            source_index = None
        elif source in _PILE_INDEX:
            source_index = _PILE_INDEX[source]
            pile = state.tableau[source_index]
            if count > _run_length(pile.up):
                return None
            cards = pile.up[-count:]
            whole_pile = not pile.down and count == len(pile.up)
        elif source in RESERVE_PLACES:
            raise EngineError("Klondike has no reserve slots (r1-r4 belong to Steps)")
        else:
            raise EngineError(f"{source!r} is not a place to tap: use w or t1 to t7")
        head = cards[0]
        if count == 1 and state.foundations[SUIT_INDEX[head]] == RANK_VALUE[head] - 1:
            return _TRANSFERS[source, FOUNDATION, 1]
        for target, target_pile in enumerate(state.tableau):
            up = target_pile.up
            takes = _builds_on(head, up[-1]) if up else RANK_VALUE[head] == KING
            # Moving a whole King-headed pile into another empty pile changes nothing.
            if takes and target != source_index and not (whole_pile and not up):
                return _TRANSFERS[source, TABLEAU_PLACES[target], count]
        return None

    def auto_complete(self, state: KlondikeState) -> list[Move]:
        if not self._auto_complete_offered(state):
            return []
        moves = []
        while not self.is_won(state):
            move = next(
                (
                    _TRANSFERS[TABLEAU_PLACES[index], FOUNDATION, 1]
                    for index, pile in enumerate(state.tableau)
                    if pile.up
                    and state.foundations[SUIT_INDEX[pile.up[-1]]] == RANK_VALUE[pile.up[-1]] - 1
                ),
                None,
            )
            if move is None:  # only a hand-built position missing cards gets stuck
                return []
            state = self._transfer(state, move).state
            moves.append(move)
        return moves

    def _auto_complete_offered(self, state: KlondikeState) -> bool:
        # Offered only with every card face up and nothing left in the stock or waste.
        # With every pile a valid sequence, the lowest card not yet on the foundations is
        # always a top card that fits, so the foundation moves always finish the game.
        return (
            not state.stock
            and not state.waste
            and not self.is_won(state)
            and all(
                not pile.down and _run_length(pile.up) == len(pile.up) for pile in state.tableau
            )
        )

    # Views and storage

    def public_view(self, state: KlondikeState) -> Json:
        foundations = state.foundations
        return {
            "variant": self.key,
            "tableau": [{"down": len(pile.down), "up": list(pile.up)} for pile in state.tableau],
            "foundations": [
                {
                    "suit": suit,
                    "top": card_of(suit, height) if height else None,
                    "count": height,
                }
                for suit, height in zip(SUITS, foundations, strict=True)
            ],
            "stock": len(state.stock),
            "waste": {"count": len(state.waste), "fan": list(state.waste[-WASTE_FAN:])},
            "score": state.score,
            "recycles": state.recycles,
            "free_recycles_left": max(0, FREE_RECYCLES - state.recycles),
            "can_draw": bool(state.stock),
            "can_recycle": not state.stock and bool(state.waste),
            "auto_complete": self._auto_complete_offered(state),
            "cards_on_foundations": sum(foundations),
            "status": self.status(state),
        }

    def dump(self, state: KlondikeState) -> Json:
        return {
            "variant": self.key,
            "tableau": [{"down": list(pile.down), "up": list(pile.up)} for pile in state.tableau],
            "foundations": list(state.foundations),
            "stock": list(state.stock),
            "waste": list(state.waste),
            "recycles": state.recycles,
            "score": state.score,
        }

    def load(self, data: Mapping[str, Any]) -> KlondikeState:
        if not isinstance(data, Mapping):
            raise EngineError("A Klondike snapshot must be an object")
        expected = {"variant", "tableau", "foundations", "stock", "waste", "recycles", "score"}
        if set(data) != expected:
            raise EngineError(
                f"A Klondike snapshot has exactly the keys {', '.join(sorted(expected))}"
            )
        if data["variant"] != self.key:
            raise EngineError(f"Not a Klondike snapshot: variant {data['variant']!r}")
        tableau = _load_tableau(data["tableau"])
        foundations = _load_foundations(data["foundations"])
        stock = _load_cards(data["stock"], "the stock")
        waste = _load_cards(data["waste"], "the waste")
        recycles = data["recycles"]
        if not _is_count(recycles):
            raise EngineError("The recycle count must be a whole number from 0 up")
        if data["score"] != recycle_score(recycles):
            raise EngineError(
                f"The score must be {recycle_score(recycles)} after {recycles} recycles"
            )
        on_foundations = [
            card_of(suit, value)
            for suit, height in zip(SUITS, foundations, strict=True)
            for value in range(1, height + 1)
        ]
        in_play = [card for pile in tableau for card in pile.down + pile.up]
        present = in_play + list(stock) + list(waste) + on_foundations
        if sorted(present) != sorted(full_deck()):
            raise EngineError("A Klondike snapshot must hold each of the 52 cards exactly once")
        return KlondikeState(tableau, foundations, stock, waste, recycles, recycle_score(recycles))


def _replace(tableau: tuple[Pile, ...], index: int, pile: Pile) -> tuple[Pile, ...]:
    return (*tableau[:index], pile, *tableau[index + 1 :])


def _misfit() -> EngineError:
    return EngineError("This undo record does not fit the current state")


def _record_move(record: Mapping[str, Any]) -> Move:
    if not isinstance(record, Mapping) or not isinstance(record.get("move"), str):
        raise _misfit()
    try:
        return parse_move(record["move"])
    except EngineError:
        raise _misfit() from None


def _record_cards(record: Mapping[str, Any], key: str) -> tuple[str, ...]:
    cards = record.get(key)
    if not isinstance(cards, list) or not all(is_card(card) for card in cards):
        raise _misfit()
    return tuple(cards)


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _load_cards(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(is_card(card) for card in value):
        raise EngineError(f"{where.capitalize()} must be a list of card codes")
    return tuple(value)


def _load_foundations(value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != len(SUITS)
        or not all(_is_count(height) and height <= KING for height in value)
    ):
        raise EngineError("The foundations must be 4 heights from 0 to 13, in order S, H, D, C")
    return tuple(value)


def _load_tableau(value: object) -> tuple[Pile, ...]:
    if not isinstance(value, list) or len(value) != SEVEN_PILES:
        raise EngineError("The tableau must be a list of 7 piles")
    piles = []
    for number, pile in enumerate(value, start=1):
        if not isinstance(pile, Mapping) or set(pile) != {"down", "up"}:
            raise EngineError(f"Pile {number} must be an object with keys down and up")
        down = _load_cards(pile["down"], f"pile {number}'s face-down cards")
        up = _load_cards(pile["up"], f"pile {number}'s face-up cards")
        if down and not up:
            raise EngineError(f"Pile {number} has face-down cards but no face-up card on top")
        if _run_length(up) != len(up):
            raise EngineError(f"Pile {number}'s face-up cards are not a valid sequence")
        piles.append(Pile(down, up))
    return tuple(piles)
