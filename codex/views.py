"""The Codex campaign's pages: thin views over the selectors and services."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from codex import selectors, services
from codex.leaderboard import scenario_leaderboard
from core import params
from core.http import AuthenticatedHttpRequest, HtmxHttpRequest
from games.codex import PAR_MARGIN, codex_scenario, difficulty_rule
from games.navigation import game_page_response
from games.services import games_close_expired


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The Codex's four tiers and their scenarios, with the viewer's progress."""
    viewer = request.user if request.user.is_authenticated else None
    if viewer is not None:
        # A timed scenario whose clock ran out is over: its ledger counts now.
        games_close_expired(player=viewer)
    context = {
        "campaign": selectors.codex_campaign(player=viewer),
        "master_architect": selectors.master_architect_reign(),
        "wins_to_open": selectors.WINS_TO_OPEN_NEXT_TIER,
        "par_margin_percent": round(PAR_MARGIN * 100),
        "difficulty_rule": difficulty_rule(),
    }
    return render(request, "codex/codex.html", context)


@require_GET
def leaderboard(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """The scenario's players by their best game, all time; htmx pages get the ranks."""
    scenario = codex_scenario(key)
    if scenario is None:
        raise Http404("No such scenario")
    viewer = request.user if request.user.is_authenticated else None
    board = scenario_leaderboard(key=key, page=params.page_number(request.GET), viewer=viewer)
    template = "codex/leaderboard.html"
    context = {"scenario": scenario, "board": board}
    return render(request, f"{template}#ranks" if request.htmx else template, context)


@login_required
@require_POST
def play(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    """Deal the scenario's game, or resume the one in progress, and go to its board."""
    try:
        game = services.scenario_play(player=request.user, key=key)
    except services.ScenarioUnknown as missing:
        raise Http404("No such scenario") from missing
    except services.ScenarioRefused as refused:
        template = "codex/refused.html#refusal" if request.htmx else "codex/refused.html"
        return render(request, template, {"message": str(refused)}, status=409)
    return game_page_response(request, game.id)
