"""The per-player throttle on actions: far above a person's pace (five a second,
sustained for a minute: settings.REST_FRAMEWORK), so only a script meets it (429 with
Retry-After). One budget for each player however the actions come, by POST or over
any of their match sockets: DRF's history of the player's actions, in the cache, so
every process and node spends the same one."""

from django.contrib.auth.models import User
from django.http import HttpRequest
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView


class MoveRateThrottle(UserRateThrottle):
    scope = "moves"


def move_budget_spend(*, player: User) -> None:
    """Spend one action of the player's budget for an action that comes by no HTTP
    request (the match socket's): the throttle the action's POST has, on the same
    history. Throttled (429) once the budget is spent; nothing spent then."""
    request = Request(HttpRequest())
    request.user = player
    throttle = MoveRateThrottle()
    if not throttle.allow_request(request, APIView()):
        raise Throttled(wait=throttle.wait())
