"""Today's daily deals and playing one, a deal's leaderboard, and the weekly and
all-time tables of the games with a daily deal: the selectors and services of the
web's pages (leaderboards.views), in JSON."""

from datetime import date

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import ApiRefusal
from api.pagination import PAGE_PARAMETER, page_envelope, ranks_envelope
from api.serializers.community import (
    DailySerializer,
    DealLeaderboardSerializer,
    PeriodLeaderboardSerializer,
    period_row,
)
from api.serializers.games import GameStateSerializer
from api.views.base import player_of, state_of, viewer_of
from core import params
from games.engine import get_variant
from leaderboards import selectors, services
from leaderboards.models import DailyDeal, PeriodBest
from leaderboards.periods import period_start, today_utc


class DailyView(APIView):
    refusals = ()

    @extend_schema(
        operation_id="daily_get",
        summary="Today's daily deals with your entry on each, your streak, the next deals' time",
        responses={200: DailySerializer},
        tags=["daily"],
    )
    def get(self, request: Request) -> Response:
        player = player_of(request)
        today = today_utc()
        deals = services.daily_deals_ensure(day=today)
        daily = {
            "day": today,
            "deals": selectors.daily_overview(deals=deals, player=player),
            "streak": selectors.daily_streak(player=player, today=today),
            "seconds_to_next": selectors.seconds_to_next_deals(now=timezone.now()),
        }
        return Response(DailySerializer(daily).data)


def _deal_or_404(*, day: date | None, variant: str) -> DailyDeal:
    if day is not None:
        try:
            return services.daily_deal_for_day(day=day, variant=variant, today=today_utc())
        except DailyDeal.DoesNotExist:
            pass
    raise ApiRefusal(code="not_found", message=f"There is no daily deal of {variant!r} that day.")


class DailyPlayView(APIView):
    refusals = ("not_found",)

    @extend_schema(
        operation_id="daily_play",
        summary="Play today's deal: the first attempt is ranked, later ones practice",
        request=None,
        responses={201: GameStateSerializer},
        tags=["daily"],
    )
    def post(self, request: Request, variant: str) -> Response:
        deal = _deal_or_404(day=today_utc(), variant=variant)
        game = services.daily_deal_play(player=player_of(request), deal=deal)
        return Response(state_of(game), status=201)


class DealLeaderboardView(APIView):
    permission_classes = [AllowAny]
    refusals = ("not_found",)

    @extend_schema(
        operation_id="daily_leaderboard",
        summary="A daily deal's leaderboard, fifty a page, with your own row",
        parameters=[PAGE_PARAMETER],
        responses={200: DealLeaderboardSerializer},
        tags=["leaderboards"],
    )
    def get(self, request: Request, day: str, variant: str) -> Response:
        deal = _deal_or_404(day=params.iso_day(day), variant=variant)
        board = selectors.leaderboard_for_deal(
            deal=deal, page=params.page_number(request.query_params), viewer=viewer_of(request)
        )
        body = ranks_envelope(request, board)
        body |= {
            "day": deal.date,
            "variant": deal.variant,
            "name": get_variant(deal.variant).name,
            "certificate": selectors.deal_certificate(deal=deal, today=today_utc()),
        }
        return Response(DealLeaderboardSerializer(body).data)


class PeriodLeaderboardView(APIView):
    permission_classes = [AllowAny]
    refusals = ("not_found",)

    @extend_schema(
        operation_id="period_leaderboard",
        summary="A game's weekly or all-time table: each player's best daily result",
        parameters=[
            PAGE_PARAMETER,
            OpenApiParameter(
                "period",
                str,
                enum=PeriodBest.Period.values,
                description="This week's table (the default) or the all-time one.",
            ),
        ],
        responses={200: PeriodLeaderboardSerializer},
        tags=["leaderboards"],
    )
    def get(self, request: Request, variant: str) -> Response:
        if variant not in services.daily_deal_games():
            raise ApiRefusal(code="not_found", message=f"There is no daily deal of {variant!r}.")
        period = request.query_params.get("period", PeriodBest.Period.WEEK)
        if period not in PeriodBest.Period.values:
            raise ApiRefusal(
                code="malformed",
                message=f"The period is one of {', '.join(PeriodBest.Period.values)}.",
                param="period",
            )
        today = today_utc()
        services.period_rankings_refresh_on_read(variant=variant, period=period, today=today)
        viewer = viewer_of(request)
        table = selectors.period_leaderboard(
            variant=variant,
            period=period,
            today=today,
            page=params.page_number(request.query_params),
            viewer=viewer,
        )
        page = table.page
        body = page_envelope(
            request,
            number=page.number,
            num_pages=page.paginator.num_pages,
            count=page.paginator.count,
            results=[period_row(best, viewer=viewer) for best in page.object_list],
        )
        body |= {
            "viewer_row": None
            if table.viewer_row is None
            else period_row(table.viewer_row, viewer=viewer),
            "variant": variant,
            "name": get_variant(variant).name,
            "period": period,
            "period_start": period_start(period, today),
        }
        return Response(PeriodLeaderboardSerializer(body).data)
