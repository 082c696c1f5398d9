"""A path under /api/v1/ that names no endpoint is the API's JSON 404 (api/views/unknown.py),
and the schema lists only the endpoints that answer (api/schema.py)."""

import pytest
from django.urls import reverse

from tests.api.conftest import error_codes

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/games/not-a-uuid"),
        ("post", "/api/v1/games/not-a-uuid/moves"),
        ("get", "/api/v1/variants/kl%C3%B6ndike/active"),
        ("get", "/api/v1/no-such-endpoint"),
        ("get", "/api/v1/account/phone"),
        ("post", "/api/v1/account/phone"),
        ("post", "/api/v1/auth/phone/verify"),
        ("post", "/api/v1/auth/phone/verify/resend"),
    ],
)
def test_a_path_of_no_endpoint_is_the_apis_404(anonymous_api, method, path):
    response = getattr(anonymous_api, method)(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert error_codes(response) == ["not_found"]


def test_a_path_of_no_endpoint_is_a_404_whatever_the_token(anonymous_api):
    anonymous_api.token = "no-such-session"

    assert anonymous_api.get("/api/v1/games/not-a-uuid").status_code == 404


def test_the_schema_lists_no_endpoint_that_does_not_answer(client):
    listed = set(client.get(reverse("api:schema"), {"format": "json"}).json()["paths"])

    assert {"/api/v1/auth/login", "/api/v1/games/{game_id}/moves"} <= listed
    assert not [path for path in listed if "/phone" in path or "/provider" in path]
    assert not [path for path in listed if "/webauthn" in path or "/2fa" in path]
