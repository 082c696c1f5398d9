"""The bodies of the actions on a game. The web's forms (games.forms) take the same
fields with the same bounds; the rules themselves are the services'. Numbers and
flags are JSON's own (api.serializers.fields)."""

from typing import Any

from rest_framework import serializers

from api.serializers.fields import JsonBooleanField, JsonIntegerField
from games.forms import MOVE_MAX_LENGTH, TAP_SOURCE
from games.specs import game_keys

MAX_REVISION = 2**31 - 1


class ActionSerializer(serializers.Serializer[Any]):
    revision = JsonIntegerField(
        min_value=0,
        max_value=MAX_REVISION,
        help_text="The game's revision the action was made at (a stale one is refused, 409).",
    )


class MoveSerializer(ActionSerializer):
    move = serializers.CharField(
        max_length=MOVE_MAX_LENGTH,
        help_text='A move in the notation (docs/notation.md): "draw", "w-t3", "t6-f", "t2-t5/3".',
    )


class TapSerializer(ActionSerializer):
    source = serializers.RegexField(  # type: ignore[assignment]  # the JSON's name
        regex=TAP_SOURCE, max_length=3, help_text="The place tapped: w, t1-t7 or r1-r4."
    )
    count = JsonIntegerField(
        min_value=1,
        max_value=52,
        default=1,
        help_text="How many cards from the top of the place (the card tapped and what it heads).",
    )


class ConfirmedActionSerializer(ActionSerializer):
    confirm = JsonBooleanField(
        default=False,
        help_text="Without it, an action that makes the result final only asks (409).",
    )


class ConfirmSerializer(serializers.Serializer[Any]):
    confirm = JsonBooleanField(
        default=False,
        help_text="Without it, an action that would abandon a game in progress only asks (409).",
    )


class StartSerializer(ConfirmSerializer):
    # The keys alone: (key, name) pairs are the settings' winnable_only choice set
    # today, which drf-spectacular would have to name twice.
    variant = serializers.ChoiceField(
        choices=list(game_keys()), help_text="The game's key (GET /variants)."
    )
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text="The deal options (GET /variants lists each game's); the defaults when left out.",
    )
