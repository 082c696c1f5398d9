"""The match sockets' refusals as a real client meets them, on a real daphne serving
config.asgi (tests/browser/asgi_server.py): each refusal is a handshake accepted and
then closed with its own code (4401: sign in first; 4404: no such match of yours), not
the bare HTTP 403 of a handshake refused, which tells a client nothing."""

import pytest
from django.conf import settings

from api.consumers import NOT_YOURS, SIGN_IN_FIRST
from tests.api.socket_client import SocketClient
from tests.api.test_match_socket import token_of
from tests.browser.asgi_server import asgi_live_server  # noqa: F401  # a fixture
from tests.matches.helpers import sprint
from tests.matches.test_consumers import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

UNKNOWN = "00000000-0000-0000-0000-000000000000"


@pytest.fixture
def match(player, make_user):
    return sprint(player, make_user("bob"))


def api_socket(port: int, match_id, token: str | None = None) -> SocketClient:
    headers = {"X-Session-Token": token} if token else {}
    return SocketClient(port, f"/api/v1/matches/{match_id}/socket", headers)


def page_socket(port: int, match_id, user=None) -> SocketClient:
    headers = {"Origin": f"http://127.0.0.1:{port}"}
    if user is not None:
        headers["Cookie"] = f"{settings.SESSION_COOKIE_NAME}={session_cookie(user)}"
    return SocketClient(port, f"/ws/matches/{match_id}/", headers)


def closed_with(client: SocketClient) -> int | None:
    try:
        assert client.status == 101, f"the handshake was refused: HTTP {client.status}"
        return client.close_code()
    finally:
        client.close()


def test_each_refusal_of_the_api_socket_has_its_close_code(
    asgi_live_server,  # noqa: F811
    match,
    player,
    make_user,
):
    port = asgi_live_server.port
    alice, carol = token_of(player), token_of(make_user("carol"))
    assert closed_with(api_socket(port, match.id)) == SIGN_IN_FIRST
    assert closed_with(api_socket(port, match.id, "not-a-token")) == SIGN_IN_FIRST
    assert closed_with(api_socket(port, match.id, carol)) == NOT_YOURS
    assert closed_with(api_socket(port, UNKNOWN, alice)) == NOT_YOURS
    seated = api_socket(port, match.id, alice)
    try:
        assert seated.status == 101
        assert seated.receive()["type"] == "hello"
    finally:
        seated.close()


def test_each_refusal_of_the_pages_socket_has_its_close_code(
    asgi_live_server,  # noqa: F811
    match,
    make_user,
):
    port = asgi_live_server.port
    assert closed_with(page_socket(port, match.id)) == SIGN_IN_FIRST
    assert closed_with(page_socket(port, match.id, make_user("carol"))) == NOT_YOURS
    assert closed_with(page_socket(port, UNKNOWN, make_user("dave"))) == NOT_YOURS
