"""The board as HTML: Jinja2 templates (jinja_templates/games/, config/jinja2.py) with the URLs
the board needs worked out once, since a move's answer is the board again.

Django's template language spent half of a move's time on the board (about 500 nodes
and 600 variable lookups a render, a URL reversal per form); docs/decisions.md, "The
board's templates"."""

from functools import cache
from typing import Any
from uuid import UUID

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template import engines
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

_ANY_GAME = UUID(int=0)
_GAME_URLS = {
    "detail": "games:detail",
    "move": "games:move",
    "tap": "games:tap",
    "undo": "games:undo",
    "hint": "games:hint",
    "auto_complete": "games:auto_complete",
    "finish": "games:finish",
    "accept_loss": "games:accept_loss",
    "restart": "games:restart",
    "finish_toast": "achievements:finish_toast",
}
_VARIANT_URLS = {"new_deal": "games:new_deal", "play": "games:play", "rules": "games:rules"}


@cache
def _url_forms(variant: str) -> tuple[tuple[str, str], ...]:
    """Each URL of a board of `variant` with a stand-in game id, reversed once per
    process (the site is served under one script prefix)."""
    forms = [(key, reverse(name, args=[_ANY_GAME])) for key, name in _GAME_URLS.items()]
    forms += [(key, reverse(name, args=[variant])) for key, name in _VARIANT_URLS.items()]
    return tuple(forms)


def board_urls(*, game_id: UUID, variant: str, match_id: str = "") -> dict[str, str]:
    stand_in, game = str(_ANY_GAME), str(game_id)
    urls = {key: form.replace(stand_in, game) for key, form in _url_forms(variant)}
    if match_id:
        urls["match"] = reverse("matches:detail", args=[match_id])
    return urls


def csrf_field(request: HttpRequest, *, full_page: bool) -> SafeString:
    """The token's hidden input for a board's forms on a full page (which must work
    without JavaScript); an htmx request's board has none: htmx sends the token in
    the X-CSRFToken header from the page's hx-headers."""
    if not full_page:
        return mark_safe("")  # nosec B308 B703: empty
    return format_html(
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request)
    )


def board_html(*, request: HttpRequest, context: dict[str, Any]) -> SafeString:
    return mark_safe(  # nosec B308 B703: Jinja2 escapes what it renders (autoescape)
        engines["jinja2"].get_template("games/board.jinja").render(context, request)
    )


def board_part_html(*, request: HttpRequest, template: str, context: dict[str, Any]) -> SafeString:
    """One of a game's own board templates alone (the par replay's position)."""
    return mark_safe(  # nosec B308 B703: Jinja2 escapes what it renders (autoescape)
        engines["jinja2"].get_template(template).render(context, request)
    )
