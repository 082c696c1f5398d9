from typing import TYPE_CHECKING, Any, cast

from allauth.account.forms import SignupForm
from django import forms
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User

from accounts.models import CardBack, CardSize, ColourScheme, Felt, Profile
from accounts.services import winnable_only_choices
from accounts.usernames import username_normalise
from accounts.validators import validate_username_one_alphabet, validate_username_unlike_others


class ProfileSettingsForm(forms.Form):
    """The settings page: who may see the profile, how the board looks and sounds,
    and the play preferences. Every choice is stored on the profile, so it follows
    the player to every device."""

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
    # The page always sends the looks; a post that leaves one out (an older page,
    # a script) keeps the stored value rather than failing.
    felt = forms.TypedChoiceField(
        label="Felt and backdrop", choices=Felt.choices, required=False, empty_value=None
    )
    card_back = forms.TypedChoiceField(
        label="Card backs",
        choices=CardBack.choices,
        widget=forms.RadioSelect,
        required=False,
        empty_value=None,
    )
    card_size = forms.TypedChoiceField(
        label="Card size",
        choices=CardSize.choices,
        widget=forms.RadioSelect,
        required=False,
        empty_value=None,
    )
    colour_scheme = forms.TypedChoiceField(
        label="Light or dark pages",
        choices=ColourScheme.choices,
        widget=forms.RadioSelect,
        required=False,
        empty_value=None,
    )
    four_colour_deck = forms.BooleanField(
        label="Four-colour deck: spades black, hearts red, diamonds blue, clubs green",
        required=False,
    )
    sound = forms.BooleanField(label="Sound: card taps and a fanfare on a win", required=False)
    highlight_moves = forms.BooleanField(
        label="Highlight the places a picked card can go", required=False
    )
    reduced_motion = forms.BooleanField(label="Reduce card animations", required=False)
    single_tap_moves = forms.BooleanField(
        label="A single tap moves a card that has exactly one sensible place to go",
        required=False,
    )
    auto_foundation = forms.BooleanField(
        label="Move cards the tableau can never need again to the foundations by themselves",
        required=False,
    )

    winnable_only = forms.MultipleChoiceField(
        label="Winnable deals only",
        help_text=(
            "New deals of the games ticked are ones our solver has won: the board says "
            "'Certified winnable deal'. Daily deals are certified anyway."
        ),
        choices=[],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    LOOKS = ("felt", "card_back", "card_size", "colour_scheme")
    SWITCHES = (
        "four_colour_deck",
        "sound",
        "highlight_moves",
        "reduced_motion",
        "single_tap_moves",
        "auto_foundation",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The games offered are read when the form is made: a solver registered later
        # (or a game added) appears without a restart of the field's definition.
        cast(
            forms.MultipleChoiceField, self.fields["winnable_only"]
        ).choices = winnable_only_choices()

    @classmethod
    def initial_for(cls, *, profile: Profile) -> dict[str, Any]:
        initial: dict[str, Any] = {"visibility": cls.PUBLIC if profile.public else cls.PRIVATE}
        for name in cls.LOOKS + cls.SWITCHES:
            initial[name] = getattr(profile, name)
        stored = profile.winnable_only if isinstance(profile.winnable_only, list) else []
        initial["winnable_only"] = [key for key, _name in winnable_only_choices() if key in stored]
        return initial

    def preferences(self) -> dict[str, Any]:
        """The cleaned data as `accounts.services.profile_update` takes it."""
        preferences: dict[str, Any] = {"public": self.cleaned_data["visibility"] == self.PUBLIC}
        for name in self.LOOKS + self.SWITCHES:
            preferences[name] = self.cleaned_data[name]
        preferences["winnable_only"] = list(self.cleaned_data["winnable_only"])
        return preferences


# allauth's forms are untyped.
class ArenaSignupForm(SignupForm):  # type: ignore[misc]
    """allauth's sign-up, with every error shown at once: allauth checks that the
    two passwords match only when the first one passed its validators, so a weak
    password hid the mismatch until the next try."""

    MISMATCH = "You must type the same password each time."

    def clean(self) -> dict[str, Any]:
        password1 = self.cleaned_data.get("password1")
        password2 = self.cleaned_data.get("password2")
        cleaned: dict[str, Any] = super().clean()
        if password1 and password2 and password1 != password2 and not self.has_error("password2"):
            self.add_error("password2", self.MISMATCH)
        return cleaned


class ArenaUserCreationForm(AdminUserCreationForm):
    """The admin's "add user": the sign-up's username checks apply."""

    def clean_username(self) -> str:
        username = username_normalise(super().clean_username())
        validate_username_one_alphabet(username)
        validate_username_unlike_others(username)
        return username


if TYPE_CHECKING:
    # UserChangeForm takes its model as a parameter in django-stubs only.
    UserChangeFormBase = UserChangeForm[User]
else:
    UserChangeFormBase = UserChangeForm


class ArenaUserChangeForm(UserChangeFormBase):
    """The admin's user page, the one place a name can be changed: a new name gets
    the sign-up's checks (an unchanged one is left alone, even if it predates them)."""

    def clean_username(self) -> str:
        username = username_normalise(self.cleaned_data["username"])
        if username != self.instance.get_username():
            validate_username_one_alphabet(username)
            validate_username_unlike_others(username, exclude_user_id=self.instance.pk)
        return username
