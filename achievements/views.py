"""The finish toast: the badges a game earned, fetched by the finish summary."""

from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.selectors import profile_for_user
from achievements.selectors import game_toast
from core import params
from games.models import Game

# The summary asks again while the game's evaluation task has not committed yet
# (a worker may take a moment), once a second for this many tries.
TOAST_TRIES = 8


@require_GET
def finish_toast(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The badges earned by the player's own closed game; 404 for anybody else's."""
    player = request.user
    if not player.is_authenticated:  # a visitor has no game of their own
        raise Http404("No such game")
    try:
        toast = game_toast(game_id=game_id, player=player)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    attempt = params.integer(request.GET, "try", default=1, minimum=1, maximum=TOAST_TRIES)
    waiting = toast.closed and not toast.evaluated and attempt < TOAST_TRIES
    context = {
        "toast": toast,
        "game_id": game_id,
        "next_try": attempt + 1 if waiting else None,
        "reduced_motion": profile_for_user(user=player).reduced_motion,
    }
    response = render(request, "achievements/_toast.html", context)
    response["Cache-Control"] = "no-store"
    return response
