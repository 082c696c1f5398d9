"""The player's own account and settings. The settings are what the web's settings
form edits (accounts.forms.ProfileSettingsForm), with the same choices."""

from typing import Any

from rest_framework import serializers

from accounts.forms import ProfileSettingsForm
from accounts.models import CardBack, CardSize, ColourScheme, Felt, Profile
from accounts.services import winnable_only_choices
from api.serializers.fields import JsonBooleanField


class MeSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    email = serializers.EmailField()
    date_joined = serializers.DateTimeField()
    profile_url = serializers.URLField(help_text="Your profile page on the web site.")


class SettingsSerializer(serializers.Serializer[Any]):
    """A PATCH sends any of these; each one left out keeps its value."""

    public = JsonBooleanField(
        help_text="Everyone may see your statistics; when false, others see just your name."
    )
    felt = serializers.ChoiceField(choices=Felt.choices, help_text="The board's felt or backdrop.")
    card_back = serializers.ChoiceField(choices=CardBack.choices)
    card_size = serializers.ChoiceField(choices=CardSize.choices)
    colour_scheme = serializers.ChoiceField(
        choices=ColourScheme.choices, help_text="Light or dark pages, or as the device is set."
    )
    four_colour_deck = JsonBooleanField(
        help_text="Spades black, hearts red, diamonds blue, clubs green."
    )
    sound = JsonBooleanField(help_text="Card taps and a fanfare on a win.")
    highlight_moves = JsonBooleanField(help_text="Highlight where a picked card can go.")
    reduced_motion = JsonBooleanField(help_text="Keep card animations to a minimum.")
    single_tap_moves = JsonBooleanField(
        help_text="A single tap moves a card that has exactly one sensible place to go."
    )
    auto_foundation = JsonBooleanField(
        help_text="Cards the tableau can never need again go to the foundations by themselves."
    )

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        # Read when the serializer is made, as the form reads it: the games offered.
        fields["winnable_only"] = serializers.ListField(
            child=serializers.ChoiceField(choices=winnable_only_choices()),
            help_text="The games whose new casual deals are certified winnable ones.",
        )
        return fields


def settings_of(profile: Profile) -> dict[str, Any]:
    """The profile's settings as the settings form reads them."""
    current = ProfileSettingsForm.initial_for(profile=profile)
    current["public"] = current.pop("visibility") == ProfileSettingsForm.PUBLIC
    return dict(SettingsSerializer(current).data)


def form_data_of(*, profile: Profile, patch: dict[str, Any]) -> dict[str, Any]:
    """The settings form's data: the stored values with the patch's over them."""
    patch = dict(patch)
    if "public" in patch:
        public = patch.pop("public")
        patch["visibility"] = ProfileSettingsForm.PUBLIC if public else ProfileSettingsForm.PRIVATE
    return {**ProfileSettingsForm.initial_for(profile=profile), **patch}


def setting_named(form_field: str) -> str:
    """The API's name of a settings form field."""
    return "public" if form_field == "visibility" else form_field
