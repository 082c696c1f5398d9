"""One shape for every refusal of the API, allauth headless's own:

    {"status": 409, "errors": [{"code": "stale_revision", "message": "...", "param": null}],
     "game": {...}}

`code` is stable (ERROR_CODES: clients switch on it), `message` is for a person (the
engine's own words for an illegal move), `param` names the field at fault, and a
refused action on a game carries the game as it now is. A refusal changes nothing.
"""

import math
from typing import Any

from django.core.exceptions import BadRequest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.errors import GameActionError

ERROR_CODES: dict[str, tuple[int, str]] = {
    "malformed": (400, "A field is missing, of the wrong type or out of range (see `param`)."),
    "not_authenticated": (401, "No credentials: send the X-Session-Token of your login."),
    "invalid_session_token": (401, "The session token names no live session: log in again."),
    "csrf_failed": (403, "A browser session wrote without its CSRF token."),
    "permission_denied": (403, "You may not do that."),
    "not_found": (404, "No such thing, or not yours: another player's game is not found."),
    "no_active_game": (404, "You have no game of that kind in progress."),
    "method_not_allowed": (405, "That endpoint does not take this HTTP method."),
    "not_acceptable": (406, "The API answers in JSON only."),
    "unsupported_media_type": (415, "Send the request body as application/json."),
    "stale_revision": (
        409,
        "The action was made at an older revision: `game` is the current state.",
    ),
    "game_closed": (409, "The game is over: its result is final."),
    "confirmation_required": (
        409,
        "The action would end a game in progress: send it again with confirm=true.",
    ),
    "match_refused": (409, "The match refused that: the message says why; nothing changed."),
    "scenario_locked": (
        409,
        "The scenario's tier is still locked to you: the message says what opens it.",
    ),
    "challenge_refused": (
        409,
        "The daily challenge cannot be played (a later day's is not open yet): the message "
        "says why.",
    ),
    "illegal_move": (422, "The rules refuse that action on this board (the message says why)."),
    "throttled": (429, "Too many requests: wait the seconds Retry-After says."),
    "session_store_unavailable": (
        503,
        "The session store did not answer, so the session was not ended: it is still live. "
        "Try again after the seconds Retry-After says.",
    ),
}

# DRF's own exception codes, as the API names them.
_DRF_CODES = {
    "parse_error": "malformed",
    "authentication_failed": "invalid_session_token",
    "not_authenticated": "not_authenticated",
    "permission_denied": "permission_denied",
    "not_found": "not_found",
    "method_not_allowed": "method_not_allowed",
    "not_acceptable": "not_acceptable",
    "unsupported_media_type": "unsupported_media_type",
    "throttled": "throttled",
}


class ApiRefusal(exceptions.APIException):
    """A refusal with one of ERROR_CODES, and the game it concerns when there is one."""

    wait: int | None = None
    """A throttled refusal's seconds to wait: DRF's handler writes them as Retry-After."""

    def __init__(
        self,
        *,
        code: str,
        message: str,
        param: str | None = None,
        game: dict[str, Any] | None = None,
    ) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"{code!r} is not one of the API's error codes")
        super().__init__(detail=message, code=code)
        self.status_code = ERROR_CODES[code][0]
        self.error_code = code
        self.param = param
        self.game = game


def action_refusal(refusal: GameActionError, *, game: dict[str, Any] | None) -> ApiRefusal:
    """The API's refusal for a game service's (an illegal move, a stale revision, ...):
    the code the refusal carries (games.errors), the web's too."""
    return ApiRefusal(code=refusal.code, message=refusal.message, game=game)


def throttled_refusal(wait: float | None, *, game: dict[str, Any] | None) -> ApiRefusal:
    """DRF's throttled refusal (its message, its Retry-After), carrying the game the
    throttled action was on, as every refused action on a game does."""
    seconds = None if wait is None else math.ceil(wait)
    throttled = exceptions.Throttled(seconds)
    refusal = ApiRefusal(code="throttled", message=str(throttled.detail), game=game)
    refusal.wait = seconds
    return refusal


def _validation_errors(detail: Any, param: str | None = None) -> list[dict[str, Any]]:
    if isinstance(detail, dict):
        return [
            error
            for field, value in detail.items()
            for error in _validation_errors(
                value, None if field == "non_field_errors" else _joined(param, field)
            )
        ]
    if isinstance(detail, list):
        return [error for item in detail for error in _validation_errors(item, param)]
    return [{"code": "malformed", "message": str(detail), "param": param}]


def _joined(param: str | None, field: Any) -> str:
    return f"{param}.{field}" if param else str(field)


def _errors(exc: exceptions.APIException) -> list[dict[str, Any]]:
    if isinstance(exc, ApiRefusal):
        return [{"code": exc.error_code, "message": str(exc.detail), "param": exc.param}]
    if isinstance(exc, exceptions.ValidationError):
        return _validation_errors(exc.detail)
    codes = exc.get_codes()
    drf_code = codes if isinstance(codes, str) else exc.default_code
    code = _DRF_CODES.get(drf_code, "malformed" if exc.status_code == 400 else drf_code)
    message = str(exc.detail)
    if code == "permission_denied" and message.startswith("CSRF Failed"):
        code = "csrf_failed"
    return [{"code": code, "message": message, "param": None}]


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler (its headers: WWW-Authenticate, Retry-After, Allow), with the body
    in the API's one shape. Django's 404, 403 and 400 are read as DRF's."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, BadRequest):
        exc = exceptions.ParseError(str(exc) or "That request cannot be read.")
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    response.data = refusal_body(exc)
    return response


def refusal_body(exc: exceptions.APIException) -> dict[str, Any]:
    """The one shape of a refusal, over HTTP and over the match socket."""
    body: dict[str, Any] = {"status": exc.status_code, "errors": _errors(exc)}
    if isinstance(exc, ApiRefusal) and exc.game is not None:
        body["game"] = exc.game
    return body
