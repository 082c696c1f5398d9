"""Thin views: parse the request, call a service or selector, render.

Each page has one view and one template; an htmx request gets the board
partial. Every action is a POST form that also works without JavaScript: then
the answer is a redirect back to the page, with any refusal as a message.
"""

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlencode
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core import signing
from django.core.paginator import Paginator
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from accounts.selectors import profile_for_user
from accounts.session_user import (
    UserClaim,
    session_login_required,
    session_rekeyed,
    session_user,
    session_user_claim,
)
from core import params
from core.http import AuthenticatedHttpRequest
from games import selectors, services
from games.engine import EngineError
from games.errors import MALFORMED, GameActionError
from games.forms import ActionForm, ConfirmForm, FinishForm, MoveForm, TapForm
from games.models import Game
from games.navigation import game_page_response
from games.options import posted_options
from games.rendering import board_html, board_urls, csrf_field
from games.specs import GameSpec, game_keys, game_spec, game_specs
from games.throttles import deal_wait_seconds
from games.tracks import casual_track


def _spec_or_404(variant: str) -> GameSpec:
    spec = game_spec(variant)
    if spec is None:
        raise Http404("No such game")
    return spec


def _own_game_or_404(request: AuthenticatedHttpRequest, game_id: UUID) -> Game:
    """The signed-in player's game (SignedOut where the session signs nobody in)."""
    try:
        return selectors.game_for_player(game_id=game_id, player=session_user(request))
    except Game.DoesNotExist as missing:
        raise Http404("No such game") from missing


def _playable_games() -> list[dict[str, str]]:
    return [{"key": spec.key, "name": spec.name} for spec in game_specs()]


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": _playable_games()})


@login_required
def play(request: AuthenticatedHttpRequest, variant: str) -> HttpResponse:
    """The game's start. The active game of this variant is resumed (GET with
    `?options` shows the deal options instead). With none, a game that has deal
    options (Spike's modes, Steps') shows them to choose from, and any other game
    is dealt at once: GET deals too, so that a sign-up's `next` lands in a game."""
    spec = _spec_or_404(variant)
    active = selectors.game_active_for_player(player=request.user, variant=spec.key)
    if active is not None and (request.method == "POST" or "options" not in request.GET):
        return redirect("games:detail", game_id=active.id)
    form = spec.options_form_for()
    if active is None and form is None:
        game = services.game_resume_or_start(player=request.user, variant=spec.key)
        return redirect("games:detail", game_id=game.id)
    if request.method == "POST":
        return redirect("games:play", variant=spec.key)
    return _render_play(request, spec, form, active=active)


def _render_play(
    request: HttpRequest,
    spec: GameSpec,
    form: Form | None,
    *,
    active: Game | None = None,
    error: str | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "variant": spec.key,
        "name": spec.name,
        "form": form,
        "active": active,
        "error": error,
    }
    return render(request, "games/play.html", context, status=status)


@login_required
@require_POST
def new_deal(request: AuthenticatedHttpRequest, variant: str) -> HttpResponse:
    """Deal a new game with the options posted: the defaults when the POST carries
    none, a 400 with the form's errors when they are incomplete or invalid. While
    a casual game of this variant is in progress, a POST without `confirm` only
    asks (on that game's board), as Finish does."""
    spec = _spec_or_404(variant)
    wait = deal_wait_seconds(request)
    if wait is not None:
        latest = selectors.game_history_for_player(player=request.user, variant=spec.key).first()
        if request.htmx and latest is not None:  # the board the request came from
            shown = _own_game_or_404(request, latest.id)
            return _deal_throttled(_render_board(request, shown, error=_too_many(wait)), wait)
        form = spec.options_form_for()
        return _deal_throttled(_render_play(request, spec, form, error=_too_many(wait)), wait)
    confirm = ConfirmForm(request.POST)
    if not confirm.is_valid():
        return _render_play(request, spec, spec.options_form_for(), status=400)
    if not confirm.cleaned_data["confirm"]:
        active = selectors.game_active_for_player(player=request.user, variant=spec.key)
        if active is not None:
            return _render_board(request, active, confirm_new_deal=True)
    form = spec.options_form_for(posted_options(request.POST))
    if form is not None and form.is_bound and not form.is_valid():
        return _render_play(request, spec, form, status=400)
    options = form.cleaned_data if form is not None and form.is_bound else None
    try:
        game = services.game_start(
            player=request.user, variant=spec.key, track=casual_track(options=options)
        )
    except EngineError as refusal:
        return _render_play(request, spec, form, error=str(refusal), status=400)
    return game_page_response(request, game.id)


@login_required
@require_POST
def restart(request: AuthenticatedHttpRequest, game_id: UUID) -> HttpResponse:
    """Deal the same cards again; while the game it would abandon is in progress, a
    POST without `confirm` only asks."""
    game = _own_game_or_404(request, game_id)
    wait = deal_wait_seconds(request)
    if wait is not None:
        return _deal_throttled(_render_board(request, game, error=_too_many(wait)), wait)
    confirm = ConfirmForm(request.POST)
    if not confirm.is_valid():
        return _refused(request, game, "That request was malformed.", MALFORMED)
    if not confirm.cleaned_data["confirm"]:
        active = selectors.game_active_on_track(
            player=request.user, variant=game.variant, track=game.track, ref=game.track_ref
        )
        if active is not None:
            return _render_board(request, game, confirm_restart=True)
    try:
        restarted = services.game_restart(game_id=game_id, player=request.user)
    except Game.DoesNotExist as missing:
        raise Http404("No such game") from missing
    except GameActionError as refusal:
        return _refused(request, game, refusal.message, refusal.code)
    return game_page_response(request, restarted.id)


def _too_many(wait: int) -> str:
    return f"Too many new deals at once: wait {wait} s, then deal again."


def _deal_throttled(response: HttpResponse, wait: int) -> HttpResponse:
    """A deal past the throttle (games.throttles): the page or board with the reason,
    429 with Retry-After, as the API answers it. Never a redirect: its status is the
    answer."""
    response.status_code = 429
    response["Retry-After"] = str(wait)
    return response


@login_required
@require_GET
def detail(request: AuthenticatedHttpRequest, game_id: UUID) -> HttpResponse:
    game = _own_game_or_404(request, game_id)
    game = services.game_looked_at(game=game)
    return _render_board(
        request, game, selected=request.GET.get("sel"), hint=_hint_of_token(request, game)
    )


def _render_board(
    request: AuthenticatedHttpRequest,
    game: Game,
    *,
    selected: str | None = None,
    error: str | None = None,
    confirm_finish: bool = False,
    confirm_restart: bool = False,
    confirm_new_deal: bool = False,
    events: tuple[str, ...] = (),
    highlight: bool | None = None,
    hint: dict[str, str | None] | None = None,
    state: Any = None,
) -> HttpResponse:
    """``highlight`` is the player's highlighting setting, when the action's read
    brought it; ``hint`` the move a hint suggested for this board (text, source,
    destination)."""
    highlight = _highlight_preference(request, highlight)
    # The same address answers htmx with the board alone and a browser with the page:
    # a history restore (htmx asks for the whole page) and the browser's own cache
    # must not take one for the other.
    partial = bool(request.htmx) and not request.htmx.history_restore_request
    board = selectors.game_board(
        game=game, selected=selected, highlight_preference=highlight, state=state
    )
    context = {
        "hint": hint,
        "hints_used": game.hints_used,
        "hint_ranked_note": game.is_ranked and game.track == Game.Track.DAILY,
        "board": board,
        "urls": board_urls(
            game_id=game.id,
            variant=game.variant,
            match_id=game.track_ref if game.track == Game.Track.MATCH else "",
        ),
        "csrf_field": csrf_field(request, full_page=not partial),
        "error": error,
        "confirm_finish": confirm_finish,
        "confirm_restart": confirm_restart,
        "confirm_new_deal": confirm_new_deal,
        "removed_runs": _event_values(events, "run_removed:"),
        "cleared_spikes": _event_values(events, "spike_cleared:"),
    }
    html = board_html(request=request, context=context)
    if partial:
        response = HttpResponse(html)
    else:
        response = render(request, "games/game.html", {"board": board, "board_html": html})
    patch_vary_headers(response, ("HX-Request",))
    return response


def _event_values(events: tuple[str, ...], prefix: str) -> list[str]:
    return [event.removeprefix(prefix) for event in events if event.startswith(prefix)]


def _highlight_preference(request: AuthenticatedHttpRequest, setting: bool | None) -> bool:
    """The player's highlighting setting: as the action's locked read brought it, or read
    now. Every board reads it: it lights the places a picked card can go on each game."""
    return setting if setting is not None else profile_for_user(user=request.user).highlight_moves


Outcome = TypeVar("Outcome")


def _acted(
    request: AuthenticatedHttpRequest,
    game_id: UUID,
    action: Callable[[User | UserClaim], Outcome],
) -> Outcome | HttpResponse:
    """Run a game's action as the request's player: the session's claim to a user,
    whose row the action's locked read brings with the game's (accounts.session_user),
    or the user the request read already. Its outcome, or the answer to its refusal
    (which changed nothing): no such game of a signed-in player's is a 404, a session
    that signs nobody in raises SignedOut (session_login_required answers it), a rule's
    refusal is the board with the reason."""
    try:
        return action(session_user_claim(request) or request.user)
    except Game.DoesNotExist as missing:
        # The claim's read found no game: Django's own read of the user says whether
        # there is a player whose game it is not (the user may be gone).
        session_user(request)
        raise Http404("No such game") from missing
    except GameActionError as refusal:
        return _refused(request, _own_game_or_404(request, game_id), refusal.message, refusal.code)
    finally:
        session_rekeyed(request)


def _run_action(
    request: AuthenticatedHttpRequest,
    game_id: UUID,
    form: ActionForm,
    action: Callable[[dict[str, Any], User | UserClaim], services.ActionOutcome],
) -> HttpResponse:
    """Apply one action and answer with the board; a refusal changes nothing. The
    board reads the player's preferences that came with the action's locked read."""
    if not form.is_valid():
        return _refused(
            request, _own_game_or_404(request, game_id), "That request was malformed.", MALFORMED
        )
    outcome = _acted(request, game_id, lambda player: action(form.cleaned_data, player))
    if isinstance(outcome, HttpResponse):
        return outcome
    if request.htmx:
        return _render_board(
            request,
            outcome.game,
            events=outcome.events,
            highlight=outcome.game.player_highlight_moves,
            state=outcome.state,
        )
    return redirect("games:detail", game_id=game_id)


def _refused(
    request: AuthenticatedHttpRequest,
    game: Game,
    message: str,
    code: str,
) -> HttpResponse:
    """A refusal, which changed nothing. To htmx: 200, the board with the reason and an
    HX-Trigger `refused` event carrying the API's code for it (a 4xx would have the
    browser log an error for an answer the page expects); without JavaScript: back to
    the board, with the reason as a message."""
    if request.htmx:
        return trigger_client_event(
            _render_board(request, game, error=message), "refused", {"code": code}
        )
    messages.error(request, message)
    return redirect("games:detail", game_id=game.id)


@session_login_required
@require_POST
def move(request: AuthenticatedHttpRequest, game_id: UUID) -> HttpResponse:
    return _run_action(
        request,
        game_id,
        MoveForm(request.POST),
        lambda data, player: services.game_move_play(
            game_id=game_id,
            player=player,
            move=data["move"],
            revision=data["revision"],
        ),
    )


@session_login_required
@require_POST
def tap(request: AuthenticatedHttpRequest, game_id: UUID) -> HttpResponse:
    return _run_action(
        request,
        game_id,
        TapForm(request.POST),
        lambda data, player: services.game_card_tap(
            game_id=game_id,
            player=player,
            source=data["source"],
            count=data["count"] or 1,
            revision=data["revision"],
        ),
    )


@session_login_required
@require_POST
def undo(request: AuthenticatedHttpRequest, game_id: UUID) -> HttpResponse:
    return _run_action(
        request,
        game_id,
        ActionForm(request.POST),
        lambda data, player: services.game_move_undo(
            game_id=game_id, player=player, revision=data["revision"]
        ),
    )


HINT_SALT = "games.hint"


@session_login_required
@require_POST
def hint(request: AuthenticatedHttpRequest, game_id: UUID) -> HttpResponse:
    """Suggest a move and count the hint (games.services.game_hint). The board comes
    back with the move marked; without JavaScript the redirect carries the hint, signed
    for this game and revision, to the board's page."""
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _refused(
            request, _own_game_or_404(request, game_id), "That request was malformed.", MALFORMED
        )
    outcome = _acted(
        request,
        game_id,
        lambda player: services.game_hint(
            game_id=game_id, player=player, revision=form.cleaned_data["revision"]
        ),
    )
    if isinstance(outcome, HttpResponse):
        return outcome
    shown = outcome.shown
    if request.htmx:
        return _render_board(
            request, outcome.game, hint=shown, highlight=outcome.game.player_highlight_moves
        )
    token = signing.dumps(
        {"game": str(game_id), "revision": outcome.game.revision, **shown}, salt=HINT_SALT
    )
    url = reverse("games:detail", kwargs={"game_id": game_id})
    return HttpResponseRedirect(f"{url}?{urlencode({'hint': token})}")


def _hint_of_token(request: HttpRequest, game: Game) -> dict[str, str | None] | None:
    """The hint a redirect carried, while it is for this game at its revision."""
    token = request.GET.get("hint")
    if not token or not game.is_active:
        return None
    try:
        data = signing.loads(token, salt=HINT_SALT, max_age=3600)
    except signing.BadSignature:
        return None
    if data.get("game") != str(game.id) or data.get("revision") != game.revision:
        return None
    return {key: data.get(key) for key in ("move", "text", "source", "destination")}


@session_login_required
@require_POST
def auto_complete(request: AuthenticatedHttpRequest, game_id: UUID) -> HttpResponse:
    return _run_action(
        request,
        game_id,
        ActionForm(request.POST),
        lambda data, player: services.game_auto_complete(
            game_id=game_id, player=player, revision=data["revision"]
        ),
    )


@session_login_required
@require_POST
def finish(request: AuthenticatedHttpRequest, game_id: UUID) -> HttpResponse:
    """Without `confirm` this only asks; with it the result becomes final."""
    form = FinishForm(request.POST)
    if form.is_valid() and not form.cleaned_data["confirm"]:
        game = _own_game_or_404(request, game_id)
        if game.is_active and form.cleaned_data["revision"] == game.revision:
            return _render_board(request, game, confirm_finish=True)
    return _run_action(
        request,
        game_id,
        form,
        lambda data, player: services.game_finish(
            game_id=game_id, player=player, revision=data["revision"]
        ),
    )


@session_login_required
@require_POST
def accept_loss(request: AuthenticatedHttpRequest, game_id: UUID) -> HttpResponse:
    """Close a game whose position is lost as lost (the lost banner's button)."""
    return _run_action(
        request,
        game_id,
        ActionForm(request.POST),
        lambda data, player: services.game_loss_accept(
            game_id=game_id, player=player, revision=data["revision"]
        ),
    )


@login_required
@require_GET
def history(request: AuthenticatedHttpRequest) -> HttpResponse:
    services.games_close_expired(player=request.user)
    variant = params.choice(request.GET, "variant", game_keys(), default=None)
    page = Paginator(
        selectors.game_history_for_player(player=request.user, variant=variant), 10
    ).get_page(params.page_number(request.GET))
    context = {
        "page": page,
        "stats": selectors.game_stats_for_player(player=request.user, variant=variant),
        "variant": variant,
        "games": _playable_games(),
        "offered": game_keys(),
    }
    template = "games/history.html#history" if request.htmx else "games/history.html"
    return render(request, template, context)


@require_GET
def rules(request: HttpRequest, variant: str) -> HttpResponse:
    spec = _spec_or_404(variant)
    return render(request, spec.template("rules"), {"name": spec.name})
