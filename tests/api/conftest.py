"""An API client as an app uses it: JSON bodies and the allauth session token."""

import json
from typing import Any

import pytest
from django.test import Client

# The challenges' fixtures (challenges made by the solver on fixed seeds, the server's
# clock), for the API's challenge tests (tests/api/test_challenges.py).
from tests.challenges.conftest import clock, full_day, make_challenge  # noqa: F401

PASSWORD = "correct-horse-battery"


class ApiClient:
    """Django's test client speaking JSON, with the X-Session-Token once logged in."""

    def __init__(self, token: str | None = None) -> None:
        self.client = Client()
        self.token = token

    @property
    def headers(self) -> dict[str, str]:
        return {"X-Session-Token": self.token} if self.token else {}

    def get(self, path: str, headers: dict[str, str] | None = None, **query: Any):
        return self.client.get(path, query, headers={**self.headers, **(headers or {})})

    def post(self, path: str, body: Any = None, **extra: Any):
        return self.client.post(
            path,
            json.dumps(body or {}),
            content_type="application/json",
            headers=self.headers,
            **extra,
        )

    def patch(self, path: str, body: Any = None):
        return self.client.patch(
            path, json.dumps(body or {}), content_type="application/json", headers=self.headers
        )

    def delete(self, path: str):
        return self.client.delete(path, headers=self.headers)

    def log_in(self, username: str, password: str = PASSWORD):
        response = self.post("/api/v1/auth/login", {"username": username, "password": password})
        if response.status_code == 200:
            self.token = response.json()["meta"]["session_token"]
        return response


@pytest.fixture
def anonymous_api() -> ApiClient:
    return ApiClient()


@pytest.fixture
def api(player) -> ApiClient:
    """The player's app, logged in through allauth headless."""
    client = ApiClient()
    assert client.log_in(player.username).status_code == 200
    return client


def error_codes(response) -> list[str]:
    return [error["code"] for error in response.json()["errors"]]
