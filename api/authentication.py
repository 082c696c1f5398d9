"""How a client proves who it is: an app's allauth session token, or a browser's cookie."""

from allauth.headless.contrib.rest_framework.authentication import XSessionTokenAuthentication
from rest_framework.request import Request

SESSION_TOKEN_HEADER = "X-Session-Token"


class SessionTokenAuthentication(XSessionTokenAuthentication):  # type: ignore[misc]
    """allauth headless's X-Session-Token (the token its app client's login returns).

    A token that names no live session is refused (401) rather than read as a
    visitor: a client whose session ended learns it at once, even on a public
    leaderboard. A request without any credentials is answered 401 with the header
    to send, where allauth's class would let DRF answer 403."""

    allow_invalid_session_tokens = False

    def authenticate_header(self, request: Request) -> str:
        return SESSION_TOKEN_HEADER
