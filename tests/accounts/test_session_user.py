"""A game's action reads its user with the game's locked row (accounts.session_user),
and still holds a session to everything Django's own read of the user checks: a
password changed elsewhere, a disabled account, a rotated secret key, a session that
signed nobody in. A refused session changes nothing, and gets exactly what
login_required answers in the same state (issue 30, item 11)."""

from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.test import Client, override_settings
from django.urls import reverse

from games.models import Game
from tests.games.helpers import load_fixture, refusal_code, start_with_deck

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(player):
    return start_with_deck(player, load_fixture("klondike_win.json")["deck"])


def move(client, game):
    return client.post(
        reverse("games:move", kwargs={"game_id": game.id}), {"move": "draw", "revision": 0}, **HX
    )


def unchanged(game) -> bool:
    game.refresh_from_db()
    return game.revision == 0 and game.move_count == 0


def test_the_player_of_the_session_moves(player_client, game):
    response = move(player_client, game)
    assert response.status_code == 200
    assert response.wsgi_request.user == game.player
    game.refresh_from_db()
    assert game.move_count == 1


def test_a_password_changed_elsewhere_signs_the_session_out(player_client, player, game):
    player.set_password("a new password for this account")
    player.save()
    response = move(player_client, game)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert unchanged(game)
    # The session is gone, as Django flushes one whose hash no longer matches.
    assert SESSION_KEY not in player_client.session
    board = player_client.get(reverse("games:detail", kwargs={"game_id": game.id}))
    assert board.status_code == 302


def test_a_disabled_account_cannot_move(player_client, player, game):
    player.is_active = False
    player.save(update_fields=["is_active"])
    response = move(player_client, game)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert unchanged(game)


def test_a_session_without_its_hash_cannot_move(player_client, game):
    session = player_client.session
    del session[HASH_SESSION_KEY]
    session.save()
    assert move(player_client, game).status_code == 302
    assert unchanged(game)


def test_a_session_of_a_rotated_secret_key_moves_and_takes_the_new_key(client, player, game):
    with override_settings(SECRET_KEY="the-secret-key-before-the-rotation-" + "x" * 20):
        client.force_login(player)
    old_key = client.cookies["sessionid"].value
    with override_settings(
        SECRET_KEY="the-secret-key-after-the-rotation-" + "y" * 20,
        SECRET_KEY_FALLBACKS=["the-secret-key-before-the-rotation-" + "x" * 20],
    ):
        response = move(client, game)
        assert response.status_code == 200
        assert client.cookies["sessionid"].value != old_key
        assert client.session[HASH_SESSION_KEY] == player.get_session_auth_hash()
    game.refresh_from_db()
    assert game.move_count == 1


def test_another_players_game_is_not_found_and_unchanged(client, make_user, game):
    client.force_login(make_user(username="bob"))
    assert move(client, game).status_code == 404
    assert unchanged(game)


def test_a_visitor_is_sent_to_sign_in(client, game):
    response = move(client, game)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert unchanged(game)


def test_a_refused_move_reads_the_board_of_the_accepted_user(player_client, game):
    player_client.post(
        reverse("games:move", kwargs={"game_id": game.id}), {"move": "draw", "revision": 0}, **HX
    )
    stale = move(player_client, game)
    assert refusal_code(stale) == "stale_revision"
    assert stale.wsgi_request.user == game.player
    assert Game.objects.get(id=game.id).revision == 1


def test_a_hint_reads_its_user_with_the_game_and_refuses_a_signed_out_session(
    player_client, player, game
):
    hint = reverse("games:hint", kwargs={"game_id": game.id})
    assert player_client.post(hint, {"revision": 0}, **HX).status_code == 200
    player.set_password("a new password for this account")
    player.save()
    response = player_client.post(hint, {"revision": 0}, **HX)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    game.refresh_from_db()
    assert game.hints_used == 1


# Every way a session stops being its user's, each applied to the two sessions given
# (the action's and the reference's) of the game's player; `other` is another player.
def _password_changed(player, other, sessions):
    player.set_password("a new password for this account")
    player.save()


def _account_disabled(player, other, sessions):
    player.is_active = False
    player.save(update_fields=["is_active"])


def _hash_emptied(player, other, sessions):
    for session in sessions:
        session[HASH_SESSION_KEY] = ""
        session.save()


def _user_deleted(player, other, sessions):
    player.delete()


def _id_forged_to_another_player(player, other, sessions):
    for session in sessions:
        session[SESSION_KEY] = str(other.pk)
        session.save()


def _id_forged_to_nobody(player, other, sessions):
    for session in sessions:
        session[SESSION_KEY] = str(other.pk + 1000)
        session.save()


SECRET_BEFORE = "the-secret-key-before-the-rotation-" + "x" * 20
SECRET_AFTER = "the-secret-key-after-the-rotation-" + "y" * 20
REFUSALS = {
    "password changed elsewhere": _password_changed,
    "account disabled": _account_disabled,
    "session hash emptied": _hash_emptied,
    "user deleted": _user_deleted,
    "user id forged to another player": _id_forged_to_another_player,
    "user id forged to nobody": _id_forged_to_nobody,
    # Signed in under SECRET_BEFORE, asked under SECRET_AFTER with no fallback.
    "secret key rotated without a fallback": None,
}
ACTIONS = [
    ("move", {"move": "draw", "revision": "0"}),
    ("move", {"move": "draw", "revision": "abc"}),
    ("tap", {"source": "w", "revision": "0"}),
    ("tap", {"source": "nowhere", "revision": "0"}),
    ("undo", {"revision": "0"}),
    ("undo", {"revision": "-1"}),
    ("hint", {"revision": "0"}),
    ("hint", {"revision": "abc"}),
    ("auto_complete", {"revision": "0"}),
    ("auto_complete", {}),
    ("finish", {"revision": "0"}),
    ("finish", {"revision": "0", "confirm": "on"}),
    ("finish", {"revision": "abc"}),
    ("accept_loss", {"revision": "0"}),
    ("accept_loss", {"revision": "abc"}),
]


def _session_state(client) -> tuple[bool, bool]:
    """Whether the client's session is still stored, and whether it still names a user."""
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    store = import_module(settings.SESSION_ENGINE).SessionStore(key)
    return store.exists(key), SESSION_KEY in store.load()


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize(("action", "data"), ACTIONS, ids=lambda v: str(v))
@pytest.mark.parametrize("refusal", REFUSALS, ids=str)
def test_a_refused_session_gets_what_login_required_answers(
    client, make_user, player, game, refusal, action, data, htmx
):
    """Exactly what login_required, reading the user with Django's get_user, answers a
    refused session in each branch: the way to sign in, the session flushed where
    get_user flushes it and kept where it keeps it; the game unchanged. The reference
    is a page behind Django's own login_required (the history), asked in the same
    state by a second session."""
    other = make_user(username="bob")
    reference = Client()
    headers = HX if htmx else {}
    signed_in_with = SECRET_BEFORE if REFUSALS[refusal] is None else None
    with override_settings(**({"SECRET_KEY": signed_in_with} if signed_in_with else {})):
        client.force_login(player)
        reference.force_login(player)
    apply = REFUSALS[refusal]
    if apply is not None:
        apply(player, other, [client.session, reference.session])

    asked_with = {"SECRET_KEY": SECRET_AFTER, "SECRET_KEY_FALLBACKS": []}
    with override_settings(**(asked_with if signed_in_with else {})):
        path = reverse(f"games:{action}", kwargs={"game_id": game.id})
        answer = client.post(path, data, **headers)
        expected = reference.get(reverse("games:history"), **headers)
        assert expected.status_code == 302, "the reference is refused"
        assert answer.status_code == expected.status_code
        login, _, _next = expected["Location"].partition("?")
        assert answer["Location"] == f"{login}?next={path}"
        assert _session_state(client) == _session_state(reference)
    if Game.objects.filter(id=game.id).exists():
        assert unchanged(game)
        assert game.hints_used == 0
        assert game.is_active
