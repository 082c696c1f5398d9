"""The request types the views are written against.

Django's HttpRequest knows neither what django_htmx's middleware adds (every
request passes through it) nor that a view behind `login_required` only ever
sees a signed-in user; these say both, so that the type checker holds a view to
what it can rely on (the pattern django-stubs and django-htmx document).
"""

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request that `login_required` let through: its user is an account."""

    user: User
