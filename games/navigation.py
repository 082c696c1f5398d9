"""Sending a player to a game's page after an action elsewhere dealt or resumed it (a
new deal, a restart, a challenge's or a scenario's Play): one answer for every app."""

from uuid import UUID

from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect, HttpResponseLocation

from core.http import HtmxHttpRequest

BOARD_ID = "board"
"""The id of the board's element on a game's page (jinja_templates/games/board.jinja)."""


def game_page_response(request: HtmxHttpRequest, game_id: UUID) -> HttpResponse:
    """A redirect to the game's page. To htmx, from a board (New deal, Restart): an
    HX-Location that fetches the new game's board into the old one's place and pushes
    its address, so the page around it (header, live region, keys dialog) stays;
    from another page (a challenge's or a scenario's Play): an HX-Redirect, a page
    load, since that page has no board to replace. A bare HX-Location would swap the
    board partial into <body>."""
    url = reverse("games:detail", kwargs={"game_id": game_id})
    if not request.htmx:
        return HttpResponseRedirect(url)
    if request.htmx.target == BOARD_ID:
        return HttpResponseLocation(url, target=f"#{BOARD_ID}", swap="outerHTML")
    return HttpResponseClientRedirect(url)
