"""The actions on a game, each a call to the service the web board's form calls:
move, tap, undo, hint, auto-complete, finish and accepting a loss. Every one carries
the revision it was made at; a refusal changes nothing and answers with the game."""

from collections.abc import Callable
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from api.errors import ApiRefusal, action_refusal
from api.serializers.actions import (
    ActionSerializer,
    ConfirmedActionSerializer,
    MoveSerializer,
    TapSerializer,
)
from api.serializers.games import (
    ActionResultSerializer,
    HintResultSerializer,
    MoveLogSerializer,
    game_state,
)
from api.throttles import GameThrottledMixin, MoveRateThrottle
from api.views.base import own_game, player_of, state_of, valid_data
from games import selectors, services
from games.errors import GameActionError
from games.models import Game

ACTION_REFUSALS = ("not_found", "stale_revision", "game_closed", "illegal_move", "throttled")


def _acted(player: User, game_id: UUID, act: Callable[[], Any]) -> Any:
    """Run the service; its refusal becomes the API's, with the game as it now is."""
    try:
        return act()
    except Game.DoesNotExist as missing:
        raise ApiRefusal(code="not_found", message="No such game.") from missing
    except GameActionError as refusal:
        try:
            game = selectors.game_for_player(game_id=game_id, player=player)
        except Game.DoesNotExist as missing:
            # A board the player may act on only elsewhere (the Duel's) is no game here.
            raise ApiRefusal(code="not_found", message="No such game.") from missing
        raise action_refusal(refusal, game=state_of(game)) from refusal


def action_result(outcome: services.ActionOutcome) -> dict[str, Any]:
    """An action's answer: the game after it and what happened."""
    board = selectors.game_board(game=outcome.game, state=outcome.state)
    return {"game": game_state(board), "events": list(outcome.events)}


class ActionView(GameThrottledMixin):
    """An action on a game. `perform` is the whole of it, its refusals raised as the
    API's: the view's POST and the match socket's messages (api.sockets) both call it."""

    throttle_classes = [MoveRateThrottle]
    refusals: tuple[str, ...] | dict[str, tuple[str, ...]] = ACTION_REFUSALS
    body: type[serializers.Serializer[Any]] = ActionSerializer

    def act(self, player: User, game_id: UUID, data: dict[str, Any]) -> Any:
        raise NotImplementedError

    def check(self, player: User, game_id: UUID, data: dict[str, Any]) -> None:
        """What an action asks before the service runs (nothing, but for finishing)."""

    def perform(self, player: User, game_id: UUID, data: dict[str, Any]) -> dict[str, Any]:
        self.check(player, game_id, data)
        return action_result(_acted(player, game_id, lambda: self.act(player, game_id, data)))

    def post(self, request: Request, game_id: UUID) -> Response:
        data = valid_data(self.body, request)
        return Response(self.perform(player_of(request), game_id, data))


Handler = Callable[..., Response]


REFUSED = (
    " A refusal changes nothing and carries the game as it now is: the rules refuse the "
    "action on this board (`422 illegal_move`, their reason in the message), it was made "
    "at an older revision (`409 stale_revision`), or the game is over (`409 game_closed`)."
)
ANSWERED = "The answer is the game after the action and what it made happen (`events`)."


def _action_schema(
    operation: str, summary: str, body: type[serializers.Serializer[Any]], description: str
) -> Callable[[Handler], Handler]:
    return extend_schema(
        operation_id=operation,
        summary=summary,
        description=f"{description} {ANSWERED}{REFUSED}",
        request=body,
        responses={200: ActionResultSerializer},
        tags=["play"],
    )


class MoveView(ActionView):
    """The game's moves: GET reads the log, POST plays one."""

    body = MoveSerializer
    refusals = {"GET": ("not_found",), "POST": ACTION_REFUSALS}

    def get_throttles(self) -> list[BaseThrottle]:
        """Reading the log is no action on the game."""
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(
        operation_id="game_moves_list",
        summary="The move log: the moves played, in the notation",
        description="The moves played, in the notation, the first first, at the game's "
        "`revision` (an undone move is taken out). No game state carries the log: it is "
        "here, when asked for.",
        responses={200: MoveLogSerializer},
        tags=["play"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = own_game(request, game_id)
        return Response({"revision": game.revision, "moves": list(game.move_log)})

    @_action_schema(
        "game_move",
        "Play a move in the notation",
        MoveSerializer,
        "Plays one move, written in the notation (docs/notation.md; `legal_moves` lists "
        "every legal one), at the revision the client's board shows.",
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        return super().post(request, game_id)

    def act(self, player: User, game_id: UUID, data: dict[str, Any]) -> Any:
        return services.game_move_play(
            game_id=game_id, player=player, move=data["move"], revision=data["revision"]
        )


class TapView(ActionView):
    body = TapSerializer

    @_action_schema(
        "game_tap",
        "Tap a card: it goes where the rules send it",
        TapSerializer,
        "The top `count` cards of `source` go where the rules send them, as a tap on the "
        "web board does; the message says why when nothing takes them.",
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        return super().post(request, game_id)

    def act(self, player: User, game_id: UUID, data: dict[str, Any]) -> Any:
        return services.game_card_tap(
            game_id=game_id,
            player=player,
            source=data["source"],
            count=data["count"],
            revision=data["revision"],
        )


class UndoView(ActionView):
    @_action_schema(
        "game_undo",
        "Take the last move back",
        ActionSerializer,
        "Takes the last move back (a game with an undo allowance spends one: `undos_left`).",
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        return super().post(request, game_id)

    def act(self, player: User, game_id: UUID, data: dict[str, Any]) -> Any:
        return services.game_move_undo(game_id=game_id, player=player, revision=data["revision"])


class AutoCompleteView(ActionView):
    @_action_schema(
        "game_auto_complete",
        "Auto-complete: every card home, once all are face up",
        ActionSerializer,
        "Sends every card to the foundations, when the table offers it (`public.auto_complete`).",
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        return super().post(request, game_id)

    def act(self, player: User, game_id: UUID, data: dict[str, Any]) -> Any:
        return services.game_auto_complete(
            game_id=game_id, player=player, revision=data["revision"]
        )


class AcceptLossView(ActionView):
    @_action_schema(
        "game_accept_loss",
        "Accept the loss of a lost position: the game closes as lost",
        ActionSerializer,
        "Closes a table the rules say is lost (`public.state` is `lost`) as lost, its "
        "result final.",
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        return super().post(request, game_id)

    def act(self, player: User, game_id: UUID, data: dict[str, Any]) -> Any:
        return services.game_loss_accept(game_id=game_id, player=player, revision=data["revision"])


class FinishView(ActionView):
    body = ConfirmedActionSerializer
    refusals = (*ACTION_REFUSALS, "confirmation_required")

    @_action_schema(
        "game_finish",
        "Finish: the result becomes final (without confirm=true this only asks)",
        ConfirmedActionSerializer,
        "Ends the game where it stands and makes its result final. Without `confirm: "
        "true` a game in progress is not ended: `409 confirmation_required`, with the game.",
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        return super().post(request, game_id)

    def check(self, player: User, game_id: UUID, data: dict[str, Any]) -> None:
        if data["confirm"]:
            return
        try:
            game = selectors.game_for_player(game_id=game_id, player=player)
        except Game.DoesNotExist as missing:
            raise ApiRefusal(code="not_found", message="No such game.") from missing
        if game.is_active and data["revision"] == game.revision:
            raise ApiRefusal(
                code="confirmation_required",
                message=(
                    "Finishing makes the result final and no action changes it after: "
                    "send confirm=true to finish."
                ),
                game=state_of(game),
            )

    def act(self, player: User, game_id: UUID, data: dict[str, Any]) -> Any:
        return services.game_finish(game_id=game_id, player=player, revision=data["revision"])


class HintView(GameThrottledMixin):
    throttle_classes = [MoveRateThrottle]
    refusals = ACTION_REFUSALS

    @extend_schema(
        operation_id="game_hint",
        summary="A hint: one move worth playing (counted on the game)",
        description="One move worth playing now, in the notation and in words; the game "
        "counts it (`hints_used`). A match's game takes no hint (`422 illegal_move`)." + REFUSED,
        request=ActionSerializer,
        responses={200: HintResultSerializer},
        tags=["play"],
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        data = valid_data(ActionSerializer, request)
        outcome = _acted(
            player_of(request),
            game_id,
            lambda: services.game_hint(
                game_id=game_id, player=player_of(request), revision=data["revision"]
            ),
        )
        return Response({"hint": outcome.shown, "game": state_of(outcome.game)})
