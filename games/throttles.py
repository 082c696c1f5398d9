"""The throttle on dealing (a new deal, a restart), the web's and the API's alike.

A deal abandons the game in progress and may certify a winnable deal while the
player waits (seconds of the solver: docs/pool.md), and nothing held a script to any
pace: sixty deals in under four seconds were all dealt. The rate (settings
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["deals"], `DEAL_RATE`) is far above a
person's: every deal request of a player counts, through the board or the API, in
one budget; past it the answer is 429 with Retry-After, on the web as on the API."""

from math import ceil

from django.http import HttpRequest
from rest_framework.throttling import UserRateThrottle


class DealRateThrottle(UserRateThrottle):
    scope = "deals"


def deal_wait_seconds(request: HttpRequest) -> int | None:
    """None when the request's player may deal now (and the deal is counted), else the
    whole seconds until they may: DRF's throttle, which the API's views run
    themselves, counted for a web page's request."""
    throttle = DealRateThrottle()
    if throttle.allow_request(request, None):  # type: ignore[arg-type]  # a Django request
        return None
    return max(1, ceil(throttle.wait() or 1))
