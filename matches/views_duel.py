"""Thin views of a shared board (the Duel): the board, a move, and a mode's rules.
Every move is a POST form that works without JavaScript (htmx swaps the board in when
it runs): without it, a card is a link that picks it (`?sel=t3/2`) and the board comes
back with a form on each place that takes it. The board is rendered for its viewer, so
only the seat to move gets moves, and the live panel beside it makes each page fetch
its own board again after every push."""

from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from core.http import AuthenticatedHttpRequest
from games.errors import MALFORMED, GameActionError
from games.forms import MoveForm
from games.specs import game_spec
from matches import selectors, services
from matches.models import Match
from matches.modes import match_mode
from matches.selectors_duel import duel_board_for_player


def _render_board(
    request: AuthenticatedHttpRequest,
    match_id: UUID,
    *,
    selected: str | None = None,
    error: str | None = None,
) -> HttpResponse:
    try:
        board = duel_board_for_player(match_id=match_id, player=request.user, selected=selected)
    except Match.DoesNotExist as missing:
        raise Http404("No such duel") from missing
    template = "matches/duel.html#board" if request.htmx else "matches/duel.html"
    context = {"board": board, "view": selectors.match_live_view(match_id=match_id), "error": error}
    response = render(request, template, context)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def duel(request: AuthenticatedHttpRequest, match_id: UUID) -> HttpResponse:
    """The shared board (an htmx request gets the board alone), with the card the player
    picked (`?sel=`) when it is theirs to pick. Whoever looks first closes a match whose
    clock ran out and passes a turn that did."""
    services.match_close_if_time_up(match_id=match_id)
    services.duel_turn_time_up(match_id=match_id)
    return _render_board(request, match_id, selected=request.GET.get("sel"))


@login_required
@require_POST
def move(request: AuthenticatedHttpRequest, match_id: UUID) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _refused(request, match_id, "That request was malformed.", MALFORMED)
    try:
        services.duel_move_play(
            match_id=match_id,
            player=request.user,
            move=form.cleaned_data["move"],
            revision=form.cleaned_data["revision"],
        )
    except Match.DoesNotExist as missing:
        raise Http404("No such duel") from missing
    except GameActionError as refusal:
        return _refused(request, match_id, refusal.message, refusal.code)
    if request.htmx:
        return _render_board(request, match_id)
    return redirect("matches:duel", match_id=match_id)


def _refused(
    request: AuthenticatedHttpRequest, match_id: UUID, message: str, code: str
) -> HttpResponse:
    """A refusal, which changed nothing, answered as the boards answer theirs
    (games.views): to htmx, 200, the board with the reason and an HX-Trigger `refused`
    event carrying the code the API gives it (a 4xx would have the browser log an
    error for an answer the page expects); without JavaScript, back to the board with
    the reason as a message. The board it shows is the board as it now is: a match
    clock that ran out closes it first, as a look does."""
    services.match_close_if_time_up(match_id=match_id)
    if request.htmx:
        return trigger_client_event(
            _render_board(request, match_id, error=message), "refused", {"code": code}
        )
    messages.error(request, message)
    return redirect("matches:duel", match_id=match_id)


@require_GET
def rules(request: HttpRequest, mode: str) -> HttpResponse:
    """A mode's rules: its game's page, or the rules of an engine variant the site
    offers only as a match (the Duel)."""
    kind = match_mode(mode)
    if kind is None:
        raise Http404("No such match mode")
    spec = game_spec(kind.variant)
    if spec is not None:
        return redirect("games:rules", variant=spec.key)
    return render(request, f"games/{kind.variant}/rules.html", {"name": kind.name})
