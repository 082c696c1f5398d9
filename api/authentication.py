"""How a client proves who it is: an app's allauth session token (its requests and its
match socket), or a browser's cookie."""

from dataclasses import dataclass
from typing import Any

from allauth.headless.contrib.rest_framework.authentication import XSessionTokenAuthentication
from allauth.headless.internal.sessionkit import authenticate_by_x_session_token
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from rest_framework.request import Request

SESSION_TOKEN_HEADER = "X-Session-Token"


class SessionTokenAuthentication(XSessionTokenAuthentication):  # type: ignore[misc]
    """allauth headless's X-Session-Token (the token its app client's login returns).

    A token that names no live session is refused (401) rather than read as a
    visitor: a client whose session ended learns it at once, even on a public
    leaderboard. So is a token whose session no longer signs its user in (the
    password changed on another device, the account disabled): allauth's class read
    that one as a visitor, so its first request was `not_authenticated` and only the
    next, once Django had flushed the session, `invalid_session_token`. A request
    without any credentials is answered 401 with the header to send, where allauth's
    class would let DRF answer 403."""

    allow_invalid_session_tokens = False
    allow_anonymous_users = False

    def authenticate_header(self, request: Request) -> str:
        return SESSION_TOKEN_HEADER


@dataclass(frozen=True)
class TokenSignIn:
    user: AbstractBaseUser | AnonymousUser
    session_key: str | None
    """The key of the token's session (None for a dead or unknown token)."""


def sign_in_of_session_token(token: str) -> TokenSignIn:
    """Who a session token is signed in as, and its session; a visitor for a dead or
    unknown one. The REST authentication's own lookup (allauth's)."""
    found = authenticate_by_x_session_token(token)
    if found is None or found.user is None:
        return TokenSignIn(user=AnonymousUser(), session_key=None)
    return TokenSignIn(user=found.user, session_key=found.session.session_key)


def user_of_session_token(token: str) -> AbstractBaseUser | AnonymousUser:
    """The user a session token is signed in as; a visitor for a dead or unknown one."""
    return sign_in_of_session_token(token).user


class SessionTokenSocketMiddleware(BaseMiddleware):  # type: ignore[misc]  # channels is untyped
    """An app's socket signs in as its requests do, by the X-Session-Token header of
    the handshake, and by nothing else: no cookie, so no other site's page can open
    a socket as its visitor (the reason the web's sockets check the Origin)."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        sign_in = (
            await database_sync_to_async(sign_in_of_session_token)(token)
            if (token := session_token_of(scope))
            else TokenSignIn(user=AnonymousUser(), session_key=None)
        )
        return await super().__call__(
            {**scope, "user": sign_in.user, "session_key": sign_in.session_key}, receive, send
        )


def session_token_of(scope: dict[str, Any]) -> str:
    """The X-Session-Token header of a socket's handshake ("" without one)."""
    headers = dict(scope.get("headers", []))
    return str(headers.get(SESSION_TOKEN_HEADER.lower().encode(), b"").decode("latin-1"))
