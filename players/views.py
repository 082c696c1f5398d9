"""The player's public page: a thin view over players.selectors."""

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from core import params
from leaderboards.periods import today_utc
from players.selectors import profile_for_username

# Longer text names nobody: it is refused before any lookup (150: Django's default).
USERNAME_MAX_LENGTH: int = get_user_model()._meta.get_field("username").max_length or 150


@require_http_methods(["GET", "HEAD"])
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page; the calendar shows `?month=2025-06` (this month when it
    cannot be read, the nearest month it can show when out of range)."""
    username = params.name(username, max_length=USERNAME_MAX_LENGTH)
    month = params.year_month(request.GET, latest=today_utc().replace(day=1))
    try:
        page = profile_for_username(username=username, viewer=request.user, month=month)
    except ObjectDoesNotExist:
        raise Http404("No such player") from None
    if page.username != username:
        return redirect("players:profile", username=page.username, permanent=True)
    calendar_only = bool(getattr(request, "htmx", False)) and page.calendar is not None
    template = "players/profile.html#calendar" if calendar_only else "players/profile.html"
    return render(request, template, {"page": page})
