"""An app's session token lives through a rotation of SECRET_KEY as a browser's session
does (issue 30, item 17): made under key A, it keeps working, request after request,
once B is the key and A a fallback; and when A leaves the fallbacks it lives on if it
was used meanwhile (its session then holds B's hash, as a browser's does) and dies if
it was not. Each case is asked of a browser session in the same story, and the token
must fare exactly as the session does, through every way an app uses its token: the
API's views (DRF), allauth's own endpoints and the match socket's handshake."""

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from api.authentication import user_of_session_token
from tests.api.conftest import ApiClient

pytestmark = pytest.mark.django_db

KEY_A = "the-secret-key-a-before-the-rotation-" + "a" * 20
KEY_B = "the-secret-key-b-after-the-rotation-" + "b" * 20
ROTATED = {"SECRET_KEY": KEY_B, "SECRET_KEY_FALLBACKS": [KEY_A]}
A_RETIRED = {"SECRET_KEY": KEY_B, "SECRET_KEY_FALLBACKS": []}
REQUESTS_WHILE_ROTATED = 12


def _token_works(app: ApiClient, step: int) -> bool:
    """One use of the token, by turns through each way an app uses it, its session read
    from its database row (the first time, and every other time) or from the cache."""
    if step % 2 == 0:
        cache.clear()
    kind = step % 3
    if kind == 0:
        return app.get(reverse("api:me")).status_code == 200
    if kind == 1:
        return app.get("/api/v1/auth/session").status_code == 200
    return user_of_session_token(app.token or "").is_authenticated


def _session_works(browser: Client) -> bool:
    return browser.get(reverse("games:history")).status_code == 200


@pytest.mark.parametrize("used_while_rotated", [True, False], ids=["used", "unused"])
def test_a_token_lives_through_a_key_rotation_as_a_session_does(player, used_while_rotated):
    app, browser = ApiClient(), Client()
    with override_settings(SECRET_KEY=KEY_A):
        assert app.log_in(player.username).status_code == 200
        browser.force_login(player)
    token = app.token

    answers: dict[str, list[bool]] = {"token": [], "session": []}
    if used_while_rotated:
        with override_settings(**ROTATED):
            for step in range(REQUESTS_WHILE_ROTATED):
                answers["token"].append(_token_works(app, step))
                answers["session"].append(_session_works(browser))
        assert app.token == token, "the app was given no other token"
        assert answers["session"] == [True] * REQUESTS_WHILE_ROTATED
        assert answers["token"] == answers["session"]

    with override_settings(**A_RETIRED):
        after = {
            "token": [_token_works(app, step) for step in range(3)],
            "session": [_session_works(browser) for _step in range(3)],
        }
    assert after["session"] == [used_while_rotated] * 3
    assert after["token"] == after["session"]
