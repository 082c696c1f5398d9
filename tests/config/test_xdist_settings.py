"""Under pytest-xdist every worker has a Redis database of its own
(config/settings/test.py): Django's RedisCache.clear() and the live-rank tests'
FLUSHDB empty a whole database, key prefixes notwithstanding."""

import os

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config.settings.test import redis_url_of_xdist_worker


def test_each_worker_counts_down_from_the_database_redis_url_names():
    url = "redis://127.0.0.1:6379/15"
    workers = [redis_url_of_xdist_worker(url, f"gw{n}") for n in range(3)]

    assert workers == [
        "redis://127.0.0.1:6379/15",
        "redis://127.0.0.1:6379/14",
        "redis://127.0.0.1:6379/13",
    ]
    assert redis_url_of_xdist_worker("redis://:secret@cache:6380", "gw0") == (
        "redis://:secret@cache:6380/0"
    )


def test_a_worker_without_a_database_of_its_own_is_refused():
    with pytest.raises(ImproperlyConfigured, match="gw2 would need Redis database -1"):
        redis_url_of_xdist_worker("redis://127.0.0.1:6379/1", "gw2")


def test_this_worker_s_cache_broker_and_ranks_use_its_own_database_and_prefixes():
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    named = os.environ.get("REDIS_URL")
    if not (worker and named):
        pytest.skip("one process on the configured Redis: nothing is shared")
    own = redis_url_of_xdist_worker(named, worker)

    assert settings.REDIS_URL == settings.CELERY_BROKER_URL == own
    assert settings.CACHES["default"]["LOCATION"] == own
    prefixes = (settings.CACHES["default"]["KEY_PREFIX"], settings.LEADERBOARD_KEY_PREFIX)
    assert prefixes == (f"arena-test-{worker}", f"arena-test-{worker}:lb")
