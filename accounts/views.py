"""Thin views: parse the request, call a selector or a service, render."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileSettingsForm
from accounts.selectors import profile_for_user
from accounts.services import profile_update
from core.http import AuthenticatedHttpRequest


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = ProfileSettingsForm(request.POST)
        if form.is_valid():
            profile_update(user=request.user, **form.preferences())
            messages.success(request, "Your settings are saved.")
            return redirect("accounts:settings")
        messages.error(request, "Your settings were not saved: please correct the form.")
        return render(request, "accounts/settings.html", {"form": form}, status=400)

    current = profile_for_user(user=request.user)
    form = ProfileSettingsForm(initial=ProfileSettingsForm.initial_for(profile=current))
    return render(request, "accounts/settings.html", {"form": form})
