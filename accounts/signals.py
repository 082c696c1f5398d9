"""Keep each user's username skeleton in step with the name, however it was saved; let
no sign-out succeed that leaves a copy of its session behind; tell a user's sockets when
their sign-ins may have ended (accounts.sockets)."""

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import HttpRequest

from accounts.services import username_skeleton_store
from accounts.sessions import SessionStore
from accounts.sockets import account_sockets_tell


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts-username-skeleton")
def username_skeleton_on_save(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    raw: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    # Fixtures load raw rows; a save of other fields only (last_login on every
    # login) leaves the name as it was.
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    username_skeleton_store(user=instance)


@receiver(user_logged_out, dispatch_uid="accounts-session-copy-deleted")
def session_copy_deleted_on_sign_out(
    sender: type[AbstractBaseUser] | None,
    request: HttpRequest,
    user: AbstractBaseUser | None,
    **kwargs: Any,
) -> None:
    """Every sign-out (the site's, the app's, the admin's) sends this before Django
    flushes the session: its cached copy goes first, or SessionNotEnded stops the
    sign-out with nothing deleted (accounts/sessions.py)."""
    session = getattr(request, "session", None)
    if user is None:
        return
    if isinstance(session, SessionStore):
        session.cached_copy_delete()
    # Only once the sign-out can no longer fail: its sockets close with it.
    account_sockets_tell(user_id=user.pk, ended_session_key=request.session.session_key)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts-sockets-saved")
def sockets_on_save(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    created: bool = False,
    raw: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    # A new password, the account disabled, ... end sign-ins; a new user has no socket,
    # and each login writes last_login only.
    if raw or created or update_fields == frozenset({"last_login"}):
        return
    account_sockets_tell(user_id=instance.pk)


@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts-sockets-deleted")
def sockets_on_delete(
    sender: type[AbstractBaseUser], instance: AbstractBaseUser, **kwargs: Any
) -> None:
    account_sockets_tell(user_id=instance.pk)
