"""Reading an API request's query string. Where the web's pages fall back to a
default for a value they cannot read (core.params: a person follows links and types
URLs), the API refuses it, `400 malformed` with `param` naming it: a program that
asks for page "abc" or the games of "nonsense" has a bug, and an answer about
something else (page 1, every game) would hide it."""

from collections.abc import Collection

from django.http import QueryDict

from api.errors import ApiRefusal
from core import params

PAGE = "page"


def page_refusal(query: QueryDict) -> ApiRefusal | None:
    """Every list's `?page=`, when sent, is a whole number from 1 in ASCII digits (a
    page past the last is the last: the lists' own rule, core.params.page_number)."""
    raw = query.get(PAGE)
    if raw is None or (params.LONG_DIGITS.fullmatch(raw) and raw.strip("0")):
        return None
    return ApiRefusal(code="malformed", message="The page is a whole number from 1.", param=PAGE)


def choice(query: QueryDict, name: str, choices: Collection[str]) -> str | None:
    """`name` when it is one of `choices`, None when it is not sent."""
    raw = query.get(name)
    if raw is None or raw in choices:
        return raw
    raise ApiRefusal(
        code="malformed",
        message=f"{name} is one of {', '.join(choices)}, not {raw!r}.",
        param=name,
    )
