"""A socket lives as long as the sign-in it was opened with. Each signed-in socket joins
a channel-layer group of its user's; whatever may end the user's sign-ins (a sign-out,
a password change, the account disabled or deleted: accounts.signals) tells that
group once it commits, and each socket of it checks its own sign-in again and closes
with SIGN_IN_FIRST if it has ended. Through the channel layer (Redis where REDIS_URL is
set), so a socket on any node hears it.

The channel layer delivers at most once: a socket that acts (the API's) also checks
its sign-in with every action, so no action is applied after its sign-in ended even if
the word never came."""

import hashlib
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.middleware import BaseMiddleware
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib.auth import get_user
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.http import HttpRequest

from accounts.sessions import SessionStore
from core.sockets import SIGN_IN_FIRST, DatabaseFreeDispatchConsumer

logger = logging.getLogger(__name__)

ACCOUNT_CHANGED = "account.changed"


def account_group(user_id: Any) -> str:
    return f"account-{user_id}"


def session_mark(session_key: str | None) -> str | None:
    """What names a session on the channel layer: a digest, never the key itself (a
    key is a sign-in)."""
    if not session_key:
        return None
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def account_sockets_tell(*, user_id: Any, ended_session_key: str | None = None) -> None:
    """Once the change commits, tell the user's sockets to check their sign-in; the
    sockets of the session signed out this moment close without looking (a sign-out
    ends its session just after its signal)."""
    transaction.on_commit(partial(_tell, user_id, session_mark(ended_session_key)))


def _tell(user_id: Any, ended: str | None) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            account_group(user_id), {"type": ACCOUNT_CHANGED, "ended": ended}
        )
    except Exception:
        # A sign-out never fails for the sockets: each checks again as it acts.
        logger.warning("could not tell the sockets of user %s to check their sign-in", user_id)


class KeyKeptSessionStore(SessionStore):
    """The web session as a socket reads it. Django's get_user gives a session that only
    a fallback secret verifies (SECRET_KEY rotated, the old key in SECRET_KEY_FALLBACKS)
    a new key and the current hash, and a request's answer hands its browser the new
    key in a cookie. A socket can hand its browser nothing: a new key would end the
    page's session. So here the session keeps its key and takes the current hash in
    place (session_user saves it), and the page's next request finds it current."""

    # Django salts a session's encoding with its store's class name
    # (SessionBase.key_salt): the rows are SessionStore's.
    key_salt = "django.contrib.sessions." + SessionStore.__qualname__

    def cycle_key(self) -> None:
        """Keep the key: get_user sets the current hash next."""


def session_user(session_key: str | None) -> AbstractBaseUser | AnonymousUser:
    """The user a web session is signed in as now, read by Django's own get_user (the
    session's hash checked against the user's password and the fallback secrets', an
    inactive user refused, a session whose hash matches none ended), its key kept
    (KeyKeptSessionStore); a visitor once it has ended."""
    if not session_key:
        return AnonymousUser()
    request = HttpRequest()
    request.session = session = KeyKeptSessionStore(session_key)
    user = get_user(request)
    if session.modified and session.session_key is not None:
        session.save()  # the current hash, which a fallback secret's made due
    return user


class SessionUserMiddleware(BaseMiddleware):  # type: ignore[misc]  # untyped
    """scope["user"]: the user the handshake's web session signs in (session_user), in
    place of channels' AuthMiddleware, whose read of it tries no fallback secret and
    ends the session where one would have verified it. Under channels'
    SessionMiddleware, which gives the scope its session (its key from the cookie)."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        scope = dict(scope)
        scope["user"] = await database_sync_to_async(session_user)(scope["session"].session_key)
        return await super().__call__(scope, receive, send)


def session_auth_middleware_stack(inner: Any) -> Any:
    """channels' AuthMiddlewareStack with the user read by session_user."""
    return CookieMiddleware(SessionMiddleware(SessionUserMiddleware(inner)))


class SignedInConsumer(DatabaseFreeDispatchConsumer):
    """A consumer of a signed-in user's socket: it hears its user's account changes and
    closes with SIGN_IN_FIRST once its own sign-in has ended (`signed_in` says)."""

    account: str | None = None
    session: str | None = None
    signed_out = False

    def signed_in(self) -> bool:
        """Whether the socket's sign-in is still live (synchronous: a database thread)."""
        raise NotImplementedError

    async def watch_sign_in(self, *, user_id: Any, session_key: str | None) -> None:
        self.account = account_group(user_id)
        self.session = session_mark(session_key)
        await self.channel_layer.group_add(self.account, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.account is not None:
            await self.channel_layer.group_discard(self.account, self.channel_name)

    async def dispatch(self, message: dict[str, Any]) -> None:
        if self.signed_out and message["type"] != "websocket.disconnect":
            return  # closed for good: nothing is acted on or sent after
        await super().dispatch(message)

    async def account_changed(self, event: dict[str, Any]) -> None:
        check: Callable[[], bool] = self.signed_in
        if event.get("ended") == self.session or not await database_sync_to_async(check)():
            await self.sign_out()

    async def sign_out(self) -> None:
        """Close for good: nothing the socket receives after is acted on."""
        self.signed_out = True
        await self.close(code=SIGN_IN_FIRST)
