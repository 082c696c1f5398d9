"""The schema says what allauth's account endpoints answer here (api.schema's merge of
allauth's own description): the 2xx a generated client reads its result from, and the
410 a dead session token gets; a login a generated client can fill; the server it is
served from; and descriptions written for clients, naming none of the server's
internals."""

import re
from pathlib import Path

import allauth.headless.spec as headless_spec_module
import pytest
import requests
import yaml
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client) -> dict:
    return client.get(reverse("api:schema"), {"format": "json"}).json()


def response_schema(schema: dict, response: dict) -> dict:
    if "$ref" in response:
        response = schema["components"]["responses"][response["$ref"].rpartition("/")[2]]
    return response["content"]["application/json"]["schema"]


def test_a_password_change_documents_its_200_with_the_new_token(schema):
    operation = schema["paths"]["/api/v1/account/password/change"]["post"]
    answered = response_schema(schema, operation["responses"]["200"])
    assert answered["$ref"].endswith("/AuthenticatedResponse")
    assert "session_token" in operation["responses"]["200"]["description"]
    assert "session_token" in operation["description"]


def test_logging_out_documents_its_200(schema):
    operation = schema["paths"]["/api/v1/auth/session"]["delete"]
    answered = response_schema(schema, operation["responses"]["200"])
    assert answered["properties"]["status"]["enum"] == [200]
    assert answered["properties"]["meta"]["properties"]["is_authenticated"]["enum"] == [False]
    assert "401" in operation["responses"]


def test_every_allauth_operation_documents_the_410_of_a_dead_token(schema):
    allauth = [
        (path, method, operation)
        for path, operations in schema["paths"].items()
        if path.startswith(("/api/v1/auth/", "/api/v1/account/", "/api/v1/config"))
        for method, operation in operations.items()
    ]
    assert len(allauth) > 10
    for path, method, operation in allauth:
        gone = operation["responses"].get("410")
        assert gone is not None, f"{method} {path}"
        assert response_schema(schema, gone)["$ref"].endswith("/SessionGoneResponse")


INTERNALS = re.compile(
    r"\b(?:api|games|matches|challenges|codex|players|accounts|leaderboards|core|config)"
    r"\.(?!md\b)[a-z_]+|\bperform\b|\bDRF\b|[Ss]erializer|\bselectors?\b|\.py\b"
)


def _allauths_own() -> tuple[set[str], set[str]]:
    """The components and operations allauth's own description brings, in its words."""
    spec = yaml.safe_load(
        (Path(headless_spec_module.__file__).parent / "doc/openapi.yaml").read_bytes()
    )
    return set(spec["components"]["schemas"]), {
        path.replace("/_allauth/{client}/v1", "/api/v1") for path in spec["paths"]
    }


def _descriptions(node, where: str):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                yield where, value
            else:
                yield from _descriptions(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _descriptions(value, f"{where}/{index}")


def test_the_schema_names_its_server(schema, live_server):
    assert schema["servers"] == [
        {"url": "http://testserver", "description": "This site: every path starts with /api/v1."}
    ]
    served = requests.get(f"{live_server.url}/api/v1/schema?format=json", timeout=10).json()
    assert served["servers"][0]["url"] == live_server.url


def test_no_description_of_the_arenas_names_the_servers_internals(schema):
    allauth_components, allauth_paths = _allauths_own()
    ours = {
        f"components/{name}": component
        for name, component in schema["components"]["schemas"].items()
        if name not in allauth_components
    } | {
        f"paths/{path}": operations
        for path, operations in schema["paths"].items()
        if path not in allauth_paths
    }
    leaks = [
        (where, INTERNALS.findall(text))
        for where, text in _descriptions(ours, "")
        if INTERNALS.search(text)
    ]
    assert leaks == []
    assert len(list(_descriptions(ours, ""))) > 300
    play = [
        operation
        for operations in schema["paths"].values()
        for operation in operations.values()
        if "play" in operation.get("tags", [])
    ]
    assert len(play) == 8
    assert all(operation["description"] for operation in play)


def test_the_session_token_scheme_names_no_parameter_that_is_not_there(schema):
    scheme = schema["components"]["securitySchemes"]["SessionToken"]
    assert scheme["name"] == "X-Session-Token"
    assert "`client`" not in scheme["description"]
    assert "/api/v1/auth/login" in scheme["description"]


def test_the_login_is_one_object_of_the_sites_login_fields(schema):
    login = schema["components"]["schemas"]["Login"]
    assert not {"allOf", "anyOf", "oneOf"} & set(login)
    assert set(login["properties"]) == {"username", "email", "password"}
    assert login["required"] == ["password"]


def test_the_login_throttles_refusal_documents_its_retry_after(schema):
    refused = schema["paths"]["/api/v1/auth/login"]["post"]["responses"]["400"]
    assert "Retry-After" in refused["headers"]


def test_the_modes_document_the_turn_clock(schema):
    mode = schema["components"]["schemas"]["MatchMode"]["properties"]
    assert {"turn_seconds", "shared_board"} <= set(mode)
    assert "rated" in schema["components"]["schemas"]["Match"]["properties"]
