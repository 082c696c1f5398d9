"""Thin views: parse the request, call a selector or a service, render."""

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileSettingsForm
from accounts.selectors import profile_for_user, profile_for_username
from accounts.services import profile_update


def _month(request: HttpRequest) -> date | None:
    """The calendar's month from `?month=2025-06`; anything else means this month."""
    raw = request.GET.get("month", "")
    try:
        return date.fromisoformat(f"{raw}-01") if raw else None
    except ValueError:
        return None


@require_http_methods(["GET", "HEAD"])
def profile(request: HttpRequest, username: str) -> HttpResponse:
    try:
        page = profile_for_username(username=username, viewer=request.user, month=_month(request))
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
