"""allauth headless's session tokens, looked up with one query instead of two, and kept
through a rotation of SECRET_KEY as the browser's sessions are."""

from allauth.headless.tokens.strategies.sessions import SessionTokenStrategy
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.base import SessionBase
from django.utils.crypto import constant_time_compare

from accounts.sessions import SessionStore


class TokenSessionStore(SessionStore):
    """The session an app's token names, whose key is the token itself.

    A session whose hash only a fallback secret verifies (SECRET_KEY rotated, the old
    key in SECRET_KEY_FALLBACKS) is given a new key and the current hash by Django's
    get_user, and a browser learns the new key from the answer's cookie. An app learns
    a token only from the answers that carry one, so a new key would end its token
    after one request. Here such a session keeps its key and takes the current hash in
    place, saved at once, which keeps the token exactly as long as the browser's
    session lives: through the rotation, and after the old key leaves the fallbacks
    once it was used meanwhile. Every other change of key (a log-in, a password
    change) is Django's, and gives the app its new token as before."""

    # The rows are SessionStore's (a log-in saves them through it), and Django salts a
    # session's encoding with its store's class name (SessionBase.key_salt).
    key_salt = "django.contrib.sessions." + SessionStore.__qualname__

    def cycle_key(self) -> None:
        if not self._rehashed_in_place():
            super().cycle_key()

    def _rehashed_in_place(self) -> bool:
        stored = self.get(HASH_SESSION_KEY)
        user_id = self.get(SESSION_KEY)
        if not (stored and user_id is not None and settings.SECRET_KEY_FALLBACKS):
            return False
        user_model = get_user_model()
        user = user_model._default_manager.filter(pk=user_model._meta.pk.to_python(user_id)).first()
        if user is None or not any(
            constant_time_compare(stored, fallback)
            for fallback in user.get_session_auth_fallback_hash()
        ):
            return False
        self[HASH_SESSION_KEY] = user.get_session_auth_hash()
        self.save()
        return True


class OneReadSessionTokenStrategy(SessionTokenStrategy):  # type: ignore[misc]
    """allauth asks the session store whether the token's session exists, then loads
    it: two reads of the session row on every request of an app. Loading it once
    tells both, since a store that finds no live session clears its key (every
    Django session backend does)."""

    def lookup_session(self, session_token: str) -> SessionBase | None:
        session = TokenSessionStore(session_key=session_token)
        session.get(SESSION_KEY)  # loads the session row, and caches it on the store
        return session if session.session_key is not None else None
