"""Real answers checked against the schema the server serves, strictly: each object
of the API's own components holds exactly the properties the schema names (none
missing, none more), so a serializer and its schema cannot drift apart unnoticed."""

from typing import Any

import jsonschema
from django.test import Client

REF = "#/components/schemas/"


def served_schema() -> dict[str, Any]:
    response = Client().get("/api/v1/schema", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def _json_schema(node: Any, components: dict[str, Any], seen: tuple[str, ...]) -> Any:
    """OpenAPI 3.0's schema as JSON Schema: references inlined, `nullable` as a null
    alternative, and every object with properties closed to others."""
    if isinstance(node, list):
        return [_json_schema(item, components, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].removeprefix(REF)
        if name in seen:
            raise ValueError(f"{name} refers to itself: no answer of the API does")
        return _json_schema(components[name], components, (*seen, name))
    converted = {
        key: _json_schema(value, components, seen)
        for key, value in node.items()
        if key not in ("nullable", "discriminator", "readOnly", "writeOnly", "example")
    }
    if "properties" in node and node.get("type", "object") == "object":
        converted.setdefault("additionalProperties", False)
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


_VALIDATORS: dict[tuple[int, str], jsonschema.Draft7Validator] = {}


def component_validator(schema: dict[str, Any], name: str) -> jsonschema.Draft7Validator:
    key = (id(schema), name)
    if key not in _VALIDATORS:
        components = schema["components"]["schemas"]
        inlined = _json_schema({"$ref": REF + name}, components, ())
        _VALIDATORS[key] = jsonschema.Draft7Validator(inlined)
    return _VALIDATORS[key]


def assert_valid(schema: dict[str, Any], name: str, answer: Any) -> None:
    errors = sorted(
        component_validator(schema, name).iter_errors(answer), key=lambda error: error.path
    )
    assert not errors, "\n".join(
        f"{name} at {list(error.absolute_path)}: {error.message}" for error in errors[:5]
    )
