"""With Redis down the account pages answer, and the login throttle still holds.

Each test starts its own redis-server on a spare port (never the shared one), points
the default cache at it as the settings do with REDIS_URL, stops it, and uses the
account pages. Skipped only where no redis-server binary exists, outside CI.
"""

import logging
import time
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from accounts import cache as fail_open
from accounts import sessions
from tests import own_redis as own_redis_server
from tests.accounts.conftest import PASSWORD, error_texts

pytestmark = pytest.mark.django_db

LOGIN_URL = "/accounts/login/"
TOO_MANY = "Too many failed login attempts. Try again later."
BAD_CREDENTIALS = "The username and/or password you specified are not correct."


class OwnRedis(own_redis_server.OwnRedis):
    def keys(self) -> list[bytes]:
        return list(redis.Redis.from_url(self.url).scan_iter("*allauth:rl:*"))


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    own_redis_server.require_redis_server()
    server = OwnRedis()
    server.start()
    caches = {
        "default": {
            **settings.CACHES["default"],
            "BACKEND": "accounts.cache.FailOpenRedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": "outage-test",
        }
    }
    caches["default"].setdefault("OPTIONS", {"socket_connect_timeout": 2, "socket_timeout": 2})
    fail_open._outage_until.clear()
    try:
        with override_settings(CACHES=caches):
            yield server
    finally:
        server.remove()
        fail_open._outage_until.clear()


def test_the_settings_use_the_fail_open_cache_with_redis():
    """What the tests below exercise is what REDIS_URL configures."""
    if not settings.REDIS_URL:
        pytest.skip("the embedded default has no Redis cache")
    assert settings.CACHES["default"]["BACKEND"] == "accounts.cache.FailOpenRedisCache"
    assert settings.CACHES["default"]["OPTIONS"]["socket_timeout"] > 0


def test_the_account_pages_answer_while_redis_is_down(client, own_redis, alice):
    # Redis up: the counters are in Redis.
    client.post(LOGIN_URL, {"login": "alice", "password": "wrong"})
    assert own_redis.keys(), "the failed login should be counted in Redis"

    own_redis.stop()

    for url in [LOGIN_URL, reverse("account_signup"), reverse("account_reset_password")]:
        assert client.get(url).status_code == 200, url
    logged_in = client.post(LOGIN_URL, {"login": "alice", "password": PASSWORD})
    assert logged_in.status_code == 302
    # Signing out needs the session's copy in Redis gone (tests/accounts/
    # test_sign_out_while_redis_hangs.py): a fresh visitor signs up and asks for a reset.
    visitor = Client()
    signed_up = visitor.post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a-long-enough-secret",
            "password2": "a-long-enough-secret",
        },
    )
    assert signed_up.status_code == 302
    assert User.objects.filter(username="newcomer").exists()
    reset = Client().post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert reset.status_code == 302
    assert reset["Location"] == reverse("account_reset_password_done")
    assert any("alice@example.com" in message.to for message in mail.outbox)


def test_the_login_throttle_still_holds_in_process_memory(client, own_redis, alice, caplog):
    own_redis.stop()

    with caplog.at_level(logging.WARNING, logger="accounts.cache"):
        answers = [
            error_texts(client.post(LOGIN_URL, {"login": "alice", "password": "wrong"}))
            for _attempt in range(5)
        ]
        refused = client.post(LOGIN_URL, {"login": "alice", "password": PASSWORD})

    assert answers == [[BAD_CREDENTIALS]] * 5
    assert error_texts(refused) == [TOO_MANY]
    assert "_auth_user_id" not in client.session
    warnings = [record for record in caplog.records if record.name == "accounts.cache"]
    assert len(warnings) == 1, "one warning per outage, not one per request"
    assert "unreachable" in warnings[0].getMessage()


def test_redis_counters_are_used_again_once_it_is_back(client, own_redis, alice):
    own_redis.stop()
    client.post(LOGIN_URL, {"login": "alice", "password": "wrong"})
    assert fail_open._outage_until

    own_redis.start()
    # As if RETRY_SECONDS had passed.
    fail_open._outage_until.update(dict.fromkeys(fail_open._outage_until, 0.0))
    client.post(LOGIN_URL, {"login": "alice", "password": "wrong"})

    assert not fail_open._outage_until
    assert own_redis.keys(), "the counters are back in Redis"


def test_other_keys_still_fail_while_redis_is_down(own_redis):
    """Only the rate-limit counters fall back: a task lock must not silently stop
    locking across workers."""
    own_redis.stop()

    with pytest.raises(redis.ConnectionError):
        cache.add("reviews:sweep-lock", "1", 60)


def test_a_session_outlives_an_outage_and_the_cache_is_not_asked_again_at_once(
    client, own_redis, alice
):
    """Sessions are read from Redis and kept in the database (accounts/sessions.py):
    while Redis is down a signed-in player stays signed in, read from the database,
    and after the first failure the cache is skipped for a while instead of costing
    each request a timeout. Signing out waits for Redis."""
    sessions._outage_until = 0.0
    client.force_login(alice)
    history = reverse("games:history")
    assert client.get(history).status_code == 200

    own_redis.stop()

    assert client.get(history).status_code == 200, "still signed in, from the database"
    assert sessions._outage_until > time.monotonic()
    began = time.monotonic()
    for _ in range(5):
        assert client.get(history).status_code == 200
    assert time.monotonic() - began < 2, "the cache was not tried again meanwhile"
    # A sign-out cannot delete the copy in Redis: it fails, and nothing is deleted.
    assert client.post(reverse("account_logout")).status_code == 503
    assert client.get(history).status_code == 200, "still signed in, as the answer said"
    own_redis.start()
    assert client.post(reverse("account_logout")).status_code == 302
    assert client.get(history).status_code == 302, "signed out once Redis answers"
    sessions._outage_until = 0.0
