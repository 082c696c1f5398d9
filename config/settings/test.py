"""Test profile: the same stack as local (embedded, or PostgreSQL and Redis by env)."""

from .base import *  # noqa: F403
from .base import STORAGES

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
