"""A path under /api/v1/ that names no endpoint (a game id that is no UUID, a variant
with characters no slug has, a typo) is the API's 404 in its one JSON shape, not the
site's HTML page: a client reads every refusal the same way."""

from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView


class UnknownPathView(APIView):
    """Has no handler, so no operation in the schema: every request is refused before
    a handler would be looked for, and before any credentials are read."""

    authentication_classes = []
    permission_classes = [AllowAny]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        raise NotFound("The API has no such endpoint.")
