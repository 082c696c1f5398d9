"""The one error shape: every code documented, and the refusals DRF and Django raise
answered in it."""

from pathlib import Path

import pytest

from api.errors import ERROR_CODES, ApiRefusal
from tests.api.conftest import error_codes

pytestmark = pytest.mark.django_db

DOC = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()


@pytest.mark.parametrize(("code", "status"), [(c, s) for c, (s, _) in ERROR_CODES.items()])
def test_every_code_is_in_the_documentation_with_its_status(code, status):
    assert f"| `{code}` | {status} |" in DOC


def test_a_refusal_names_one_of_the_codes():
    with pytest.raises(ValueError, match="not one of the API's error codes"):
        ApiRefusal(code="oops", message="no")


def test_a_method_an_endpoint_does_not_take(api):
    response = api.delete("/api/v1/games")
    assert response.status_code == 405
    assert error_codes(response) == ["method_not_allowed"]
    assert response["Allow"] == "GET, POST, HEAD, OPTIONS"


def test_json_only(api):
    response = api.get("/api/v1/games", headers={"Accept": "text/html"})
    assert response.status_code == 406
    assert error_codes(response) == ["not_acceptable"]


def test_a_path_the_api_does_not_have(api):
    response = api.get("/api/v1/nothing-here")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert error_codes(response) == ["not_found"]


def test_a_name_that_cannot_be_read_is_malformed(anonymous_api):
    response = anonymous_api.get("/api/v1/players/bad%00name")
    assert response.status_code == 400
    assert error_codes(response) == ["malformed"]
