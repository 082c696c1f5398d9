"""/healthz checks the database and Redis and names what failed; /livez touches nothing."""

import json
import time
from unittest import mock

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.test import override_settings


def answer(client, path="/healthz"):
    response = client.get(path)
    return response, json.loads(response.content)


@pytest.mark.django_db
def test_healthz_is_ok_when_the_database_and_redis_answer(client):
    response, body = answer(client)

    assert response.status_code == 200
    assert body["status"] == "ok"
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["database"]["ms"] >= 0
    expected_redis = "ok" if settings.REDIS_URL else "not configured"
    assert body["checks"]["redis"]["status"] == expected_redis
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_neither_signs_in_nor_writes_a_session(client):
    from django.contrib.sessions.models import Session

    response = client.get("/healthz")

    assert response.status_code == 200
    assert not response.cookies
    assert Session.objects.count() == 0


@pytest.mark.django_db
def test_a_failing_database_gives_503_naming_it_without_its_message(client):
    error = OperationalError('connection to "db.internal" failed: password=hunter2')
    with mock.patch.object(connection, "cursor", side_effect=error):
        response, body = answer(client)

    assert response.status_code == 503
    assert body["status"] == "error"
    assert body["checks"]["database"]["status"] == "error"
    assert body["checks"]["database"]["error"] == "OperationalError"
    assert b"hunter2" not in response.content
    assert b"db.internal" not in response.content


@pytest.mark.django_db
def test_a_redis_that_refuses_gives_503_naming_it_quickly(client):
    with override_settings(REDIS_URL="redis://:hunter2@127.0.0.1:1/0"):
        started = time.monotonic()
        response, body = answer(client)
        elapsed = time.monotonic() - started

    assert response.status_code == 503
    assert body["checks"]["redis"]["status"] == "error"
    assert body["checks"]["redis"]["error"] == "ConnectionError"
    assert body["checks"]["database"]["status"] == "ok"
    assert b"hunter2" not in response.content
    assert elapsed < 2


def test_a_redis_that_hangs_fails_within_its_timeout():
    import socket

    from core.health import redis_check

    # A listening socket that never answers: the PING waits for the socket timeout.
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        started = time.monotonic()
        result = redis_check(url=f"redis://127.0.0.1:{port}/0", timeout=0.2)
        elapsed = time.monotonic() - started

    assert result.status == "error"
    assert result.error == "TimeoutError"
    assert 0.2 <= elapsed < 1


def test_livez_answers_without_the_database(client):
    # No django_db mark: any query here would fail the test.
    response, body = answer(client, "/livez")

    assert response.status_code == 200
    assert body == {"status": "ok"}


def test_the_probes_refuse_writes(client):
    assert client.post("/healthz").status_code == 405
    assert client.post("/livez").status_code == 405
