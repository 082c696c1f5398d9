"""The games the site offers and the deal options of each, read from the registry
(games.specs) and each game's options form, so a game added there appears here."""

import json
from collections.abc import Iterable
from typing import Any, cast

from django import forms
from rest_framework import serializers

from games.specs import GameSpec


# `label` and `source` are the JSON's names; DRF's stubs type a field's own attributes
# of those names on the serializer too.
class OptionChoiceSerializer(serializers.Serializer[Any]):
    value = serializers.JSONField()
    label = serializers.CharField()  # type: ignore[assignment]


class OptionSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    kind = serializers.ChoiceField(choices=["choice", "integer", "boolean"])
    default = serializers.JSONField()
    choices = OptionChoiceSerializer(many=True, required=False)
    min = serializers.IntegerField(required=False)
    max = serializers.IntegerField(required=False)


class VariantSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    name = serializers.CharField()
    has_daily_deal = serializers.BooleanField()
    options = OptionSerializer(many=True)
    rules_url = serializers.URLField(help_text="The rules page of the web site.")


def _option(name: str, field: forms.Field) -> dict[str, Any]:
    described: dict[str, Any] = {
        "name": name,
        "label": str(field.label or name.replace("_", " ").capitalize()),
        "default": field.initial,
    }
    if isinstance(field, forms.ChoiceField):
        coerce = getattr(field, "coerce", lambda value: value)
        described["kind"] = "choice"
        described["choices"] = [
            {"value": coerce(value), "label": str(label)}
            for value, label in cast(Iterable[tuple[Any, Any]], field.choices)
        ]
    elif isinstance(field, forms.IntegerField):
        described["kind"] = "integer"
        described["min"] = field.min_value
        described["max"] = field.max_value
    elif isinstance(field, forms.BooleanField):
        described["kind"] = "boolean"
        described["default"] = bool(field.initial)
    else:
        raise TypeError(f"The API cannot describe the option field {name!r} ({type(field)})")
    return described


def option_value_refusal(name: str, field: forms.Field, value: Any) -> str | None:
    """Why `value`, from a JSON body, is of no type the option takes (None when it is):
    a choice is one of its values as GET /variants writes them (draw 3 is the number 3,
    not "3"), a number a JSON number, a flag true or false. Its bounds are the form's."""
    described = _option(name, field)
    label = described["label"]
    if described["kind"] == "choice":
        values = [choice["value"] for choice in described["choices"]]
        if not any(type(value) is type(choice) and value == choice for choice in values):
            return f"{label} is one of {', '.join(json.dumps(choice) for choice in values)}."
    elif described["kind"] == "integer":
        if type(value) is not int:
            return f"{label} is a whole number (a JSON number)."
    elif type(value) is not bool:
        return f"{label} is true or false."
    return None


def variant_description(spec: GameSpec, *, rules_url: str) -> dict[str, Any]:
    form = spec.options_form_for()
    options = [_option(name, field) for name, field in form.fields.items()] if form else []
    return {
        "key": spec.key,
        "name": spec.name,
        "has_daily_deal": spec.has_daily_deal,
        "options": options,
        "rules_url": rules_url,
    }
