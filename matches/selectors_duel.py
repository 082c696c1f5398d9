"""Reading a shared board (the Duel) for one of its players: the engine's public view
(face-up cards, counts of the others), whose turn it is, both seats' points, the
clocks, and — for the seat to move only — the moves it may make. Never a face-down
or stock card, the seed or the state."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from games.engine import Move, card_name, format_move
from games.engine.notation import DRAW, FOUNDATION, PASS, RECYCLE, WASTE
from games.templatetags.cards import place_name
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
    active: bool
    turn_remaining_seconds: int | None
    match_remaining_seconds: int | None
    settled: bool
    winner: DuelSeat | None
    """Once the match is settled: the seat that won (None: a draw)."""


def _remaining(deadline: datetime | None, now: datetime) -> int | None:
    return None if deadline is None else max(0, int((deadline - now).total_seconds()))


def _moved_card(public: dict[str, Any], move: Move) -> str:
    """The face-up card a transfer takes, read from the public view."""
    src = str(move.src)
    if src == WASTE:
        return str(public["waste"]["fan"][-1])
    if src.startswith("r"):
        return str(next(slot["card"] for slot in public["reserves"] if slot["slot"] == src))
    return str(public["tableau"][int(src[1:]) - 1]["up"][-move.count])


_LABELS = {
    PASS: "Pass",
    DRAW: "Draw a card",
    RECYCLE: "Turn the waste back into the stock",
}


def _label(public: dict[str, Any], move: Move) -> str:
    if move.kind in _LABELS:
        return _LABELS[move.kind]
    card = card_name(_moved_card(public, move))
    where = "a pillar" if move.dst == FOUNDATION else place_name(str(move.dst))
    cards = f" ({move.count} cards)" if move.count > 1 else ""
    return f"Move the {card}{cards} from {place_name(str(move.src))} to {where}"


def _duel_move(public: dict[str, Any], move: Move) -> DuelMove:
    return DuelMove(text=format_move(move), kind=move.kind, label=_label(public, move))


def duel_board_for_player(*, match_id: UUID, player: AbstractBaseUser) -> DuelBoard:
    """The shared board of a started shared-board match, for one of its seated players;
    anybody else, or a match without a shared board: Match.DoesNotExist."""
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
    moves = [_duel_move(public, move) for move in variant.legal_moves(state)] if your_turn else []
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
        moves=moves,
        active=active,
        turn_remaining_seconds=_remaining(match.turn_deadline_at, now) if active else None,
        match_remaining_seconds=_remaining(match.deadline_at, now) if active else None,
        settled=match.status == Match.Status.FINISHED,
        winner=winner,
    )
