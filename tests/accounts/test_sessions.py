"""Sessions come from the cache, and the database keeps them (accounts/sessions.py)."""

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts import sessions
from accounts.sessions import SessionStore

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_outage():
    sessions._outage_until = 0.0
    yield
    sessions._outage_until = 0.0


def test_the_site_uses_the_cached_database_sessions():
    assert settings.SESSION_ENGINE == "accounts.sessions"


def test_a_saved_session_is_read_from_the_cache_without_a_query(django_assert_num_queries):
    stored = SessionStore()
    stored["player"] = "alice"
    stored.save()
    with django_assert_num_queries(0):
        assert SessionStore(stored.session_key)["player"] == "alice"
    assert Session.objects.filter(session_key=stored.session_key).exists()


def test_a_session_missing_from_the_cache_is_read_from_the_database_and_cached(
    django_assert_num_queries,
):
    stored = SessionStore()
    stored["player"] = "alice"
    stored.save()
    cache.clear()
    with django_assert_num_queries(1):
        assert SessionStore(stored.session_key)["player"] == "alice"
    with django_assert_num_queries(0):
        assert SessionStore(stored.session_key)["player"] == "alice"


def test_a_signed_in_page_reads_the_user_once_and_not_the_session(player_client):
    player_client.get(reverse("games:history"))
    with CaptureQueriesContext(connection) as counted:
        assert player_client.get(reverse("games:history")).status_code == 200
    tables = [
        query["sql"].split(" FROM ")[1].split()[0]
        for query in counted.captured_queries
        if " FROM " in query["sql"]
    ]
    assert not any("django_session" in table for table in tables)
    assert sum("auth_user" in table for table in tables) == 1


def test_signing_out_removes_the_session_from_the_cache_and_the_database(player_client):
    key = player_client.session.session_key
    player_client.post(reverse("account_logout"))
    assert not Session.objects.filter(session_key=key).exists()
    assert cache.get(SessionStore.cache_key_prefix + key) is None
    assert SessionStore(key).load() == {}
