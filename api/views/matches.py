"""Matches: the modes, the lobby, making, joining, leaving, starting and rematching a
match, the quick-match queue, the ratings and a player's match history: the services
and selectors of the web's match pages (matches.views), in JSON. A seat plays its own
game through the game endpoints (/games/{id}/moves, ...)."""

from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.core.paginator import Paginator
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import ApiRefusal
from api.pagination import PAGE_PARAMETER, page_envelope
from api.serializers.matches import (
    LobbySerializer,
    MatchCreateSerializer,
    MatchHistorySerializer,
    MatchJoinSerializer,
    MatchModeSerializer,
    MatchSerializer,
    PlayerRatingSerializer,
    QueueWaitingSerializer,
    RatingRowSerializer,
    RatingsLeaderboardSerializer,
    history_row,
    lobby_row,
    match_body,
)
from api.views.base import player_of, valid_data
from core import params
from core.compression import uncompressed
from matches import selectors, services
from matches.errors import MatchNotYours, MatchRefused
from matches.models import Match
from matches.modes import MatchMode, match_mode, match_mode_keys, match_modes
from players.selectors import profile_access
from players.views import USERNAME_MAX_LENGTH

LOBBY_PAGE_SIZE = 20
HISTORY_PAGE_SIZE = 10
# As the web's ratings page (matches.views.RATINGS_PAGE_SIZE).
RATINGS_PAGE_SIZE = 50

T = TypeVar("T")

INVITE_CODE_PARAMETER = OpenApiParameter(
    "code", str, description="A private match's invite code: it shows the match before joining."
)


def _served(act: Callable[[], T]) -> T:
    """Run the service; a match the player may not see is a 404, another player's
    action a 403, a refusal a 409."""
    try:
        return act()
    except Match.DoesNotExist as missing:
        raise ApiRefusal(code="not_found", message="No such match.") from missing
    except MatchNotYours as refusal:
        raise ApiRefusal(code="permission_denied", message=refusal.message) from refusal
    except MatchRefused as refusal:
        raise ApiRefusal(code="match_refused", message=refusal.message) from refusal


def _shown(request: Request, match_id: UUID, code: str | None = None) -> dict[str, Any]:
    """The match as the selector lets the player see it."""
    player = player_of(request)
    view = _served(
        lambda: selectors.match_for_viewer(match_id=match_id, viewer=player, invite_code=code)
    )
    return match_body(view, username=player.get_username())


def _require_seat(request: Request, match_id: UUID) -> None:
    """Leaving and starting are a seated player's: anyone else is told of no match."""
    if not selectors.match_is_seated(match_id=match_id, player=player_of(request)):
        raise ApiRefusal(code="not_found", message="No such match.")


def _mode_or_404(key: str) -> MatchMode:
    mode = match_mode(key)
    if mode is None:
        raise ApiRefusal(code="not_found", message=f"There is no match mode {key!r}.")
    return mode


class MatchModeListView(APIView):
    refusals = ()

    @extend_schema(
        operation_id="match_modes_list",
        summary="The match modes, each open to you or closed until its points table is out",
        responses={200: MatchModeSerializer(many=True)},
        tags=["matches"],
    )
    def get(self, request: Request) -> Response:
        player = player_of(request)
        queued = selectors.player_queue_modes(player=player)
        return Response(
            [
                MatchModeSerializer(
                    {
                        **mode.__dict__,
                        "is_open": services.mode_is_open(mode=mode, player=player),
                        "queued": mode.key in queued,
                    }
                ).data
                for mode in match_modes()
            ]
        )


class MatchCollectionView(APIView):
    refusals = ("match_refused",)

    @extend_schema(
        operation_id="match_lobby",
        summary="The lobby: open public matches, oldest first, and your current match",
        parameters=[
            PAGE_PARAMETER,
            OpenApiParameter("mode", str, enum=list(match_mode_keys()), description="One mode."),
        ],
        responses={200: LobbySerializer},
        tags=["matches"],
    )
    def get(self, request: Request) -> Response:
        player = player_of(request)
        # Without a worker nobody closes clocks or pairs the queues: a look does, as on the web.
        services.matches_close_expired()
        services.queue_pair_all_if_embedded()
        mode = params.choice(request.query_params, "mode", match_mode_keys(), default=None)
        page = Paginator(selectors.lobby_matches(mode=mode), LOBBY_PAGE_SIZE).get_page(
            params.page_number(request.query_params)
        )
        body = page_envelope(
            request,
            number=page.number,
            num_pages=page.paginator.num_pages,
            count=page.paginator.count,
            results=[lobby_row(match) for match in page.object_list],
        )
        current = selectors.match_current_for_player(player=player)
        body["current"] = None if current is None else _shown(request, current.id)
        body["queued"] = selectors.player_queue_modes(player=player)
        return Response(body)

    @extend_schema(
        operation_id="match_create",
        summary="Make a match: you take its first seat (private: joined by its invite code)",
        request=MatchCreateSerializer,
        responses={201: MatchSerializer},
        tags=["matches"],
    )
    def post(self, request: Request) -> Response:
        data = valid_data(MatchCreateSerializer, request)
        match = _served(
            lambda: services.match_create(
                player=player_of(request), mode=data["mode"], private=data["private"]
            )
        )
        return Response(_shown(request, match.id), status=201)


class MatchDetailView(APIView):
    refusals = ("not_found",)

    @extend_schema(
        operation_id="match_get",
        summary="A match: its seats' progress, its clock, its results (poll it while it runs)",
        parameters=[INVITE_CODE_PARAMETER],
        responses={200: MatchSerializer},
        tags=["matches"],
    )
    @uncompressed  # its invite code beside the ?code= it was asked with
    def get(self, request: Request, match_id: UUID) -> Response:
        # Without a worker nobody closed it at its deadline: whoever looks first does.
        services.match_close_if_time_up(match_id=match_id)
        return Response(_shown(request, match_id, request.query_params.get("code") or None))


class MatchJoinView(APIView):
    refusals = ("not_found", "match_refused")

    @extend_schema(
        operation_id="match_join",
        summary="Take a free seat (a private match with its code); the second seat starts a "
        "head-to-head match",
        request=MatchJoinSerializer,
        responses={200: MatchSerializer},
        tags=["matches"],
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        code = valid_data(MatchJoinSerializer, request).get("code") or None
        _served(
            lambda: services.match_join(
                player=player_of(request), match_id=match_id, invite_code=code
            )
        )
        return Response(_shown(request, match_id))


class MatchLeaveView(APIView):
    refusals = ("not_found", "match_refused")

    @extend_schema(
        operation_id="match_leave",
        summary="Leave a match before it starts (the last one out cancels it)",
        request=None,
        responses={204: None},
        tags=["matches"],
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        _require_seat(request, match_id)
        _served(lambda: services.match_leave(player=player_of(request), match_id=match_id))
        return Response(status=204)


class MatchStartView(APIView):
    refusals = ("not_found", "permission_denied", "match_refused")

    @extend_schema(
        operation_id="match_start",
        summary="Start your Sprint (its maker, once enough sit; a head-to-head match "
        "starts as its second seat is taken)",
        request=None,
        responses={200: MatchSerializer},
        tags=["matches"],
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        _require_seat(request, match_id)
        _served(lambda: services.match_start(player=player_of(request), match_id=match_id))
        return Response(_shown(request, match_id))


class MatchRematchView(APIView):
    refusals = ("not_found", "match_refused")

    @extend_schema(
        operation_id="match_rematch",
        summary="A rematch of a match over: a private match of the same mode (or the one "
        "another player of it asked for first)",
        request=None,
        responses={200: MatchSerializer},
        tags=["matches"],
    )
    def post(self, request: Request, match_id: UUID) -> Response:
        rematch = _served(
            lambda: services.match_rematch(player=player_of(request), match_id=match_id)
        )
        return Response(_shown(request, rematch.id))


class QueueView(APIView):
    refusals = ("not_found", "match_refused")

    @extend_schema(
        operation_id="match_queue_join",
        summary="Quick match: wait in the mode's queue; the match at once if an opponent waits",
        request=None,
        responses={200: MatchSerializer, 202: QueueWaitingSerializer},
        tags=["matches"],
    )
    def post(self, request: Request, mode: str) -> Response:
        key = _mode_or_404(mode).key
        match = _served(lambda: services.queue_join(player=player_of(request), mode=key))
        if match is None:
            return Response({"waiting": True}, status=202)
        return Response(_shown(request, match.id))

    @extend_schema(
        operation_id="match_queue_leave",
        summary="Stop waiting in the mode's quick-match queue",
        request=None,
        responses={204: None},
        tags=["matches"],
    )
    def delete(self, request: Request, mode: str) -> Response:
        services.queue_leave(player=player_of(request), mode=_mode_or_404(mode).key)
        return Response(status=204)


class RatingsView(APIView):
    permission_classes = [AllowAny]
    refusals = ("not_found",)

    @extend_schema(
        operation_id="match_ratings",
        summary="A mode's ratings, best first, fifty a page (a provisional rating is marked)",
        parameters=[PAGE_PARAMETER],
        responses={200: RatingsLeaderboardSerializer},
        tags=["matches"],
    )
    def get(self, request: Request, mode: str) -> Response:
        match_kind = _mode_or_404(mode)
        page = Paginator(
            range(selectors.ratings_count(mode=match_kind.key)), RATINGS_PAGE_SIZE
        ).get_page(params.page_number(request.query_params))
        rows = selectors.ratings_leaderboard(
            mode=match_kind.key, limit=RATINGS_PAGE_SIZE, offset=max(0, page.start_index() - 1)
        )
        body = page_envelope(
            request,
            number=page.number,
            num_pages=page.paginator.num_pages,
            count=page.paginator.count,
            results=[RatingRowSerializer(row).data for row in rows],
        )
        body |= {"mode": match_kind.key, "mode_name": match_kind.name}
        return Response(body)


class PlayerMatchesView(APIView):
    permission_classes = [AllowAny]
    refusals = ("not_found",)

    @extend_schema(
        operation_id="player_matches",
        summary="A player's settled matches and ratings with their history, unless private",
        parameters=[PAGE_PARAMETER],
        responses={200: MatchHistorySerializer},
        tags=["players"],
    )
    def get(self, request: Request, username: str) -> Response:
        username = params.name(username, max_length=USERNAME_MAX_LENGTH)
        try:
            # The profile's own rule decides who sees it: a private one is its owner's.
            access = profile_access(username=username, viewer=request.user)
        except ObjectDoesNotExist as missing:
            raise ApiRefusal(code="not_found", message="There is no such player.") from missing
        body = (
            self._history(request, access.user) if access.stats_visible else self._hidden(request)
        )
        body |= {
            "username": access.user.get_username(),
            "is_owner": access.is_owner,
            "stats_visible": access.stats_visible,
        }
        return Response(body)

    def _hidden(self, request: Request) -> dict[str, Any]:
        body = page_envelope(request, number=1, num_pages=1, count=0, results=[])
        return body | {"ratings": []}

    def _history(self, request: Request, player: User) -> dict[str, Any]:
        page = Paginator(
            selectors.match_history_for_player(player=player), HISTORY_PAGE_SIZE
        ).get_page(params.page_number(request.query_params))
        body = page_envelope(
            request,
            number=page.number,
            num_pages=page.paginator.num_pages,
            count=page.paginator.count,
            results=[history_row(seat) for seat in page.object_list],
        )
        ratings = [
            PlayerRatingSerializer(
                {
                    **rating.__dict__,
                    "history": [
                        {"at": at, "rating": value, "won": won}
                        for at, value, won in selectors.player_rating_history(
                            player=player, mode=rating.mode
                        )
                    ],
                }
            ).data
            for rating in selectors.player_ratings(player=player)
        ]
        return body | {"ratings": ratings}
