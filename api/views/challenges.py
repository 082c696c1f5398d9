"""The daily challenges: a day's challenges, playing one, the month's calendar with
its stars and badge thresholds, an open proof and the monthly leaderboard: the
selectors and services of the web's challenges pages (challenges.views), in JSON. A
challenge's game is played through the game endpoints (/games/{id}/moves, ...)."""

from datetime import date

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import ApiRefusal
from api.pagination import PAGE_PARAMETER, ranks_envelope
from api.serializers.challenges import (
    ChallengeDaySerializer,
    ChallengeLeaderboardSerializer,
    ChallengeMonthSerializer,
    ChallengeProofSerializer,
    challenge_of,
    month_of_view,
    month_text,
    proof_of,
)
from api.serializers.games import GameStateSerializer
from api.views.base import player_of, state_of, viewer_of
from challenges import selectors, services
from challenges.errors import ChallengeRefused
from challenges.leaderboard import month_leaderboard
from challenges.models import Challenge
from challenges.proof import ProofClosed, challenge_proof_line
from core import params
from games import services as game_services
from leaderboards.periods import today_utc

MONTH_PARAMETER = OpenApiParameter(
    "month",
    str,
    description="The month, written YYYY-MM; this month by default. A month after this one "
    "is this one, as on the web.",
)


def _no_challenge() -> ApiRefusal:
    return ApiRefusal(code="not_found", message="There is no such challenge.")


def _month_asked(request: Request, *, latest: date) -> date:
    """The `month` asked for: this month (`latest`) when none is, held within the months
    the web shows (core.params); one written otherwise than YYYY-MM is refused."""
    month = params.year_month(request.query_params, latest=latest)
    if month is None:
        if request.query_params.get("month"):
            raise ApiRefusal(code="malformed", message="A month is written YYYY-MM.", param="month")
        return latest
    return month


class ChallengeDayView(APIView):
    permission_classes = [AllowAny]
    refusals = ("not_found",)

    @extend_schema(
        operation_id="challenges_day",
        summary="A day's challenges (today's by default): each game's easy, medium and hard "
        "goal, their stars and whether you completed them",
        parameters=[
            OpenApiParameter(
                "day",
                OpenApiTypes.DATE,
                description="The day, written YYYY-MM-DD; today (UTC) by default. A later "
                "day's challenges are not open yet (404).",
            )
        ],
        responses={200: ChallengeDaySerializer},
        tags=["challenges"],
    )
    def get(self, request: Request) -> Response:
        today = today_utc()
        asked = request.query_params.get("day")
        day = params.iso_day(asked) if asked else today
        if day is None:
            raise ApiRefusal(code="malformed", message="A day is written YYYY-MM-DD.", param="day")
        if not selectors.day_open(day=day, today=today):
            raise ApiRefusal(code="not_found", message="That day's challenges are not open yet.")
        viewer = viewer_of(request)
        entries = selectors.challenges_of_day(day=day, player=viewer, today=today)
        body = {
            "day": day,
            "today": today,
            "practice": selectors.day_practice(day=day, today=today),
            "making": services.challenges_day_making(day=day, today=today, listed=len(entries)),
            "challenges": [challenge_of(entry, signed_in=viewer is not None) for entry in entries],
        }
        return Response(ChallengeDaySerializer(body).data)


class ChallengePlayView(APIView):
    refusals = ("not_found", "challenge_refused")

    @extend_schema(
        operation_id="challenges_play",
        summary="Play a challenge: your game of it in progress, or a new deal of it with its goal",
        request=None,
        responses={201: GameStateSerializer},
        tags=["challenges"],
    )
    def post(self, request: Request, challenge_id: int) -> Response:
        try:
            game = services.challenge_play(
                player=player_of(request), challenge_id=challenge_id, today=today_utc()
            )
        except Challenge.DoesNotExist as missing:
            raise _no_challenge() from missing
        except ChallengeRefused as refused:
            raise ApiRefusal(code="challenge_refused", message=str(refused)) from refused
        # As the web's Play then the board it leads to: a clock run out closes the game.
        return Response(state_of(game_services.game_looked_at(game=game)), status=201)


class ChallengeMonthView(APIView):
    permission_classes = [AllowAny]
    refusals = ()

    @extend_schema(
        operation_id="challenges_month",
        summary="A month of challenges: its days with the challenges made and done, your "
        "stars, the badge thresholds and the stars to go",
        parameters=[MONTH_PARAMETER],
        responses={200: ChallengeMonthSerializer},
        tags=["challenges"],
    )
    def get(self, request: Request) -> Response:
        today = today_utc()
        month = _month_asked(request, latest=selectors.month_of(today))
        viewer = viewer_of(request)
        body = month_of_view(
            selectors.month_view(player=viewer, month=month, today=today),
            signed_in=viewer is not None,
            previous_month=selectors.previous_month(month),
            next_month=selectors.next_month_until(month, latest=today),
        )
        return Response(ChallengeMonthSerializer(body).data)


class ChallengeProofView(APIView):
    permission_classes = [AllowAny]
    refusals = ("not_found",)

    @extend_schema(
        operation_id="challenges_proof",
        summary="A challenge's proof, once it is open to you: every position of the "
        "solver's line to the move that meets the goal, as public views",
        responses={200: ChallengeProofSerializer},
        tags=["challenges"],
    )
    def get(self, request: Request, challenge_id: int) -> Response:
        viewer = viewer_of(request)
        try:
            proof = challenge_proof_line(
                challenge_id=challenge_id, player=viewer, today=today_utc()
            )
        except Challenge.DoesNotExist as missing:
            raise _no_challenge() from missing
        except ProofClosed as closed:
            raise ApiRefusal(code="not_found", message=f"{closed}.") from closed
        return Response(proof_of(proof, signed_in=viewer is not None))


class ChallengeLeaderboardView(APIView):
    permission_classes = [AllowAny]
    refusals = ()

    @extend_schema(
        operation_id="challenges_leaderboard",
        summary="A month's challenge leaderboard: players by stars, then the earlier last "
        "star, fifty a page, with your own row",
        parameters=[MONTH_PARAMETER, PAGE_PARAMETER],
        responses={200: ChallengeLeaderboardSerializer},
        tags=["challenges"],
    )
    def get(self, request: Request) -> Response:
        this_month = selectors.month_of(today_utc())
        month = _month_asked(request, latest=this_month)
        board = month_leaderboard(
            month=month, page=params.page_number(request.query_params), viewer=viewer_of(request)
        )
        body = ranks_envelope(request, board)
        following = selectors.next_month_until(month, latest=this_month)
        body |= {
            "month": month_text(month),
            "previous_month": month_text(selectors.previous_month(month)),
            "next_month": None if following is None else month_text(following),
        }
        return Response(ChallengeLeaderboardSerializer(body).data)
