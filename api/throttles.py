"""The per-player throttle on actions: far above a person's pace (a move a second,
sustained for a minute), so only a script meets it (429 with Retry-After)."""

from rest_framework.throttling import UserRateThrottle


class MoveRateThrottle(UserRateThrottle):
    scope = "moves"
