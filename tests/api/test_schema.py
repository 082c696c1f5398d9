"""The schema says what allauth's account endpoints answer here (api.schema's merge of
allauth's own description): the 2xx a generated client reads its result from, and the
410 a dead session token gets."""

import pytest
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
