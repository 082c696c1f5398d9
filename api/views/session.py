"""allauth headless's current session, whose log-out answers 200 once it has ended a
session.

allauth answers every log-out `401` (its protocol: "not authenticated", with the flows
to log in again), so an OpenAPI client generated from the schema, for which only a
2xx is a result, raised on every successful log-out. Here a log-out that ended a
session answers 200 with allauth's own body (`meta.is_authenticated: false`, the
flows); one without a session to end keeps allauth's 401 (docs/decisions.md)."""

import json
from http import HTTPStatus
from typing import Any

from allauth.headless.account import views
from django.http import HttpRequest, HttpResponse


class SessionView(views.SessionView):  # type: ignore[misc]
    def delete(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        ended = request.user.is_authenticated
        response: HttpResponse = super().delete(request, *args, **kwargs)
        if ended:
            body = json.loads(response.content)
            body["status"] = response.status_code = HTTPStatus.OK
            response.content = json.dumps(body).encode()
        return response
