"""allauth's account adapter with the arena's two changes: the failed-login throttle
counts per login and address together, and sign-up refuses look-alike usernames."""

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal.ratelimit import get_ip
from django.http import HttpRequest

from accounts.usernames import username_normalise
from accounts.validators import validate_username_one_alphabet, validate_username_unlike_others


class ArenaAccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """The "key" of the `login_failed` rate limit: the typed login and the client's
        address (IPv6 by its /64, as allauth's per-address limit), so that failures
        from one address cannot lock the account for everyone else.

        allauth keys it by the login alone; its maintainer points to this method
        for adding the address (pennersr/django-allauth#3584). allauth uses it both
        to count failures and to clear them after a password reset.
        """
        login_key: str = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{login_key}|{get_ip(request)}"

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """allauth's checks, then the arena's: the name is stored in NFKC, may not
        mix alphabets with look-alike letters, nor look like another player's name
        (that last one needs the database, which a `shallow` check skips)."""
        username = username_normalise(username)
        cleaned: str = super().clean_username(username, shallow=shallow)
        validate_username_one_alphabet(cleaned)
        if not shallow:
            validate_username_unlike_others(cleaned)
        return cleaned
