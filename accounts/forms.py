from typing import Any

from django import forms
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from accounts.usernames import username_normalise
from accounts.validators import validate_username_one_alphabet, validate_username_unlike_others


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


class ArenaUserCreationForm(AdminUserCreationForm):
    """The admin's "add user": the sign-up's username checks apply."""

    def clean_username(self) -> str:
        username = username_normalise(super().clean_username())
        validate_username_one_alphabet(username)
        validate_username_unlike_others(username)
        return username


# UserChangeForm is generic only in django-stubs, not at run time.
class ArenaUserChangeForm(UserChangeForm):  # type: ignore[type-arg]
    """The admin's user page, the one place a name can be changed: a new name gets
    the sign-up's checks (an unchanged one is left alone, even if it predates them)."""

    def clean_username(self) -> str:
        username = username_normalise(self.cleaned_data["username"])
        if username != self.instance.get_username():
            validate_username_one_alphabet(username)
            validate_username_unlike_others(username, exclude_user_id=self.instance.pk)
        return username
