"""Thin views: parse the request, call a selector or a service, render."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileSettingsForm
from accounts.selectors import profile_for_user, profile_for_username
from accounts.services import profile_update
from core import params
from leaderboards.periods import today_utc

# Longer text names nobody: it is refused before any lookup.
USERNAME_MAX_LENGTH = get_user_model()._meta.get_field("username").max_length


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
        return redirect("accounts:profile", username=page.username, permanent=True)
    calendar_only = bool(getattr(request, "htmx", False)) and page.calendar is not None
    template = "accounts/profile.html#calendar" if calendar_only else "accounts/profile.html"
    return render(request, template, {"page": page})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = ProfileSettingsForm(request.POST)
        if form.is_valid():
            profile_update(user=request.user, **form.preferences())
            messages.success(request, "Your settings are saved.")
            return redirect("accounts:settings")
        messages.error(request, "Your settings were not saved: please correct the form.")
        return render(request, "accounts/settings.html", {"form": form}, status=400)

    current = profile_for_user(user=request.user)
    form = ProfileSettingsForm(
        initial=ProfileSettingsForm.initial_for(
            public=current.public,
            highlight_moves=current.highlight_moves,
            reduced_motion=current.reduced_motion,
        )
    )
    return render(request, "accounts/settings.html", {"form": form})
