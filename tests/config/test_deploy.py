"""The production profile passes `check --deploy`, and the stack under test is the one asked for."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_profile_passes_check_deploy_with_no_warning():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="arena.example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_profile_refuses_to_start_without_a_secret_key():
    env = {"DJANGO_SETTINGS_MODULE": "config.settings.production", "ALLOWED_HOSTS": "x.example"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={k: v for k, v in {**os.environ, **env}.items() if k != "SECRET_KEY"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.django_db
def test_the_database_is_the_one_database_url_names():
    expected = (
        "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    )
    assert connection.vendor == expected


def test_the_cache_is_redis_when_redis_url_is_set():
    cache.set("arena-probe", "ok", 5)
    assert cache.get("arena-probe") == "ok"
    expected = RedisCache if os.environ.get("REDIS_URL") else LocMemCache
    assert isinstance(caches["default"], expected)
