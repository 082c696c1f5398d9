"""Reading a shared board (the Duel) for one of its players: the engine's public view
(face-up cards, counts of the others), whose turn it is, both seats' points, the
clocks, and — for the seat to move only — the moves it may make, as the page plays
them: a card to pick and the places that take it, the stock, the pass. Never a
face-down or stock card, the seed or the state."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from core import params
from games.engine import Move, card_name, format_move, rank_value, suit_of
from games.engine.notation import DRAW, FOUNDATION, PASS, RECYCLE, TRANSFER, WASTE
from games.templatetags.cards import SUIT_CLASSES, place_name
from games.variants import game_variant
from matches.models import Match, Seat
from matches.modes import match_mode
from matches.services.duel import shared_board_rules


@dataclass(frozen=True)
class DuelSeat:
    number: int
    username: str
    points: int
    is_you: bool
    to_move: bool


@dataclass(frozen=True)
class DuelMove:
    text: str
    """The move in the notation, as the form posts it."""
    kind: str
    label: str
    """What its button says; a transfer names its card and where from, as two decks may
    show the same card in two places."""


@dataclass(frozen=True)
class DuelTarget:
    place: str
    """Where the picked card goes, as the page names its places: a pile (`t3`), a
    reserve slot (`r2`) or a pillar (`S1`)."""
    move: str
    label: str


@dataclass(frozen=True)
class DuelSelection:
    """The card the player picked (`?sel=t3/2` without JavaScript) and where it may go."""

    key: str
    card: str
    name: str
    """The card as spoken ("7 of hearts")."""
    targets: list[DuelTarget]
    refusal: str | None
    """Why it can go nowhere, when it cannot."""

    @property
    def moves(self) -> dict[str, str]:
        """Each place that takes the card and the move that sends it there, as the
        boards' parts read a selection (games/parts/tableau.jinja)."""
        return {target.place: target.move for target in self.targets}


@dataclass(frozen=True)
class DuelBoard:
    match_id: UUID
    mode_name: str
    mode_key: str
    revision: int
    public: dict[str, Any]
    seats: list[DuelSeat]
    to_move: DuelSeat
    your_turn: bool
    moves: list[DuelMove]
    """The seat to move's moves but the pass, as a list (the page's compact fallback)."""
    move_map: dict[str, dict[str, str]]
    """For each unit that can move (`t3/2`, `w/1`, `r2/1`), the places that take it
    (piles, slots, the very pillars) and the move that sends it there: what duel.js
    lights up and posts, so that picking a card needs no request."""
    selectable: frozenset[str]
    """The units the seat to move may pick: every face-up card with those on it, as on
    every board (one that cannot move says why)."""
    selection: DuelSelection | None
    stock_move: DuelMove | None
    """The draw or the recycle, when the seat to move may make it."""
    pass_move: DuelMove | None
    active: bool
    turn_remaining_seconds: int | None
    match_remaining_seconds: int | None
    settled: bool
    winner: DuelSeat | None
    """Once the match is settled: the seat that won (None: a draw)."""

    @property
    def is_active(self) -> bool:
        """What the boards' parts ask before they make a card a link that picks it: on
        the shared board, only the seat to move picks."""
        return self.your_turn


def _remaining(deadline: datetime | None, now: datetime) -> int | None:
    return None if deadline is None else max(0, int((deadline - now).total_seconds()))


def _moved_card(public: dict[str, Any], src: str, count: int) -> str:
    """The face-up card heading the unit a transfer takes, read from the public view."""
    if src == WASTE:
        return str(public["waste"]["fan"][-1])
    if src.startswith("r"):
        return str(next(slot["card"] for slot in public["reserves"] if slot["slot"] == src))
    return str(public["tableau"][int(src[1:]) - 1]["up"][-count])


_LABELS = {
    PASS: "Pass",
    DRAW: "Draw a card",
    RECYCLE: "Turn the waste back into the stock",
}


def _label(public: dict[str, Any], move: Move) -> str:
    if move.kind in _LABELS:
        return _LABELS[move.kind]
    card = card_name(_moved_card(public, str(move.src), move.count))
    where = "a pillar" if move.dst == FOUNDATION else place_name(str(move.dst))
    cards = f" ({move.count} cards)" if move.count > 1 else ""
    return f"Move the {card}{cards} from {place_name(str(move.src))} to {where}"


def _duel_move(public: dict[str, Any], move: Move) -> DuelMove:
    return DuelMove(text=format_move(move), kind=move.kind, label=_label(public, move))


def _unit(move: Move) -> str:
    return f"{move.src}/{move.count}"


def _places(public: dict[str, Any], move: Move) -> list[str]:
    """The places on the page a transfer goes to: its pile or slot, or for `f` the
    pillars of its suit that take the card (the engine fills the first, and two pillars
    that both take it hold the same cards, so either may be tapped)."""
    if move.dst != FOUNDATION:
        return [str(move.dst)]
    card = _moved_card(public, str(move.src), move.count)
    return [
        pillar["pillar"]
        for pillar in public["pillars"]
        if pillar["suit"] == suit_of(card) and pillar["count"] == rank_value(card) - 1
    ]


def _move_map(public: dict[str, Any], legal: list[Move]) -> dict[str, dict[str, str]]:
    moves: dict[str, dict[str, str]] = {}
    for move in legal:
        if move.kind == TRANSFER:
            for place in _places(public, move):
                moves.setdefault(_unit(move), {})[place] = format_move(move)
    return moves


def _pickable_units(public: dict[str, Any]) -> set[str]:
    """Every face-up card with the cards on it (`t3/2`), the slots' and the waste's."""
    units = {
        f"t{number}/{depth}"
        for number, pile in enumerate(public["tableau"], start=1)
        for depth in range(1, len(pile["up"]) + 1)
    }
    units.update(f"{slot['slot']}/1" for slot in public["reserves"] if slot["card"])
    if public["waste"]["fan"]:
        units.add(f"{WASTE}/1")
    return units


def _target_label(public: dict[str, Any], card: str, place: str) -> str:
    name = card_name(card)
    if place.startswith("t"):
        onto = public["tableau"][int(place[1:]) - 1]["up"]
        if onto:
            return f"Move the {name} onto the {card_name(onto[-1])}, {place_name(place)}"
        return f"Move the {name} to {place_name(place)}, empty"
    if place.startswith("r"):
        return f"Move the {name} to {place_name(place)}"
    top = next(pillar["top"] for pillar in public["pillars"] if pillar["pillar"] == place)
    if top:
        return f"Move the {name} onto the {card_name(top)}, {_pillar_name(place)}"
    return f"Move the {name} to {_pillar_name(place)}, empty"


def _pillar_name(place: str) -> str:
    """How a pillar is spoken and shown: `S2` is "spades pillar 2"."""
    return f"{SUIT_CLASSES[place[0]]} pillar {place[1:]}"


def _selection(
    public: dict[str, Any],
    key: str | None,
    move_map: dict[str, dict[str, str]],
    selectable: frozenset[str],
) -> DuelSelection | None:
    """The picked unit, when it is one the player may pick; anything else picks nothing."""
    parsed = params.selection(key)
    if parsed is None:
        return None
    source, count = parsed
    unit = f"{source}/{count}"
    if unit not in selectable:
        return None
    card = _moved_card(public, source, count)
    targets = [
        DuelTarget(place=place, move=move, label=_target_label(public, card, place))
        for place, move in move_map.get(unit, {}).items()
    ]
    name = card_name(card)
    refusal = None if targets else f"The {name} has nowhere to go on this turn"
    return DuelSelection(key=unit, card=card, name=name, targets=targets, refusal=refusal)


def duel_board_for_player(
    *, match_id: UUID, player: AbstractBaseUser, selected: str | None = None
) -> DuelBoard:
    """The shared board of a started shared-board match, for one of its seated players;
    anybody else, or a match without a shared board: Match.DoesNotExist. `selected` is
    the unit the player picked (`t3/2`), which only the seat to move can pick."""
    match = Match.objects.get(id=match_id, seats__player_id=player.pk)
    mode = match_mode(match.mode)
    seats = list(match.seats.select_related("player", "game").order_by("number"))
    game = seats[0].game if seats else None
    if mode is None or not mode.shared_board or game is None:
        raise Match.DoesNotExist
    variant = game_variant(game)
    state = variant.load(game.state)
    rules = shared_board_rules(game)
    public = variant.public_view(state)
    points = rules.seat_scores(state)
    to_move_number = rules.seat_to_move(state)
    views = [
        DuelSeat(
            number=seat.number,
            username=seat.player.get_username(),
            points=points[seat.number],
            is_you=seat.player_id == player.pk,
            to_move=seat.number == to_move_number,
        )
        for seat in seats
    ]
    to_move = views[to_move_number]
    active = game.is_active and match.status == Match.Status.RUNNING
    your_turn = active and to_move.is_you
    legal = variant.legal_moves(state) if your_turn else []
    moves = [_duel_move(public, move) for move in legal]
    move_map = _move_map(public, legal)
    selectable = frozenset(_pickable_units(public) if your_turn else ())
    winner = next(
        (view for view, seat in zip(views, seats, strict=True) if seat.outcome == Seat.Outcome.WIN),
        None,
    )
    now = timezone.now()
    return DuelBoard(
        match_id=match.id,
        mode_name=mode.name,
        mode_key=mode.key,
        revision=game.revision,
        public=public,
        seats=views,
        to_move=to_move,
        your_turn=your_turn,
        moves=[move for move in moves if move.kind != PASS],
        move_map=move_map,
        selectable=selectable,
        selection=_selection(public, selected, move_map, selectable),
        stock_move=next((move for move in moves if move.kind in (DRAW, RECYCLE)), None),
        pass_move=next((move for move in moves if move.kind == PASS), None),
        active=active,
        turn_remaining_seconds=_remaining(match.turn_deadline_at, now) if active else None,
        match_remaining_seconds=_remaining(match.deadline_at, now) if active else None,
        settled=match.status == Match.Status.FINISHED,
        winner=winner,
    )
