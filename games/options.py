"""The deal options a player can choose, as forms. The engine validates the
options again (`normalize_options`), so a form only turns text into values."""

from django import forms
from django.http import QueryDict

from core.forms import AsciiIntegerField


class SpikeOptionsForm(forms.Form):
    mode = forms.ChoiceField(
        choices=[
            ("classic", "Classic Peak"),
            ("time_attack", "Avalanche Time Attack (2:00)"),
            ("relaxed", "Relaxed Expedition (not ranked)"),
        ],
        initial="classic",
        widget=forms.RadioSelect,
    )


class StepsOptionsForm(forms.Form):
    draw = forms.TypedChoiceField(
        choices=[(1, "Draw 1"), (3, "Draw 3")], coerce=int, initial=1, widget=forms.RadioSelect
    )
    buffers = AsciiIntegerField(min_value=0, max_value=4, initial=4, label="Reserve slots")
    recycles = AsciiIntegerField(min_value=0, max_value=99, initial=3, label="Recycles allowed")
    retrieval = forms.BooleanField(
        required=False, initial=False, label="Allow foundation cards back to the tableau"
    )


# Fields every POST form of the site carries besides its own.
NOT_OPTIONS = frozenset({"csrfmiddlewaretoken", "confirm"})


def posted_options(data: QueryDict) -> QueryDict | None:
    """The POST data when it carries any deal option, or None when it carries none
    (a bare "Deal" button): then the game is dealt with the defaults."""
    return data if any(key not in NOT_OPTIONS for key in data) else None
