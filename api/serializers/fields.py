"""The fields of the bodies an app sends: a value is of JSON's own type or it is
refused (400 malformed). DRF's IntegerField reads text through int() ("1", and "٣",
an Arabic-Indic three, as 3; 1.0 as 1) and its BooleanField reads "yes", "on" and 1
as true: a client that sends those has a bug the API should tell it about, and docs
promise `malformed` for a field of the wrong type."""

from typing import Any

from rest_framework import serializers


class JsonIntegerField(serializers.IntegerField):
    """A JSON number without a fraction (true and false are no numbers)."""

    default_error_messages = {"invalid": "A whole number is required (a JSON number)."}

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("invalid")
        value: int = super().to_internal_value(data)
        return value


class JsonBooleanField(serializers.BooleanField):
    """JSON's true or false."""

    default_error_messages = {"invalid": "true or false is required."}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data
