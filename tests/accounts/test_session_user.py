"""A game's action reads its user with the game's locked row (accounts.session_user),
and still holds a session to everything Django's own read of the user checks: a
password changed elsewhere, a disabled account, a rotated secret key, a session that
signed nobody in. A refused session changes nothing."""

import pytest
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.test import override_settings
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
