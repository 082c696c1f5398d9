from typing import Any

from django import forms


class ProfileSettingsForm(forms.Form):
    """The settings page: who may see the profile, and two play preferences."""

    PUBLIC = "public"
    PRIVATE = "private"

    visibility = forms.ChoiceField(
        label="Who can see my statistics",
        choices=[
            (PUBLIC, "Everyone: my profile page is public"),
            (PRIVATE, "Only me: others see just my name"),
        ],
        widget=forms.RadioSelect,
    )
    highlight_moves = forms.BooleanField(
        label="Highlight the places a picked card can go", required=False
    )
    reduced_motion = forms.BooleanField(label="Reduce card animations", required=False)

    @classmethod
    def initial_for(
        cls, *, public: bool, highlight_moves: bool, reduced_motion: bool
    ) -> dict[str, Any]:
        return {
            "visibility": cls.PUBLIC if public else cls.PRIVATE,
            "highlight_moves": highlight_moves,
            "reduced_motion": reduced_motion,
        }

    def preferences(self) -> dict[str, bool]:
        """The cleaned data as `accounts.services.profile_update` takes it."""
        return {
            "public": self.cleaned_data["visibility"] == self.PUBLIC,
            "highlight_moves": self.cleaned_data["highlight_moves"],
            "reduced_motion": self.cleaned_data["reduced_motion"],
        }
