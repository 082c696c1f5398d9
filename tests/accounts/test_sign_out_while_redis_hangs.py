"""A sign-out that cannot reach the cached copy of its session does not report success
(issue 30, item 16).

Sessions are read from Redis first, the database being the record (accounts/sessions.py).
A sign-out while Redis hangs used to delete the database row, skip the cached copy it
could not reach, and answer as a success; once Redis answered again the copy signed the
old cookie in, and its moves were applied. Here a redis-server of the test's own (never
the shared one) is the cache, and the test holds it with CLIENT PAUSE: the sign-out, on
the web and on the API, answers 503 and the session stays whole (honestly signed in),
and a sign-out once Redis answers again ends it for good, its copy included, so that
neither the old cookie nor the old token comes back.
"""

import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.test import override_settings
from django.urls import reverse

from accounts import cache as fail_open
from accounts import sessions
from games.models import Game
from tests.api.conftest import ApiClient
from tests.games.helpers import load_fixture, start_with_deck
from tests.own_redis import OwnRedis, require_redis_server

pytestmark = pytest.mark.django_db

PAUSE_MS = 6000
"""Longer than the sign-out's two reads of Redis at their 2 s socket timeout."""
SOCKET_TIMEOUT = 2


@pytest.fixture
def hanging_redis() -> Iterator[OwnRedis]:
    """The cache (and so the sessions) on a Redis of this test's own."""
    require_redis_server()
    server = OwnRedis()
    server.start()
    caches = {
        "default": {
            "BACKEND": "accounts.cache.FailOpenRedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": "sign-out-test",
            "OPTIONS": {
                "socket_connect_timeout": SOCKET_TIMEOUT,
                "socket_timeout": SOCKET_TIMEOUT,
            },
        }
    }
    sessions._outage_until = 0.0
    fail_open._outage_until.clear()
    try:
        with override_settings(CACHES=caches):
            yield server
    finally:
        server.remove()
        sessions._outage_until = 0.0
        fail_open._outage_until.clear()


def cached_copy_exists(server: OwnRedis, session_key: str) -> bool:
    client = server.client()
    try:
        return any(
            key.endswith(f"{sessions.SessionStore.cache_key_prefix}{session_key}".encode())
            for key in client.scan_iter("sign-out-test:*")
        )
    finally:
        client.close()


def wait_out(paused_at: float) -> None:
    """Until the pause is over, and the sessions' wait before asking Redis again."""
    time.sleep(max(0.0, paused_at + PAUSE_MS / 1000 - time.monotonic()) + 0.2)
    sessions._outage_until = 0.0


def test_a_sign_out_while_redis_hangs_fails_and_the_session_never_comes_back(
    client, player, hanging_redis
):
    game = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    history, logout = reverse("games:history"), reverse("account_logout")
    move = reverse("games:move", kwargs={"game_id": game.id})
    client.force_login(player)
    assert client.get(history).status_code == 200
    old_key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert cached_copy_exists(hanging_redis, old_key)

    hanging_redis.pause(PAUSE_MS)
    paused_at = time.monotonic()
    refused = client.post(logout)
    wait_out(paused_at)

    client.cookies[settings.SESSION_COOKIE_NAME] = old_key
    page = client.get(history)
    came_back = page.status_code == 200
    assert not (refused.status_code == 302 and came_back), (
        "the sign-out reported success, and the session came back once Redis answered"
    )
    assert refused.status_code == 503
    assert "could not sign you out" in refused.content.decode()
    assert "You have signed out" not in refused.content.decode()
    assert Session.objects.filter(session_key=old_key).exists(), "the session is whole"
    assert came_back, "still signed in, as the answer said"
    assert "You have signed out" not in page.content.decode()

    # Once Redis answers, signing out ends the session, its cached copy included.
    assert client.post(logout).status_code == 302
    assert not cached_copy_exists(hanging_redis, old_key)
    assert not Session.objects.filter(session_key=old_key).exists()
    for revision in range(3):
        client.cookies[settings.SESSION_COOKIE_NAME] = old_key
        assert client.get(history).status_code == 302
        client.cookies[settings.SESSION_COOKIE_NAME] = old_key
        answer = client.post(move, {"move": "draw", "revision": revision})
        assert answer.status_code == 302
        assert answer["Location"].startswith(reverse("account_login"))
    assert Game.objects.get(id=game.id).move_count == 0


def test_an_apps_sign_out_while_redis_hangs_fails_and_the_token_never_comes_back(
    player, hanging_redis
):
    app = ApiClient()
    assert app.log_in(player.username).status_code == 200
    assert app.get(reverse("api:me")).status_code == 200
    token = app.token
    assert token is not None
    assert cached_copy_exists(hanging_redis, token)

    hanging_redis.pause(PAUSE_MS)
    paused_at = time.monotonic()
    refused = app.delete("/api/v1/auth/session")
    wait_out(paused_at)

    works = app.get(reverse("api:me")).status_code == 200
    assert refused.status_code == 503
    assert refused.json()["errors"][0]["code"] == "session_store_unavailable"
    assert refused["Retry-After"]
    assert works, "the token still works, as the answer said"

    app.delete("/api/v1/auth/session")
    assert not cached_copy_exists(hanging_redis, token)
    assert not Session.objects.filter(session_key=token).exists()
    for _attempt in range(3):
        assert app.get(reverse("api:me")).status_code == 401


def test_a_sign_out_reaches_the_cached_copy_even_while_the_cache_is_being_skipped(
    client, player, hanging_redis
):
    """After a failure the sessions skip Redis for a few seconds (RETRY_SECONDS); a
    sign-out in that time still deletes the copy there, once Redis answers."""
    client.force_login(player)
    assert client.get(reverse("games:history")).status_code == 200
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    sessions._outage_until = time.monotonic() + 60
    assert client.post(reverse("account_logout")).status_code == 302
    assert not cached_copy_exists(hanging_redis, key)
    stored = sessions.SessionStore(key)
    sessions._outage_until = 0.0
    assert SESSION_KEY not in stored.load()
