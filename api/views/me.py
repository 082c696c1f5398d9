"""The signed-in player's own account and settings."""

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.forms import ProfileSettingsForm
from accounts.selectors import profile_for_user
from accounts.services import profile_update
from api.errors import ApiRefusal
from api.serializers.accounts import (
    MeSerializer,
    SettingsSerializer,
    form_data_of,
    setting_named,
    settings_of,
)
from api.views.base import player_of


class MeView(APIView):
    refusals = ()

    @extend_schema(
        operation_id="me_get",
        summary="You: your name, e-mail address and profile page",
        responses={200: MeSerializer},
        tags=["account"],
    )
    def get(self, request: Request) -> Response:
        player = player_of(request)
        profile_url = reverse("players:profile", kwargs={"username": player.get_username()})
        me = {
            "username": player.get_username(),
            "email": player.email,
            "date_joined": player.date_joined,
            "profile_url": request.build_absolute_uri(profile_url),
        }
        return Response(MeSerializer(me).data)


class SettingsView(APIView):
    refusals = ()

    @extend_schema(
        operation_id="me_settings_get",
        summary="Your settings: who sees your statistics, the board's looks, play preferences",
        responses={200: SettingsSerializer},
        tags=["account"],
    )
    def get(self, request: Request) -> Response:
        return Response(settings_of(profile_for_user(user=player_of(request))))

    @extend_schema(
        operation_id="me_settings_update",
        summary="Change any of your settings (an invalid one saves nothing)",
        request=SettingsSerializer,
        responses={200: SettingsSerializer},
        tags=["account"],
    )
    def patch(self, request: Request) -> Response:
        patch = SettingsSerializer(data=request.data, partial=True)
        patch.is_valid(raise_exception=True)
        unknown = sorted(set(request.data) - set(patch.fields))
        if unknown:
            raise ApiRefusal(
                code="malformed", message=f"There is no setting {unknown[0]!r}.", param=unknown[0]
            )
        player = player_of(request)
        current = profile_for_user(user=player)
        # The web's settings form is the one place a setting is validated.
        form = ProfileSettingsForm(form_data_of(profile=current, patch=patch.validated_data))
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            raise ApiRefusal(code="malformed", message=str(errors[0]), param=setting_named(field))
        return Response(settings_of(profile_update(user=player, **form.preferences())))
