"""A player's profile, as the web's profile page shows it to the one who asks."""

from django.core.exceptions import ObjectDoesNotExist
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import ApiRefusal
from api.serializers.community import ProfileSerializer, profile_of
from core import params
from players.selectors import profile_for_username
from players.views import USERNAME_MAX_LENGTH


class PlayerView(APIView):
    permission_classes = [AllowAny]
    refusals = ("not_found",)

    @extend_schema(
        operation_id="player_get",
        summary="A player's profile: statistics and badges, unless it is private",
        responses={200: ProfileSerializer},
        tags=["players"],
    )
    def get(self, request: Request, username: str) -> Response:
        username = params.name(username, max_length=USERNAME_MAX_LENGTH)
        try:
            page = profile_for_username(
                username=username, viewer=request.user, with_page_sections=False
            )
        except ObjectDoesNotExist as missing:
            raise ApiRefusal(code="not_found", message="There is no such player.") from missing
        return Response(profile_of(page))
