"""Test profile: the same stack as local (embedded, or PostgreSQL and Redis by env)."""

import os
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import CACHES, CHANNEL_LAYERS, REDIS_URL, STORAGES

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# Tests render templates without running collectstatic first.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Tests run tasks in-process so that they can assert their effects; the ranks
# they write still go to the real Redis when REDIS_URL is set.
CELERY_TASK_ALWAYS_EAGER = True
LEADERBOARD_KEY_PREFIX = "arena-test:lb"
# A page never makes challenges in a test unless the test asks (tests/challenges).
CHALLENGE_MAKE_ON_READ = False
CHALLENGE_SEED_BUDGET_MS = 2000


def redis_url_of_xdist_worker(url: str, worker: str) -> str:
    """The Redis database of a pytest-xdist worker (`gw0`, `gw1`, ...): the one
    `url` names minus the worker's number, so CI's 15 gives 15 and 14."""
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0) - int(worker.removeprefix("gw"))
    if database < 0:
        raise ImproperlyConfigured(
            f"pytest-xdist worker {worker} would need Redis database {database}: "
            "name a higher database in REDIS_URL or run fewer workers"
        )
    return parts._replace(path=f"/{database}").geturl()


# Under pytest-xdist (`make pytest` runs two processes) each worker has a Redis
# database of its own: the cache is cleared around every test (tests/conftest.py)
# and the live-rank tests flush and list keys, and each of these acts on the
# whole database whatever the key prefix. The worker's own key prefixes keep
# its keys apart besides.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL and XDIST_WORKER:
    REDIS_URL = redis_url_of_xdist_worker(REDIS_URL, XDIST_WORKER)
    CELERY_BROKER_URL = REDIS_URL
    CACHES = {
        **CACHES,
        "default": {
            **CACHES["default"],
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"arena-test-{XDIST_WORKER}",
        },
    }
    LEADERBOARD_KEY_PREFIX = f"arena-test-{XDIST_WORKER}:lb"
    CHANNEL_LAYERS = {
        "default": {
            **CHANNEL_LAYERS["default"],
            "CONFIG": {"hosts": [REDIS_URL], "prefix": f"arena-test-{XDIST_WORKER}:ws"},
        }
    }
