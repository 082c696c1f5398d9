"""An API match socket lives as long as its session token: once the token's session
ends (signed out, the password changed, the account disabled, the session deleted on
the server) the socket is closed with 4401, and no action sent on it is applied.
Through the real ASGI application and channel layer (transactional_db)."""

import json
from collections.abc import Callable
from importlib import import_module

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model

from api.consumers import SIGN_IN_FIRST
from games.models import Game
from tests.api.conftest import PASSWORD, ApiClient
from tests.api.test_match_socket import TIMEOUT, ask, opened, run, token_of
from tests.matches.helpers import games_of, sprint
from tests.matches.test_consumers import first_legal_move

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def match(player, make_user):
    return sprint(player, make_user("bob"))


def signed_out(token: str) -> None:
    ApiClient(token).delete("/api/v1/auth/session")


def password_changed(token: str) -> None:
    changed = ApiClient(token).post(
        "/api/v1/account/password/change",
        {"current_password": PASSWORD, "new_password": "another-long-secret-42"},
    )
    assert changed.status_code == 200, changed.content


def disabled(token: str) -> None:
    get_user_model().objects.filter(username="alice").update(is_active=False)
    # An admin's save (update() sends no signal): the way an account is disabled.
    user = get_user_model().objects.get(username="alice")
    user.save()


ENDINGS: dict[str, Callable[[str], None]] = {
    "signed out": signed_out,
    "password changed": password_changed,
    "disabled": disabled,
}


def test_the_ending_is_real_over_http(player):
    for end in ENDINGS.values():
        token = token_of(player)
        assert ApiClient(token).get("/api/v1/me").status_code == 200
        end(token)
        assert ApiClient(token).get("/api/v1/me").status_code == 401
        get_user_model().objects.filter(pk=player.pk).update(is_active=True)
        player.refresh_from_db()
        player.set_password(PASSWORD)
        player.save()


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_a_socket_whose_session_ends_is_closed_at_once(match, player, ending):
    token = token_of(player)

    async def body() -> None:
        communicator, _ = await opened(match.id, token)
        await sync_to_async(ENDINGS[ending])(token)
        # Closed without a message from the app.
        closing = await communicator.receive_output(timeout=TIMEOUT)
        assert closing == {"type": "websocket.close", "code": SIGN_IN_FIRST}

    run(body)


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_a_legal_move_sent_as_the_session_ends_is_not_applied(match, player, ending):
    token = token_of(player)
    mine, _ = games_of(match)
    move = first_legal_move(mine)

    async def body() -> None:
        communicator, _ = await opened(match.id, token)
        await sync_to_async(ENDINGS[ending])(token)
        await communicator.send_to(
            text_data=json.dumps({"id": 5, "action": "move", "move": move, "revision": 0})
        )
        # The close, or the move's refusal first if the move got in before it.
        output = await communicator.receive_output(timeout=TIMEOUT)
        while output["type"] == "websocket.send":
            refusal = json.loads(output["text"])
            assert refusal["id"] == 5
            assert [error["code"] for error in refusal["errors"]] == ["invalid_session_token"]
            output = await communicator.receive_output(timeout=TIMEOUT)
        assert output == {"type": "websocket.close", "code": SIGN_IN_FIRST}

    run(body)
    assert Game.objects.get(id=mine.id).move_log == []


def test_an_action_after_an_unseen_end_is_refused_and_closes_the_socket(match, player):
    """A session ended on the server without a sign-out (an admin deleting it, the
    sessions' clean-up): nothing tells the socket, so its next action finds out."""
    token = token_of(player)
    mine, _ = games_of(match)
    move = first_legal_move(mine)
    store = import_module(settings.SESSION_ENGINE).SessionStore

    async def body() -> None:
        communicator, _ = await opened(match.id, token)
        await sync_to_async(store(session_key=token).delete)()
        refusal = await ask(communicator, {"id": 9, "action": "move", "move": move, "revision": 0})
        assert refusal["type"] == "refusal"
        assert refusal["id"] == 9
        assert refusal["status"] == 401
        assert [error["code"] for error in refusal["errors"]] == ["invalid_session_token"]
        closing = await communicator.receive_output(timeout=TIMEOUT)
        assert closing == {"type": "websocket.close", "code": SIGN_IN_FIRST}

    run(body)
    assert Game.objects.get(id=mine.id).move_log == []


def test_another_session_of_the_player_keeps_its_socket(match, player):
    """Signing out one app closes that app's socket only."""
    leaving, staying = token_of(player), token_of(player)
    mine, _ = games_of(match)
    move = first_legal_move(mine)

    async def body() -> None:
        gone, _ = await opened(match.id, leaving)
        kept, _ = await opened(match.id, staying)
        await sync_to_async(signed_out)(leaving)
        closing = await gone.receive_output(timeout=TIMEOUT)
        assert closing == {"type": "websocket.close", "code": SIGN_IN_FIRST}
        answer = await ask(kept, {"id": 1, "action": "move", "move": move, "revision": 0})
        assert answer["type"] == "answer", json.dumps(answer)
        await kept.disconnect()

    run(body)
    assert Game.objects.get(id=mine.id).move_log == [move]
