"""The Codex campaign's pages: thin views over the selectors and services."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from codex import selectors, services
from core.http import AuthenticatedHttpRequest, HtmxHttpRequest
from games.codex import PAR_MARGIN


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The Codex's four tiers and their scenarios, with the viewer's progress."""
    viewer = request.user if request.user.is_authenticated else None
    context = {
        "campaign": selectors.codex_campaign(player=viewer),
        "wins_to_open": selectors.WINS_TO_OPEN_NEXT_TIER,
        "par_margin_percent": round(PAR_MARGIN * 100),
    }
    return render(request, "codex/codex.html", context)


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
    url = reverse("games:detail", kwargs={"game_id": game.id})
    if request.htmx:
        # The board is a page of its own: htmx goes there, as the challenges' play does.
        response = HttpResponse(status=204)
        response["HX-Location"] = url
        return response
    return HttpResponseRedirect(url)
