"""Sending a player to a game's page after an action elsewhere dealt or resumed it (a
new deal, a restart, a challenge's or a scenario's Play): one answer for every app."""

from uuid import UUID

from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse

from core.http import HtmxHttpRequest


def game_page_response(request: HtmxHttpRequest, game_id: UUID) -> HttpResponse:
    """A redirect to the game's page; to htmx, a 204 with HX-Location, so that htmx
    fetches the board in place as a page of its own."""
    url = reverse("games:detail", kwargs={"game_id": game_id})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Location"] = url
        return response
    return HttpResponseRedirect(url)
