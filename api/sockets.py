"""The match socket's messages (api.consumers), in the API's own shapes: what a seated
player is sent when the socket opens, and how a message asking for an action on their
game is answered. Synchronous (the consumer runs them in its database thread) and thin:
each action is the API view's own `perform` (on a Duel, the board's
`duel_move_perform`), so the socket and the POST check, apply and refuse alike. The
messages carry the API's shapes in the API's names: a seat is a seat as
GET /matches/{id} shows it (matches.live.seat_data)."""

import json
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from rest_framework import exceptions

from api.authentication import user_of_session_token
from api.errors import ApiRefusal, refusal_body
from api.serializers.duel import DuelMoveRequestSerializer
from api.serializers.matches import match_body
from api.throttles import move_budget_spend
from api.views.actions import (
    AcceptLossView,
    ActionView,
    AutoCompleteView,
    FinishView,
    MoveView,
    TapView,
    UndoView,
)
from api.views.base import state_of
from api.views.duel import duel_board_body, duel_move_perform
from games import selectors as games
from matches import live, selectors

SOCKET_ACTIONS: dict[str, type[ActionView]] = {
    "move": MoveView,
    "tap": TapView,
    "undo": UndoView,
    "auto-complete": AutoCompleteView,
    "accept-loss": AcceptLossView,
    "finish": FinishView,
}
"""A message's `action` -> the API view whose POST it is."""

MESSAGE_MAX_LENGTH = 2_000
"""Characters: the longest action message is under 100."""


@dataclass(frozen=True)
class Hello:
    game_id: UUID | None
    shared_board: bool
    """The seats take turns on one board (the Duel): the actions are moves on it."""
    message: dict[str, Any]


def socket_hello(*, match_id: UUID, player: User) -> Hello | None:
    """The first message: the match as the player sees it and their own game (None
    before the match starts), or a Duel's board. None for a player with no seat in the
    match."""
    if not selectors.match_is_seated(match_id=match_id, player=player):
        return None
    greeting = _match_and_game(match_id, player)
    game_id = greeting["match"]["your_game_id"]
    return Hello(
        game_id=UUID(game_id) if game_id else None,
        shared_board=greeting["match"]["shared_board"],
        message={"type": "hello", **greeting},
    )


def socket_signed_in(*, token: str, player: AbstractBaseUser) -> User | None:
    """The socket's player as its session token signs them in now (their row as it
    is), as every request of theirs is read; None once the token's session has ended
    (signed out, a new password, the account disabled)."""
    user = user_of_session_token(token)
    return user if isinstance(user, User) and user.pk == player.pk else None


def socket_match(*, match_id: UUID, token: str, player: User) -> dict[str, Any] | None:
    """The match changed (it started or settled; a move on the Duel's shared board): as
    the player now sees it; None once the socket's sign-in has ended."""
    signed_in = socket_signed_in(token=token, player=player)
    if signed_in is None:
        return None
    return {"type": "match", **_match_and_game(match_id, signed_in)}


def _match_and_game(match_id: UUID, player: User) -> dict[str, Any]:
    """The match, the player's own game, and a started Duel's board as they see it."""
    view = selectors.match_for_viewer(match_id=match_id, viewer=player)
    match = match_body(view, username=player.get_username())
    game_id = match["your_game_id"]
    game = (
        state_of(games.game_for_player(game_id=UUID(game_id), player=player))
        if game_id is not None
        else None
    )
    started = any(seat.game_id is not None for seat in view.seats)
    duel = (
        duel_board_body(match_id=match_id, player=player) if view.shared_board and started else None
    )
    return {"match": match, "game": game, "duel": duel}


@dataclass(frozen=True)
class SocketAnswer:
    message: dict[str, Any]
    pushes: list[live.Push]
    """What the action pushes to the match's sockets, for the consumer to send from its
    event loop (matches.live.pushes_deferred)."""
    signed_out: bool = False
    """The socket's sign-in has ended: nothing was done, and the socket closes."""


def socket_action(
    *,
    match_id: UUID,
    game_id: UUID | None,
    shared_board: bool,
    token: str,
    player: User,
    text: str,
) -> SocketAnswer:
    """The answer to one message and the pushes its action made. Every message checks
    the socket's session token first, as a request is checked: the action is the
    player's as they are signed in now, or none at all."""
    signed_in = socket_signed_in(token=token, player=player)
    if signed_in is None:
        refusal = ApiRefusal(
            code="invalid_session_token",
            message="The session token names no live session: log in again.",
        )
        message = {"type": "refusal", "id": _tag_of(text), **refusal_body(refusal)}
        return SocketAnswer(message=message, pushes=[], signed_out=True)
    with live.pushes_deferred() as pushes:
        message = _answer(
            match_id=match_id,
            game_id=game_id,
            shared_board=shared_board,
            player=signed_in,
            text=text,
        )
    return SocketAnswer(message=message, pushes=pushes)


def _answer(
    *, match_id: UUID, game_id: UUID | None, shared_board: bool, player: User, text: str
) -> dict[str, Any]:
    """The answer to one message: {"type": "answer", "id", "game", "events"} (on a
    Duel {"type": "answer", "id", "duel"}) or, for a refusal, {"type": "refusal", "id",
    "status", "errors"[, "game"]}. `id` echoes the message's own, so a client can
    match answers to what it sent."""
    tag: Any = None
    try:
        message = _parsed(text)
        tag = message.get("id")
        # Refused, it carries the seat's game, as every refused action on it does (a
        # shared board is no game of the site).
        move_budget_spend(player=player, game_id=None if shared_board else game_id)
        action = message.get("action")
        fields = {k: v for k, v in message.items() if k not in ("id", "action")}
        if shared_board:
            body = _duel_action(match_id, player, action, fields)
        else:
            body = _game_action(match_id, game_id, player, action, fields)
    except exceptions.APIException as refusal:
        return {"type": "refusal", "id": tag, **refusal_body(refusal)}
    return {"type": "answer", "id": tag, **body}


def _game_action(
    match_id: UUID, game_id: UUID | None, player: User, action: Any, fields: dict[str, Any]
) -> dict[str, Any]:
    """An action on the player's own game of the match, as its POST /games/{id}/..."""
    view = SOCKET_ACTIONS.get(action) if isinstance(action, str) else None
    if view is None:
        raise ApiRefusal(
            code="malformed",
            message=f"Unknown action: send one of {', '.join(SOCKET_ACTIONS)}.",
            param="action",
        )
    if game_id is None:
        game_id = selectors.match_seat_game_id(match_id=match_id, player=player)
    if game_id is None:
        raise ApiRefusal(code="match_refused", message="The match has not started yet.")
    body = view.body(data=fields)
    body.is_valid(raise_exception=True)
    return view().perform(player, game_id, dict(body.validated_data))


def _duel_action(
    match_id: UUID, player: User, action: Any, fields: dict[str, Any]
) -> dict[str, Any]:
    """A move on the Duel's shared board, as POST /matches/{id}/duel/moves."""
    if action != "move":
        raise ApiRefusal(
            code="malformed",
            message='A Duel takes one action, move: a move in the notation, or "pass".',
            param="action",
        )
    body = DuelMoveRequestSerializer(data=fields)
    body.is_valid(raise_exception=True)
    return {"duel": duel_move_perform(match_id=match_id, player=player, data=body.validated_data)}


def _tag_of(text: str) -> Any:
    """The message's `id`, for a refusal made before the message is acted on."""
    try:
        return _parsed(text).get("id")
    except ApiRefusal:
        return None


def _parsed(text: str) -> dict[str, Any]:
    if len(text) > MESSAGE_MAX_LENGTH:
        raise ApiRefusal(code="malformed", message="That message is too long.")
    try:
        message = json.loads(text)
    except ValueError as unreadable:
        raise ApiRefusal(code="malformed", message="A message is one JSON object.") from unreadable
    if not isinstance(message, dict):
        raise ApiRefusal(code="malformed", message="A message is one JSON object.")
    return message
