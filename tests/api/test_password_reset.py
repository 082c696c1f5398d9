"""allauth's password reset by link, with a key that names nobody refused as allauth
refuses any bad key (api/views/password_reset.py): it was a 500."""

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.utils import user_pk_to_url_str

from tests.api.conftest import PASSWORD, error_codes

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-new-long-secret-phrase-42"


def _key(user) -> str:
    return f"{user_pk_to_url_str(user)}-{default_token_generator.make_token(user)}"


@pytest.mark.parametrize("key", ["-", "-abc", "-1-2"])
def test_a_key_with_nothing_before_its_dash_is_refused(anonymous_api, player, key):
    checked = anonymous_api.get("/api/v1/auth/password/reset", {"X-Password-Reset-Key": key})
    reset = anonymous_api.post(
        "/api/v1/auth/password/reset", {"key": key, "password": NEW_PASSWORD}
    )

    for response in (checked, reset):
        assert response.status_code == 400
        assert error_codes(response) == ["invalid_password_reset"]
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_a_real_key_still_resets_the_password(anonymous_api, player):
    checked = anonymous_api.get(
        "/api/v1/auth/password/reset", {"X-Password-Reset-Key": _key(player)}
    )
    reset = anonymous_api.post(
        "/api/v1/auth/password/reset", {"key": _key(player), "password": NEW_PASSWORD}
    )

    assert checked.status_code == 200
    assert checked.json()["data"]["user"]["username"] == player.username
    assert reset.status_code == 401  # allauth: reset, and not logged in (no login on reset)
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)
