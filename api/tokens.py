"""allauth headless's session tokens, looked up with one query instead of two."""

from allauth.headless.internal import sessionkit
from allauth.headless.tokens.strategies.sessions import SessionTokenStrategy
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase


class OneReadSessionTokenStrategy(SessionTokenStrategy):  # type: ignore[misc]
    """allauth asks the session store whether the token's session exists, then loads
    it: two reads of the session row on every request of an app. Loading it once
    tells both, since a store that finds no live session clears its key (every
    Django session backend does)."""

    def lookup_session(self, session_token: str) -> SessionBase | None:
        session = sessionkit.session_store(session_token)
        session.get(SESSION_KEY)  # loads the session row, and caches it on the store
        return session if session.session_key is not None else None
