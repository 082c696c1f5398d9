"""The Citadel Layout Codex: the campaign, playing a scenario and a scenario's
leaderboard: the selectors and services of the web's Codex pages (codex.views), in
JSON. A scenario's game is played through the game endpoints (/games/{id}/moves, ...)."""

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import ApiRefusal
from api.pagination import PAGE_PARAMETER, ranks_envelope
from api.serializers.codex import CodexSerializer, ScenarioLeaderboardSerializer, codex_body
from api.serializers.games import GameStateSerializer
from api.views.base import player_of, state_of, viewer_of
from codex import selectors, services
from codex.leaderboard import scenario_leaderboard
from core import params
from games import services as game_services
from games.codex import codex_scenario
from games.engine.steps.codex import Scenario


class CodexView(APIView):
    permission_classes = [AllowAny]
    refusals = ()

    @extend_schema(
        operation_id="codex_get",
        summary="The Codex: four tiers of five scenarios, the rules, the Master Architect "
        "and your progress",
        responses={200: CodexSerializer},
        tags=["codex"],
    )
    def get(self, request: Request) -> Response:
        player = viewer_of(request)
        if player is not None:
            # A timed scenario whose clock ran out is over, not in progress.
            game_services.games_close_expired(player=player)
        body = codex_body(
            selectors.codex_campaign(player=player),
            reign=selectors.master_architect_reign(),
            signed_in=player is not None,
            in_progress=(
                {} if player is None else selectors.scenario_games_in_progress(player=player)
            ),
        )
        return Response(body)


def _no_scenario(key: str) -> ApiRefusal:
    return ApiRefusal(code="not_found", message=f"The Codex has no scenario {key!r}.")


def _scenario_or_404(key: str) -> Scenario:
    scenario = codex_scenario(key)
    if scenario is None:
        raise _no_scenario(key)
    return scenario


class ScenarioPlayView(APIView):
    refusals = ("not_found", "scenario_locked")

    @extend_schema(
        operation_id="codex_play",
        summary="Play a scenario: your game of it in progress, or a new deal of it",
        request=None,
        responses={201: GameStateSerializer},
        tags=["codex"],
    )
    def post(self, request: Request, key: str) -> Response:
        try:
            game = services.scenario_play(player=player_of(request), key=key)
        except services.ScenarioUnknown as missing:
            raise _no_scenario(key) from missing
        except services.ScenarioRefused as refused:
            raise ApiRefusal(code="scenario_locked", message=str(refused)) from refused
        # As the web's Play then the board it leads to: a clock run out closes the game.
        return Response(state_of(game_services.game_looked_at(game=game)), status=201)


class ScenarioLeaderboardView(APIView):
    permission_classes = [AllowAny]
    refusals = ("not_found",)

    @extend_schema(
        operation_id="codex_leaderboard",
        summary="A scenario's all-time leaderboard: each player's best game, fifty a page, "
        "with your own row",
        parameters=[PAGE_PARAMETER],
        responses={200: ScenarioLeaderboardSerializer},
        tags=["codex"],
    )
    def get(self, request: Request, key: str) -> Response:
        scenario = _scenario_or_404(key)
        board = scenario_leaderboard(
            key=scenario.key,
            page=params.page_number(request.query_params),
            viewer=viewer_of(request),
        )
        body = ranks_envelope(request, board)
        body |= {
            "key": scenario.key,
            "number": scenario.number,
            "name": scenario.name,
            "tier": scenario.tier,
            "par": scenario.par,
        }
        return Response(ScenarioLeaderboardSerializer(body).data)
