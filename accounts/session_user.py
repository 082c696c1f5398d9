"""The signed-in user of a request read with another row: a move reads its player with
the game's locked row, where Django would read the user in a query of its own first.

Django's AuthenticationMiddleware reads the user lazily, on the first use of
`request.user`: the id and backend from the session, the row by the backend, then the
session's hash of the password checked against the row (a password changed elsewhere
signs every other session out). A move would pay that query before its one locked read
of the game, which can bring the same row in the same round trip. So a game's action
asks for a claim (the session's user id, no query), the action's locked read brings the
user's row with the game's, and `UserClaim.accept` runs Django's checks on it
(django.contrib.auth.get_user): the backend is still configured and reads users as
ModelBackend does, the user may sign in (active), and the session's hash matches, or
matches a fallback secret's, in which case the session is given a new key and the
current hash after the action (session_rekeyed), as Django does. An accepted user
becomes `request.user` without a query.

Every refusal is Django's own: a claim its row refused, a claim whose read found no
game (its user may be gone), and any other path of the action that needs its user
(a malformed request, a finish that only asks) raise SignedOut once
`request.user`, read by Django's get_user, is anonymous; session_login_required then
answers as login_required does. That read happens outside the action's transaction
(whose rollback would take a flush back), and get_user flushes the session where it
flushes one (a hash that no longer matches) and keeps it where it keeps one (a user
deleted or disabled). Only the refusal pays that second read of the user.

A request whose user was already read, or whose backend is not a ModelBackend, makes no
claim: the action reads `request.user` as before."""

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponseBase
from django.utils.crypto import constant_time_compare

CACHED_USER = "_cached_user"
"""Where AuthenticationMiddleware's lazy `request.user` keeps the user it read."""
REKEY_DUE = "_session_rekey_due"
"""The hash a session verified by a fallback secret takes with its new key."""


@dataclass(frozen=True)
class UserClaim:
    """The user a request's session says it is, by id, not yet checked against its row."""

    user_id: int
    accept: Callable[[User], bool]
    """Django's checks of the session against the user's row (read by the caller):
    whether the request is this user's, who then becomes `request.user`. A refused
    claim leaves `request.user` to Django's own read (SignedOut)."""


class SignedOut(Exception):
    """No user is signed in by the session that asked for an action (its password
    changed, the account was disabled or deleted, ...): nothing was done, and the
    answer is login_required's."""


def session_user_claim(request: HttpRequest) -> UserClaim | None:
    """The session's claim to a user, or None where the request reads `request.user`
    as usual (already read, no user signed in, or a backend that is no ModelBackend)."""
    if hasattr(request, CACHED_USER):
        return None
    try:
        raw_id = request.session[SESSION_KEY]
        backend_path = request.session[BACKEND_SESSION_KEY]
    except KeyError:
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    backend = load_backend(backend_path)
    if not isinstance(backend, ModelBackend):
        return None
    user_id = get_user_model()._meta.pk.to_python(raw_id)

    def accept(user: User) -> bool:
        accepted = (
            user.pk == user_id
            and backend.user_can_authenticate(user)
            and _session_hash_verified(request, user)
        )
        if accepted:
            setattr(request, CACHED_USER, user)
        return accepted

    return UserClaim(user_id=int(user_id), accept=accept)


def _session_hash_verified(request: HttpRequest, user: User) -> bool:
    session_hash = request.session.get(HASH_SESSION_KEY)
    if not session_hash:
        return False
    current = user.get_session_auth_hash()
    if constant_time_compare(session_hash, current):
        return True
    if any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    ):
        setattr(request, REKEY_DUE, current)
        return True
    return False


def session_rekeyed(request: HttpRequest) -> None:
    """After the action, outside its transaction (whose rollback would take the new
    key's row back while the cookie carried it): a session that a fallback secret
    verified gets a new key and the current secret's hash, as Django gives it."""
    current = getattr(request, REKEY_DUE, None)
    if current is not None:
        delattr(request, REKEY_DUE)
        request.session.cycle_key()
        request.session[HASH_SESSION_KEY] = current


def session_user(request: HttpRequest) -> User:
    """`request.user` (read by Django's get_user unless a claim was accepted) for an
    action's path that needs it; SignedOut where nobody is signed in."""
    user = request.user
    if not user.is_authenticated:
        raise SignedOut("This session is signed out: sign in again.")
    return user


View = TypeVar("View", bound=Callable[..., HttpResponseBase])


def session_login_required(view: View) -> View:
    """login_required for a view that reads its user with its own row: a session that
    claims a user is let through unread (the view's UserClaim is checked with that
    row), any other request is read as login_required reads it. A view that finds
    nobody signed in raises SignedOut, and gets login_required's answer."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if session_user_claim(request) is None and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            return view(request, *args, **kwargs)
        except SignedOut:
            # Django's get_user reads the user now, if nothing did: it flushes the
            # session or keeps it, as for login_required.
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
        # The claim's row and Django's read disagreed (the row changed in between):
        # the view runs again with the user Django read, as login_required runs it.
        return view(request, *args, **kwargs)

    return wrapped  # type: ignore[return-value]
