"""The daily challenges' pages: thin views over the selectors and services."""

from itertools import groupby

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from challenges import selectors, services
from challenges.errors import ChallengeRefused
from challenges.leaderboard import month_leaderboard
from challenges.models import Challenge
from challenges.proof import ProofClosed, challenge_proof
from core import params
from core.http import AuthenticatedHttpRequest, HtmxHttpRequest
from games.navigation import game_page_response
from games.rendering import board_part_html
from leaderboards.periods import today_utc


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """A day's challenges (today's, or an earlier day's with `?day=`), game by game,
    with the viewer's standing, and the month's calendar, stars and badge thresholds.
    While today's are still being made, the day's list polls for them."""
    today = today_utc()
    day = params.iso_day(request.GET.get("day", "")) or today
    if not selectors.day_open(day=day, today=today):
        raise Http404("That day's challenges are not open yet")
    viewer = request.user if request.user.is_authenticated else None
    entries = selectors.challenges_of_day(day=day, player=viewer, today=today)
    making = services.challenges_day_making(day=day, today=today, listed=len(entries))
    month = selectors.month_of(day)
    context = {
        "day": day,
        "today": today,
        "games": [
            (entries_of_game[0].variant_name, entries_of_game)
            for entries_of_game in (
                list(group) for _key, group in groupby(entries, key=lambda e: e.variant)
            )
        ],
        "making": making,
        "practice": selectors.day_practice(day=day, today=today),
        "month": selectors.month_view(player=viewer, month=month, today=today),
        "previous_month": selectors.previous_month(month),
        "next_month": selectors.next_month_until(month, latest=today),
    }
    template = "challenges/home.html#day" if request.htmx else "challenges/home.html"
    return render(request, template, context)


@login_required
@require_POST
def play(request: AuthenticatedHttpRequest, challenge_id: int) -> HttpResponse:
    """Deal the challenge's game, or resume the one in progress, and go to its board."""
    try:
        game = services.challenge_play(
            player=request.user, challenge_id=challenge_id, today=today_utc()
        )
    except Challenge.DoesNotExist as missing:
        raise Http404("No such challenge") from missing
    except ChallengeRefused as refused:
        template = "challenges/refused.html#refusal" if request.htmx else "challenges/refused.html"
        return render(request, template, {"message": str(refused)}, status=409)
    return game_page_response(request, game.id)


@require_GET
def proof(request: HtmxHttpRequest, challenge_id: int) -> HttpResponse:
    """The solver's proof of a challenge, one position a page (`?step=k`, 0 the deal),
    once it is open to the viewer; before that the page does not exist."""
    step = params.integer(request.GET, "step", default=0, minimum=0, maximum=10_000)
    viewer = request.user if request.user.is_authenticated else None
    try:
        shown = challenge_proof(
            challenge_id=challenge_id, player=viewer, step=step, today=today_utc()
        )
    except (Challenge.DoesNotExist, ProofClosed) as closed:
        raise Http404("No such proof") from closed
    context = {
        "entry": shown.entry,
        "shown": shown,
        "replay": shown.replay,
        "board": shown.replay.board,
        "board_html": board_part_html(
            request=request,
            template=shown.replay.board.templates["board"],
            context={"board": shown.replay.board},
        ),
    }
    return render(request, "challenges/proof.html", context)


@require_GET
def leaderboard(request: HtmxHttpRequest) -> HttpResponse:
    """The month's players by stars, then the earlier last star (`?month=YYYY-MM`)."""
    this_month = selectors.month_of(today_utc())
    month = params.year_month(request.GET, latest=this_month) or this_month
    viewer = request.user if request.user.is_authenticated else None
    board = month_leaderboard(month=month, page=params.page_number(request.GET), viewer=viewer)
    context = {
        "board": board,
        "month": month,
        "previous_month": selectors.previous_month(month),
        "next_month": selectors.next_month_until(month, latest=this_month),
    }
    template = "challenges/leaderboard.html"
    return render(request, f"{template}#ranks" if request.htmx else template, context)
