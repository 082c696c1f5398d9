"""What the API refuses before any view reads the request (api.middleware): a body
nested too deep, a body too large, a query string too long or of too many fields, a
method allauth's endpoints do not take. Each is refused in the one error shape,
whoever would have parsed the request (DRF or allauth), signed in or not, and
changes nothing."""

import json

import pytest
from django.conf import settings
from django.test import Client

from api.middleware import MAX_QUERY_LENGTH
from core.json_depth import MAX_DEPTH
from games.models import Game
from tests.api.conftest import error_codes

pytestmark = pytest.mark.django_db


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def send(method: str, path: str, body: str, *, token: str | None = None, **extra):
    client = Client(raise_request_exception=False)
    headers = {"X-Session-Token": token} if token else {}
    return client.generic(
        method, path, body, content_type="application/json", headers=headers, **extra
    )


def refused_as_malformed(response) -> None:
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert response.json()["status"] == 400
    assert error_codes(response) == ["malformed"]


@pytest.fixture
def steps_game(api) -> dict:
    return api.post("/api/v1/games", {"variant": "steps"}).json()


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 5000])
@pytest.mark.parametrize(
    ("method", "path", "field", "signed_in"),
    [
        ("POST", "/api/v1/auth/login", "username", False),
        ("POST", "/api/v1/auth/signup", "username", False),
        ("POST", "/api/v1/games", "options", True),
        ("PATCH", "/api/v1/me/settings", "winnable_only", True),
        ("POST", "/api/v1/games/{game}/moves", "move", True),
    ],
)
def test_a_body_nested_too_deep_is_malformed(
    api, steps_game, depth, method, path, field, signed_in
):
    body = f'{{"{field}": {nested(depth)}, "password": "x", "variant": "steps", "revision": 0}}'
    response = send(
        method, path.format(game=steps_game["id"]), body, token=api.token if signed_in else None
    )
    refused_as_malformed(response)
    assert Game.objects.get(id=steps_game["id"]).revision == 0
    assert Game.objects.count() == 1


def test_a_body_nested_within_the_limit_reaches_the_view(api):
    options = {"buffers": json.loads(nested(MAX_DEPTH - 2))}
    body = json.dumps({"variant": "steps", "options": options})
    response = send("POST", "/api/v1/games", body, token=api.token)
    refused_as_malformed(response)
    assert response.json()["errors"][0]["param"] == "options.buffers"


def test_brackets_inside_strings_are_text(anonymous_api, player):
    response = anonymous_api.post(
        "/api/v1/auth/login", {"username": player.username, "password": "[" * 3000}
    )
    assert response.status_code == 400
    assert error_codes(response) == ["username_password_mismatch"]


@pytest.mark.parametrize(
    ("path", "signed_in"),
    [("/api/v1/auth/login", False), ("/api/v1/games", True), ("/api/v1/me/settings", True)],
)
def test_a_body_over_the_upload_limit_is_malformed_in_json(api, path, signed_in):
    padding = "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = json.dumps({"variant": "klondike", "padding": padding})
    response = send("POST", path, body, token=api.token if signed_in else None)
    refused_as_malformed(response)
    assert "2.5 MB" in response.json()["errors"][0]["message"]
    assert not Game.objects.exists()


@pytest.mark.parametrize("method", ["TRACE", "PUT", "PATCH"])
def test_a_method_allauths_endpoint_does_not_take_is_the_apis_405(method):
    response = send(method, "/api/v1/auth/login", "")
    assert response.status_code == 405
    assert error_codes(response) == ["method_not_allowed"]
    assert response["Allow"] == "POST, OPTIONS"


def test_trace_on_an_api_view_is_405(api):
    response = send("TRACE", "/api/v1/games", "", token=api.token)
    assert response.status_code == 405
    assert error_codes(response) == ["method_not_allowed"]


def test_a_query_string_too_long_is_malformed(api):
    query = "&".join(["page=1"] * 400)
    assert len(query) > MAX_QUERY_LENGTH
    response = api.get(f"/api/v1/games?{query}")
    refused_as_malformed(response)


def test_a_query_string_of_too_many_fields_is_malformed(api):
    query = "&".join(["p"] * (settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 10))
    assert len(query) < MAX_QUERY_LENGTH
    response = api.get(f"/api/v1/games?{query}")
    refused_as_malformed(response)


def test_a_body_nested_too_deep_in_its_declared_charset_is_malformed(api):
    body = f'{{"variant": "klondike", "options": {nested(1000)}}}'.encode("utf-16")
    response = Client().generic(
        "POST",
        "/api/v1/games",
        body,
        content_type="application/json; charset=utf-16",
        headers={"X-Session-Token": api.token},
    )
    refused_as_malformed(response)


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/auth/login"])
def test_a_charset_that_is_no_text_encoding_is_malformed(api, path):
    response = Client(raise_request_exception=False).generic(
        "POST",
        path,
        b'{"variant": "klondike"}',
        content_type="application/json; charset=rot13",
        headers={"X-Session-Token": api.token},
    )
    refused_as_malformed(response)
