"""The one authentication backend: allauth's, with one password hash per attempt.

allauth's backend tries the login as an e-mail address and then as a username, and
tries the e-mail address again when allauth passes it under both names (it does, for
an e-mail typed into the login form): a known address with a wrong password was
hashed twice, besides the dummy hash of Django's ModelBackend for the username
nobody has, against once plus the dummy for an unknown address. That difference
told which addresses are registered. Here a user's password is checked at most once
per attempt and an attempt that checks none hashes the password once (allauth's own
mitigation), so every attempt for one login costs one hash, known or not. This
backend replaces ModelBackend in AUTHENTICATION_BACKENDS (it is one, permissions
included), so nothing else hashes.
"""

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest


class ArenaAuthenticationBackend(AuthenticationBackend):  # type: ignore[misc]
    def authenticate(
        self, request: HttpRequest | None, **credentials: Any
    ) -> AbstractBaseUser | None:
        # Django makes a new backend for every authenticate() call, so this
        # memo is per attempt: user pk -> what checking their password gave.
        self._checked: dict[Any, AbstractBaseUser | None] = {}
        user: AbstractBaseUser | None = super().authenticate(request, **credentials)
        return user

    def _check_password(
        self, user: AbstractBaseUser | None, password: str
    ) -> AbstractBaseUser | None:
        if user is None:
            return None
        if user.pk not in self._checked:
            self._checked[user.pk] = super()._check_password(user, password)
        return self._checked[user.pk]
