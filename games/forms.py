"""Validation of the fields that action requests carry."""

from django import forms

from core.forms import AsciiIntegerField

# The places a tap can name (tap-to-move), and the longest move text: the API's
# requests are held to the same (api.serializers.actions).
TAP_SOURCE = r"^(w|t[1-7]|r[1-4])$"
MOVE_MAX_LENGTH = 32


class ActionForm(forms.Form):
    """Every action carries the move number (revision) its board was rendered at."""

    revision = AsciiIntegerField(min_value=0)


class MoveForm(ActionForm):
    move = forms.CharField(max_length=MOVE_MAX_LENGTH)


class TapForm(ActionForm):
    source = forms.RegexField(regex=TAP_SOURCE, max_length=3)
    count = AsciiIntegerField(min_value=1, max_value=52, required=False)


class FinishForm(ActionForm):
    """Without `confirm` the finish only asks; the confirmation button posts
    `confirm=on`, and any other value is a malformed request (BooleanField would
    read any text as yes)."""

    confirm = forms.ChoiceField(choices=[("on", "yes")], required=False)


class ConfirmForm(forms.Form):
    """Restart this deal and New deal: without `confirm` they only ask while a game
    they would abandon is in progress; `confirm=on` acts (as FinishForm)."""

    confirm = forms.ChoiceField(choices=[("on", "yes")], required=False)
