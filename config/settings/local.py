"""The default profile: the embedded stack unless DATABASE_URL / REDIS_URL say otherwise."""

from .base import *  # noqa: F403
