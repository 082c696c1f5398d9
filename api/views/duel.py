"""The Head-to-Head Duel in the API: its shared board for one of its players, and a
move on it (the seat to move only), through the services of the web's duel page."""

from uuid import UUID

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


def _board(match_id: UUID, request: Request) -> dict[str, object]:
    try:
        board: DuelBoard = duel_board_for_player(match_id=match_id, player=player_of(request))
    except Match.DoesNotExist as missing:
        raise ApiRefusal(code="not_found", message="No such duel.") from missing
    return dict(DuelBoardSerializer(board).data)


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
        return Response(_board(match_id, request))


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
        try:
            services.duel_move_play(
                match_id=match_id,
                player=player_of(request),
                move=data["move"],
                revision=data["revision"],
            )
        except Match.DoesNotExist as missing:
            raise ApiRefusal(code="not_found", message="No such duel.") from missing
        except GameActionError as refusal:
            raise action_refusal(refusal, game=None) from refusal
        return Response(_board(match_id, request))
