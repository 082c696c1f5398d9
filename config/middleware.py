"""Response headers that no library here sets, the compression of answers, and the
answer to a sign-out that could not end its session."""

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import render

from accounts.sessions import RETRY_SECONDS, SessionNotEnded
from api.errors import ApiRefusal, refusal_body
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


API_PATHS = ("/api/",)
SIGN_OUT_FAILED = (
    "The session store did not answer, so we could not sign you out: you are still "
    "signed in. Try again in a moment."
)


class SessionNotEndedMiddleware:
    """A sign-out whose session's cached copy could not be deleted
    (accounts.sessions.SessionNotEnded) answers 503, with nothing deleted: the API's
    refusal `session_store_unavailable`, or a page that says so and offers to try
    again. Never a success: the copy would sign the cookie or token in again once
    Redis answered."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, SessionNotEnded):
            return None
        headers = {"Retry-After": str(int(RETRY_SECONDS))}
        if request.path.startswith(API_PATHS):
            refusal = ApiRefusal(code="session_store_unavailable", message=SIGN_OUT_FAILED)
            return JsonResponse(refusal_body(refusal), status=503, headers=headers)
        # allauth queued its "You have signed out." before signing out: marked as
        # read, it is kept for no later page (and the page below shows no messages).
        for _message in messages.get_messages(request):
            pass
        response = render(
            request, "accounts/sign_out_failed.html", {"message": SIGN_OUT_FAILED}, status=503
        )
        response["Retry-After"] = headers["Retry-After"]
        return response
