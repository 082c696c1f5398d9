"""What the API refuses before any of its views reads a request: a body or a query
string it cannot read, and a method one of allauth's endpoints does not take. Both
DRF's views and allauth's headless views (which parse their bodies themselves, with
json.loads, whatever the content type) sit behind it, so each of these refusals is
the API's one error shape (api.errors) on every endpoint, where it was Django's HTML
400, a bare 405 or a server error.

- The body: larger than DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), or JSON nested deeper
  than core.json_depth.MAX_DEPTH (a thousand brackets made the parser's recursion
  fail: a 500), is `400 malformed`.
- The query string: longer than MAX_QUERY_LENGTH or of more fields than
  DATA_UPLOAD_MAX_NUMBER_FIELDS is `400 malformed`; below every server's limit on a
  request line (docs/api.md, "Refusals"), so that it is the one shape on any of them.
  Its `page`, the one parameter of every list, is a whole number from 1 or refused
  (api.query.page_refusal), on every list alike.
- An allauth endpoint answers a method it has no handler for with `405
  method_not_allowed` and its Allow header, before allauth validates the body as if
  the method were one it takes (TRACE on auth/login answered "password: required").
"""

from collections.abc import Callable
from typing import Any

from allauth.headless.base.views import APIView as HeadlessView
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse

from api.errors import ApiRefusal, refusal_body
from api.query import page_refusal
from core.json_depth import MAX_DEPTH, json_too_deep

API_PATH = "/api/"
MAX_QUERY_LENGTH = 2_048
"""Characters: no query string of the API comes near (a page, a filter, a code)."""


def refusal_response(refusal: ApiRefusal, headers: dict[str, str] | None = None) -> JsonResponse:
    return JsonResponse(refusal_body(refusal), status=refusal.status_code, headers=headers)


def _malformed(message: str) -> JsonResponse:
    return refusal_response(ApiRefusal(code="malformed", message=message))


def _body_refusal(request: HttpRequest) -> JsonResponse | None:
    try:
        body = request.body
    except RequestDataTooBig:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 2**20
        return _malformed(f"The body is larger than the API reads ({limit:g} MB).")
    if not body:
        return None
    # As UTF-8 (allauth's reading) and in the charset the request declares (DRF's).
    encodings = dict.fromkeys(("utf-8", request.encoding or "utf-8"))
    try:
        texts = [body.decode(encoding, "replace") for encoding in encodings]
    except LookupError:  # a codec of Python's that is no text encoding (rot13, hex)
        return _malformed(f"The body's charset {request.encoding!r} is no text encoding.")
    if any(json_too_deep(text) for text in texts):
        return _malformed(f"The body nests arrays or objects more than {MAX_DEPTH} deep.")
    return None


def _query_refusal(request: HttpRequest) -> JsonResponse | None:
    if len(request.META.get("QUERY_STRING", "")) > MAX_QUERY_LENGTH:
        return _malformed(f"The query string is longer than {MAX_QUERY_LENGTH} characters.")
    try:
        query = request.GET
    except TooManyFieldsSent:
        return _malformed("The query string has more fields than the API reads.")
    page = page_refusal(query)
    return refusal_response(page) if page is not None else None


class ApiRequestMiddleware:
    """Refuses, in the API's one shape, what the API's views cannot read (above)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path_info.startswith(API_PATH):
            refusal = _query_refusal(request) or _body_refusal(request)
            if refusal is not None:
                return refusal
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponseBase],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        view_class = getattr(view_func, "view_class", None)
        if view_class is None or not issubclass(view_class, HeadlessView):
            return None
        allowed = [
            method
            for method in view_class.http_method_names
            if hasattr(view_class, method) or (method == "head" and hasattr(view_class, "get"))
        ]
        if request.method is None or request.method.lower() in allowed:
            return None
        refusal = ApiRefusal(
            code="method_not_allowed",
            message=f"That endpoint does not take {request.method}.",
        )
        return refusal_response(refusal, {"Allow": ", ".join(m.upper() for m in allowed)})
