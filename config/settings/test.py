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
