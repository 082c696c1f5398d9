"""Thin views of matches: the lobby (make, join, quick match), a match's page, its
live panel beside each seat's board, and the ratings. Every action is a POST form
that works without JavaScript; a refusal comes back as a message."""

from collections.abc import Callable
from urllib.parse import urlencode
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from core import params
from core.compression import uncompressed
from core.http import AuthenticatedHttpRequest
from matches import selectors, services
from matches.errors import MatchRefused
from matches.models import Match
from matches.modes import match_mode, match_mode_keys, match_modes

RATINGS_PAGE_SIZE = 50


def _match_url(match_id: UUID, code: str | None = None) -> str:
    url = reverse("matches:detail", kwargs={"match_id": match_id})
    return f"{url}?code={code}" if code else url


@login_required
@require_GET
def lobby(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The modes with their quick-match queues, the open matches, the player's own. A
    lobby waiting in a queue looks again every 5 s (`?waiting=<mode>`, its poll's): once
    the player is paired, by that look or by the beat, it takes them to their match."""
    services.matches_close_expired()
    services.queue_pair_all_if_embedded()
    current = selectors.match_current_for_player(player=request.user)
    queued = selectors.player_queue_modes(player=request.user)
    waited = set(request.GET.getlist("waiting")) - set(queued)
    if current is not None and current.mode in waited:
        messages.success(request, "An opponent was found.")
        url = _match_url(current.id)
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    context = {
        "modes": [
            {"mode": mode, "open": services.mode_is_open(mode=mode, player=request.user)}
            for mode in match_modes()
        ],
        "queued": queued,
        "poll_url": reverse("matches:lobby")
        + (f"?{urlencode({'waiting': queued}, doseq=True)}" if queued else ""),
        "open_matches": selectors.lobby_matches(),
        "current": current,
    }
    template = "matches/lobby.html#lobby" if request.htmx else "matches/lobby.html"
    return render(request, template, context)


def _act(
    request: AuthenticatedHttpRequest, action: Callable[[], Match | None], fallback: str
) -> HttpResponse:
    """Run one lobby action; its match's page, or back with the refusal."""
    try:
        match = action()
    except Match.DoesNotExist as missing:
        raise Http404("No such match") from missing
    except MatchRefused as refusal:
        messages.error(request, refusal.message)
        return redirect(fallback)
    if match is None:
        return redirect("matches:lobby")
    return redirect(_match_url(match.id))


@login_required
@require_POST
def create(request: AuthenticatedHttpRequest) -> HttpResponse:
    mode = params.choice(request.POST, "mode", match_mode_keys(), default=None)
    if mode is None:
        messages.error(request, "Choose a match mode.")
        return redirect("matches:lobby")
    private = request.POST.get("private") == "on"
    return _act(
        request,
        lambda: services.match_create(player=request.user, mode=mode, private=private),
        "matches:lobby",
    )


@login_required
@require_POST
def join(request: AuthenticatedHttpRequest, match_id: UUID) -> HttpResponse:
    code = request.POST.get("code") or None
    return _act(
        request,
        lambda: services.match_join(player=request.user, match_id=match_id, invite_code=code),
        _match_url(match_id, code),
    )


@login_required
@require_POST
def leave(request: AuthenticatedHttpRequest, match_id: UUID) -> HttpResponse:
    def left() -> None:
        services.match_leave(player=request.user, match_id=match_id)

    return _act(request, left, _match_url(match_id))


@login_required
@require_POST
def start(request: AuthenticatedHttpRequest, match_id: UUID) -> HttpResponse:
    return _act(
        request,
        lambda: services.match_start(player=request.user, match_id=match_id),
        _match_url(match_id),
    )


@login_required
@require_POST
def rematch(request: AuthenticatedHttpRequest, match_id: UUID) -> HttpResponse:
    return _act(
        request,
        lambda: services.match_rematch(player=request.user, match_id=match_id),
        _match_url(match_id),
    )


@login_required
@require_POST
def queue_join(request: AuthenticatedHttpRequest, mode: str) -> HttpResponse:
    if match_mode(mode) is None:
        raise Http404("No such match mode")
    return _act(
        request, lambda: services.queue_join(player=request.user, mode=mode), "matches:lobby"
    )


@login_required
@require_POST
def queue_leave(request: AuthenticatedHttpRequest, mode: str) -> HttpResponse:
    services.queue_leave(player=request.user, mode=mode)
    return redirect("matches:lobby")


@uncompressed  # its invite link beside the ?code= it was opened with
@login_required
@require_GET
def detail(request: AuthenticatedHttpRequest, match_id: UUID) -> HttpResponse:
    """A match: its seats and invite link while it waits; a seated player's own board
    (or the shared board) while it runs; the results once it is over."""
    services.match_close_if_time_up(match_id=match_id)
    code = request.GET.get("code") or None
    try:
        view = selectors.match_for_viewer(match_id=match_id, viewer=request.user, invite_code=code)
    except Match.DoesNotExist as missing:
        raise Http404("No such match") from missing
    seated = any(seat.username == request.user.get_username() for seat in view.seats)
    game_id = selectors.match_seat_game_id(match_id=match_id, player=request.user)
    if view.is_running and game_id is not None:
        mode = match_mode(view.mode)
        if mode is not None and mode.shared_board:
            board = reverse("matches:duel", kwargs={"match_id": match_id})
        else:
            board = reverse("games:detail", kwargs={"game_id": game_id})
        # The waiting page's look is htmx's: it must leave the page, not swap the board in.
        return HttpResponseClientRedirect(board) if request.htmx else redirect(board)
    context = {
        "view": view,
        "seated": seated,
        "code": code,
        "invite_url": request.build_absolute_uri(_match_url(view.id, view.invite_code))
        if seated and view.is_open
        else None,
        "is_creator": view.created_by == request.user.get_username(),
    }
    template = "matches/match.html#match" if request.htmx else "matches/match.html"
    return render(request, template, context)


@login_required
@require_GET
def live(request: AuthenticatedHttpRequest, match_id: UUID) -> HttpResponse:
    """The live panel beside a seat's board: every seat's public progress and the clock
    (then kept up to date through the match's socket)."""
    services.match_close_if_time_up(match_id=match_id)
    if not selectors.match_is_seated(match_id=match_id, player=request.user):
        raise Http404("No such match")
    view = selectors.match_live_view(match_id=match_id)
    if view is None:
        raise Http404("No such match")
    response = render(request, "matches/_live.html", {"view": view, "connect": True})
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def ratings(request: HttpRequest, mode: str) -> HttpResponse:
    if match_mode(mode) is None:
        raise Http404("No such match mode")
    page = Paginator(range(selectors.ratings_count(mode=mode)), RATINGS_PAGE_SIZE).get_page(
        params.page_number(request.GET)
    )
    rows = selectors.ratings_leaderboard(
        mode=mode, limit=RATINGS_PAGE_SIZE, offset=max(0, page.start_index() - 1)
    )
    context = {"mode": match_mode(mode), "modes": match_modes(), "rows": rows, "page": page}
    return render(request, "matches/ratings.html", context)
