"""The per-player throttle on actions: far above a person's pace (five a second,
sustained for a minute: settings.REST_FRAMEWORK), so only a script meets it (429 with
Retry-After)."""

from rest_framework.throttling import UserRateThrottle


class MoveRateThrottle(UserRateThrottle):
    scope = "moves"
