"""The Duel's shared board in the Django page (templates/matches/duel.html): drawn by
Jinja2 with the boards' own parts (jinja_templates/matches/duel_board.jinja)."""

from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString

from games.rendering import board_part_html, csrf_field

register = template.Library()


@register.simple_tag(takes_context=True)
def duel_board(context: template.Context) -> SafeString:
    """The board of the context's `board` (a DuelBoard) with its `error`, if any. Every
    form carries the token: a pick without JavaScript is a page of its own."""
    request = context["request"]
    board = context["board"]
    urls: dict[str, Any] = {
        "detail": reverse("matches:duel", args=[board.match_id]),
        "move": reverse("matches:duel_move", args=[board.match_id]),
        "target": "#duel-board",
        "rules": reverse("matches:rules", args=[board.mode_key]),
        "match": reverse("matches:detail", args=[board.match_id]),
    }
    return board_part_html(
        request=request,
        template="matches/duel_board.jinja",
        context={
            "board": board,
            "urls": urls,
            "error": context.get("error"),
            "csrf_field": csrf_field(request, full_page=True),
        },
    )
