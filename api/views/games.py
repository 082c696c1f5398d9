"""The games offered, starting and resuming a game, one game's state, the history."""

from typing import Any
from uuid import UUID

from django.core.paginator import Paginator
from django.urls import reverse
from django.utils.http import http_date, parse_etags
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from api import query
from api.errors import ApiRefusal, action_refusal
from api.pagination import PAGE_PARAMETER, PageSerializer, page_envelope
from api.serializers.actions import ConfirmSerializer, StartSerializer
from api.serializers.catalogue import (
    VariantSerializer,
    option_value_refusal,
    variant_description,
)
from api.serializers.games import (
    FiguresSerializer,
    GameStateSerializer,
    HistoryGameSerializer,
)
from api.throttles import GameThrottledMixin
from api.views.base import own_game, player_of, state_of, valid_data
from core import params
from games import selectors, services
from games.engine import EngineError
from games.errors import GameActionError
from games.models import Game
from games.specs import GameSpec, game_keys, game_spec, game_specs
from games.throttles import DealRateThrottle
from games.tracks import casual_track

HISTORY_PAGE_SIZE = 10


class VariantListView(APIView):
    permission_classes = [AllowAny]
    refusals = ()

    @extend_schema(
        operation_id="variants_list",
        summary="The games offered, with their deal options",
        responses={200: VariantSerializer(many=True)},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        return Response(
            [
                variant_description(
                    spec,
                    rules_url=request.build_absolute_uri(
                        reverse("games:rules", kwargs={"variant": spec.key})
                    ),
                )
                for spec in game_specs()
            ]
        )


def _spec_or_404(variant: str) -> GameSpec:
    spec = game_spec(variant)
    if spec is None:
        raise ApiRefusal(code="not_found", message=f"The site offers no game {variant!r}.")
    return spec


class ActiveGameView(APIView):
    refusals = ("not_found", "no_active_game")

    @extend_schema(
        operation_id="active_game_get",
        summary="Resume: the game of this kind in progress",
        responses={200: GameStateSerializer},
        tags=["games"],
    )
    def get(self, request: Request, variant: str) -> Response:
        spec = _spec_or_404(variant)
        active = selectors.game_active_for_player(player=player_of(request), variant=spec.key)
        if active is None:
            raise ApiRefusal(
                code="no_active_game",
                message=f"You have no {spec.name} game in progress: start one (POST /games).",
            )
        return Response(state_of(active))


def _options(spec: GameSpec, options: dict[str, Any]) -> dict[str, Any] | None:
    """The options as the game's form cleans them (each one left out takes its default),
    or None for the defaults; options the game does not have, and values not of the
    JSON type the option takes, are refused."""
    form_class = spec.options_form
    fields = form_class.base_fields if form_class is not None else {}
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise ApiRefusal(
            code="malformed",
            message=f"{spec.name} has no deal option {unknown[0]!r}.",
            param=f"options.{unknown[0]}",
        )
    for name, value in options.items():
        refusal = option_value_refusal(name, fields[name], value)
        if refusal is not None:
            raise ApiRefusal(code="malformed", message=refusal, param=f"options.{name}")
    if form_class is None or not options:
        return None
    form = form_class({**{name: field.initial for name, field in fields.items()}, **options})
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise ApiRefusal(code="malformed", message=str(errors[0]), param=f"options.{field}")
    return dict(form.cleaned_data)


class HistoryPageSerializer(PageSerializer):
    results = HistoryGameSerializer(many=True)
    figures = FiguresSerializer(
        help_text="The figures of the games listed (of one game: ?variant)."
    )


class GameCollectionView(APIView):
    refusals = {"POST": ("confirmation_required", "throttled")}

    def get_throttles(self) -> list[BaseThrottle]:
        """Dealing is throttled (games.throttles); reading the history is not."""
        return [DealRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="games_list",
        summary="The history: your games, newest first, ten a page, with their figures",
        parameters=[
            PAGE_PARAMETER,
            OpenApiParameter("variant", str, enum=list(game_keys()), description="One game only."),
        ],
        responses={200: HistoryPageSerializer},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        player = player_of(request)
        services.games_close_expired(player=player)
        variant = query.choice(request.query_params, "variant", game_keys())
        page = Paginator(
            selectors.game_history_for_player(player=player, variant=variant), HISTORY_PAGE_SIZE
        ).get_page(params.page_number(request.query_params))
        body = page_envelope(
            request,
            number=page.number,
            num_pages=page.paginator.num_pages,
            count=page.paginator.count,
            results=[HistoryGameSerializer(game).data for game in page.object_list],
        )
        stats = selectors.game_stats_for_player(player=player, variant=variant)
        body["figures"] = FiguresSerializer(stats).data
        return Response(body)

    @extend_schema(
        operation_id="game_start",
        summary="Deal a new game (abandons the one of its kind in progress, once confirmed)",
        request=StartSerializer,
        responses={201: GameStateSerializer},
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        data = valid_data(StartSerializer, request)
        spec = _spec_or_404(data["variant"])  # one of game_keys(), as the body's schema says
        player = player_of(request)
        options = _options(spec, data["options"])
        if not data["confirm"]:
            active = selectors.game_active_for_player(player=player, variant=spec.key)
            if active is not None:
                raise ApiRefusal(
                    code="confirmation_required",
                    message=(
                        f"Your {spec.name} game in progress would be abandoned: "
                        "send confirm=true to deal a new one."
                    ),
                    game=state_of(active),
                )
        try:
            game = services.game_start(
                player=player, variant=spec.key, track=casual_track(options=options)
            )
        except EngineError as refusal:
            raise ApiRefusal(code="malformed", message=str(refusal), param="options") from refusal
        return Response(state_of(game), status=201)


def _etag(game: Game) -> str:
    """Weak: the clock's seconds move on between two identical states. The review's hold
    on a closed game changes its state too (`review`)."""
    hold = f".{game.review_hold}" if game.review_hold else ""
    return f'W/"{game.revision}.{game.hints_used}.{game.status}{hold}"'


class GameDetailView(APIView):
    refusals = ("not_found",)

    @extend_schema(
        operation_id="game_get",
        summary="One game's state (send If-None-Match to poll: 304 while unchanged)",
        parameters=[
            OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER, required=False),
        ],
        responses={200: GameStateSerializer, 304: None},
        tags=["games"],
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = own_game(request, game_id)
        game = services.game_looked_at(game=game)
        etag = _etag(game)
        headers = {
            "ETag": etag,
            "Last-Modified": http_date(game.last_action_at.timestamp()),
            "Cache-Control": "private, no-cache",
        }
        if etag in parse_etags(request.headers.get("If-None-Match", "")):
            return Response(status=304, headers=headers)
        return Response(state_of(game), headers=headers)


class RestartView(GameThrottledMixin):
    throttle_classes = [DealRateThrottle]
    refusals = ("not_found", "confirmation_required", "illegal_move", "throttled")

    @extend_schema(
        operation_id="game_restart",
        summary="Restart this deal: the same cards again (a practice game)",
        request=ConfirmSerializer,
        responses={201: GameStateSerializer},
        tags=["games"],
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        data = valid_data(ConfirmSerializer, request)
        game = own_game(request, game_id)
        if not data["confirm"]:
            active = selectors.game_active_on_track(
                player=player_of(request),
                variant=game.variant,
                track=game.track,
                ref=game.track_ref,
            )
            if active is not None:
                raise ApiRefusal(
                    code="confirmation_required",
                    message="The game in progress would be abandoned: send confirm=true.",
                    game=state_of(active),
                )
        try:
            restarted = services.game_restart(game_id=game_id, player=player_of(request))
        except Game.DoesNotExist as missing:
            raise ApiRefusal(code="not_found", message="No such game.") from missing
        except GameActionError as refusal:
            raise action_refusal(refusal, game=state_of(game)) from refusal
        return Response(state_of(restarted), status=201)
