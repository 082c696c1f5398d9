"""Response headers that no library here sets, and the compression of answers."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

from core.compression import UNCOMPRESSED


class PermissionsPolicyMiddleware:
    """Send settings.PERMISSIONS_POLICY as the Permissions-Policy header: each
    browser feature listed is refused to this site and to any frame in it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.header = ", ".join(
            f"{feature}=({' '.join(origins)})"
            for feature, origins in settings.PERMISSIONS_POLICY.items()
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", self.header)
        return response


SESSION_TOKEN_PATHS = ("/api/v1/auth/",)
"""allauth's app endpoints, whose answers carry a session token in their body."""


class BreachAwareGZipMiddleware(GZipMiddleware):
    """Django's GZip middleware, but for the answers that carry a secret of their own in
    their body (a session token; a view marked core.compression.uncompressed).
    Compression lets a page that reflects an attacker's guesses beside a secret leak it
    by its length (BREACH). The CSRF token in the pages is safe (Django masks it anew
    for every response), and the session travels in a cookie header, never compressed."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(response, UNCOMPRESSED, False) or request.path.startswith(SESSION_TOKEN_PATHS):
            return response
        return super().process_response(request, response)
