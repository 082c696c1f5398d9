"""Form fields that read what the site's own forms write, and nothing that merely
looks like it: Django's IntegerField reads text through int(), which takes the
digits of every script ("٣", an Arabic-Indic three, is 3, and so is a fullwidth
three). A number in a form of this site is ASCII digits, as a number in its query
strings is (core.params)."""

from typing import Any

from django import forms

from core.params import LONG_DIGITS


class AsciiIntegerField(forms.IntegerField):
    """A whole number written in ASCII digits (a leading minus allowed, so that the
    field's own bounds say what is wrong with -1)."""

    def to_python(self, value: Any) -> int | None:
        text = str(value).strip() if value is not None else ""
        if text and not LONG_DIGITS.fullmatch(text.removeprefix("-")):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        number: int | None = super().to_python(value)
        return number
