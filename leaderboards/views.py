"""Daily deals and leaderboard pages: thin views over selectors and services."""

from datetime import date, timedelta

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from core import params
from core.http import AuthenticatedHttpRequest, HtmxHttpRequest
from games.engine import get_variant
from games.rendering import board_part_html
from leaderboards import selectors, services
from leaderboards.models import DailyDeal, PeriodBest
from leaderboards.periods import today_utc


def _daily_game_or_404(variant: str) -> str:
    if variant not in services.daily_deal_games():
        raise Http404("No daily deal for that game")
    return variant


@login_required
@require_GET
def daily(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Today's deals with the player's result on each, the countdown to the next
    deals, the player's streak and a calendar of past days."""
    today = today_utc()
    deals = services.daily_deals_ensure(day=today)
    this_month = today.replace(day=1)
    month = params.year_month(request.GET, latest=this_month) or this_month
    context = {
        "today": today,
        "entries": selectors.daily_overview(deals=deals, player=request.user),
        "seconds_to_next": selectors.seconds_to_next_deals(now=timezone.now()),
        "streak": selectors.daily_streak(player=request.user, today=today),
        "month": month,
        "weeks": selectors.daily_calendar(player=request.user, month=month, today=today),
        "previous_month": (month - timedelta(days=1)).strftime("%Y-%m"),
        "next_month": _next_month(month).strftime("%Y-%m") if _next_month(month) <= today else None,
        "calendar_game": deals[0].variant if deals else None,
    }
    template = "leaderboards/daily.html#calendar" if request.htmx else "leaderboards/daily.html"
    return render(request, template, context)


def _next_month(month: date) -> date:
    return (month.replace(day=28) + timedelta(days=4)).replace(day=1)


@login_required
@require_POST
def daily_play(request: AuthenticatedHttpRequest, variant: str) -> HttpResponse:
    """Play today's deal of a game: the first attempt is ranked, later ones practice."""
    variant = _daily_game_or_404(variant)
    today = today_utc()
    deal = next(d for d in services.daily_deals_ensure(day=today) if d.variant == variant)
    game = services.daily_deal_play(player=request.user, deal=deal)
    return redirect("games:detail", game_id=game.id)


@require_GET
def deal_leaderboard(request: HtmxHttpRequest, day: str, variant: str) -> HttpResponse:
    today = today_utc()
    deal_day = params.iso_day(day)
    if deal_day is None:
        raise Http404("No such daily deal")
    try:
        deal = services.daily_deal_for_day(day=deal_day, variant=variant, today=today)
    except DailyDeal.DoesNotExist as missing:
        raise Http404(str(missing)) from missing
    viewer = request.user if request.user.is_authenticated else None
    page = params.page_number(request.GET)
    board = selectors.leaderboard_for_deal(deal=deal, page=page, viewer=viewer)
    context = {
        "deal": deal,
        "name": get_variant(deal.variant).name,
        "board": board,
        "viewer_hold": (
            selectors.player_hold_on_deal(deal=deal, player=viewer)
            if viewer is not None and board.viewer_row is None
            else ""
        ),
        "certificate": selectors.deal_certificate(deal=deal, today=today),
        "day_games": [(key, get_variant(key).name) for key in services.daily_deal_games()],
    }
    template = "leaderboards/deal.html#ranks" if request.htmx else "leaderboards/deal.html"
    return render(request, template, context)


@require_GET
def deal_par_replay(request: HtmxHttpRequest, day: str, variant: str) -> HttpResponse:
    """The solver's winning line of a deal whose day is over, one position a page
    (`?step=k`, 0 the deal): anyone may step through it; while the deal is live the
    page does not exist."""
    deal_day = params.iso_day(day)
    if deal_day is None:
        raise Http404("No such daily deal")
    try:
        deal = selectors.daily_deal_get(day=deal_day, variant=variant)
    except DailyDeal.DoesNotExist as missing:
        raise Http404("No such daily deal") from missing
    step = params.integer(request.GET, "step", default=0, minimum=0, maximum=10_000)
    try:
        replay = selectors.par_replay(deal=deal, step=step, today=today_utc())
    except selectors.ReplayClosed as closed:
        raise Http404(str(closed)) from closed
    context = {
        "deal": deal,
        "name": replay.board.variant_name,
        "replay": replay,
        "board": replay.board,
        "board_html": board_part_html(
            request=request,
            template=replay.board.templates["board"],
            context={"board": replay.board},
        ),
        "certificate": selectors.deal_certificate(deal=deal, today=today_utc()),
    }
    return render(request, "leaderboards/par.html", context)


@require_GET
def period_leaderboard(request: HtmxHttpRequest, variant: str) -> HttpResponse:
    variant = _daily_game_or_404(variant)
    period = params.choice(
        request.GET, "period", PeriodBest.Period.values, default=PeriodBest.Period.WEEK
    )
    services.period_rankings_refresh_on_read(variant=variant, period=period, today=today_utc())
    viewer = request.user if request.user.is_authenticated else None
    table = selectors.period_leaderboard(
        variant=variant,
        period=period,
        today=today_utc(),
        page=params.page_number(request.GET),
        viewer=viewer,
    )
    context = {
        "variant": variant,
        "name": get_variant(variant).name,
        "period": period,
        "periods": PeriodBest.Period.choices,
        "table": table,
        "games": [(key, get_variant(key).name) for key in services.daily_deal_games()],
    }
    template = "leaderboards/period.html#ranks" if request.htmx else "leaderboards/period.html"
    return render(request, template, context)
