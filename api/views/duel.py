"""The Head-to-Head Duel in the API: its shared board for one of its players, and a
move on it (the seat to move only), through the services of the web's duel page."""

from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import ApiRefusal, action_refusal
from api.serializers.duel import DuelBoardSerializer, DuelMoveRequestSerializer
from api.throttles import MoveRateThrottle
from api.views.base import player_of, valid_data
from games.errors import GameActionError
from matches import services
from matches.models import Match
from matches.selectors_duel import DuelBoard, duel_board_for_player


def duel_board_body(*, match_id: UUID, player: User) -> dict[str, Any]:
    """The Duel's board as the player sees it (GET /matches/{id}/duel); anyone without a
    seat in it, or a match that is not a started Duel: 404."""
    try:
        board: DuelBoard = duel_board_for_player(match_id=match_id, player=player)
    except Match.DoesNotExist as missing:
        raise ApiRefusal(code="not_found", message="No such duel.") from missing
    return dict(DuelBoardSerializer(board).data)


def duel_move_perform(*, match_id: UUID, player: User, data: dict[str, Any]) -> dict[str, Any]:
    """A move on the board (DuelMoveRequestSerializer's data), its refusals raised as the
    API's; the board after it. The POST's and the match socket's (api.sockets)."""
    try:
        services.duel_move_play(
            match_id=match_id, player=player, move=data["move"], revision=data["revision"]
        )
    except Match.DoesNotExist as missing:
        raise ApiRefusal(code="not_found", message="No such duel.") from missing
    except GameActionError as refusal:
        raise action_refusal(refusal, game=None) from refusal
    return duel_board_body(match_id=match_id, player=player)


class DuelBoardView(APIView):
    refusals = ("not_found",)

    @extend_schema(
        operation_id="duel_get",
        summary="A Duel's shared board (for one of its two players)",
        responses={200: DuelBoardSerializer},
        tags=["matches"],
    )
    def get(self, request: Request, match_id: UUID) -> Response:
        # Whoever looks first passes a turn whose clock ran out, as the web page does.
        services.match_close_if_time_up(match_id=match_id)
        services.duel_turn_time_up(match_id=match_id)
        return Response(duel_board_body(match_id=match_id, player=player_of(request)))


class DuelMoveView(APIView):
    throttle_classes = [MoveRateThrottle]
    refusals = ("not_found", "stale_revision", "game_closed", "illegal_move", "throttled")

    @extend_schema(
        operation_id="duel_move",
        summary="Play a move on the Duel's shared board (on your turn)",
        request=DuelMoveRequestSerializer,
        responses={200: DuelBoardSerializer},
        tags=["matches"],
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        data = valid_data(DuelMoveRequestSerializer, request)
        return Response(duel_move_perform(match_id=match_id, player=player_of(request), data=data))
