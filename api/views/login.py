"""allauth headless's log-in, whose failed-login throttle says when to try again.

Once a login's failures are spent, allauth refuses even the right password with
`400 too_many_login_attempts` until the window passes, and says nothing of when that
is. Here that refusal carries `Retry-After`: the longest window of the failed-login
limits (settings.ACCOUNT_RATE_LIMITS["login_failed"]), after which every failure it
counted has passed (docs/decisions.md)."""

import json
import math
from typing import Any

from allauth.headless.account import views
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

THROTTLED = "too_many_login_attempts"
SECONDS_PER_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def rate_window_seconds(rate: str) -> int:
    """An allauth rate's window (`10/m/ip`, `5/300s/key`: a count, a window, a key):
    a unit, with or without its number before it."""
    window = rate.split("/")[1].strip()
    number = window[:-1]
    return math.ceil(float(number or 1) * SECONDS_PER_UNIT[window[-1]])


def login_retry_after() -> int:
    rates = settings.ACCOUNT_RATE_LIMITS["login_failed"]
    return max(rate_window_seconds(rate) for rate in rates.split(",") if rate.strip())


class LoginView(views.LoginView):  # type: ignore[misc]
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response: HttpResponseBase = super().dispatch(request, *args, **kwargs)
        if response.status_code == 400 and _refused_for(response, THROTTLED):
            response["Retry-After"] = str(login_retry_after())
        return response


def _refused_for(response: HttpResponseBase, code: str) -> bool:
    try:
        body = json.loads(getattr(response, "content", b""))
    except ValueError:
        return False
    errors = body.get("errors", []) if isinstance(body, dict) else []
    return any(isinstance(error, dict) and error.get("code") == code for error in errors)
