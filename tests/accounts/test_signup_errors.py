"""Sign-up shows every error at once, and its `next` goes straight into the game."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Game
from tests.accounts.conftest import error_texts

pytestmark = pytest.mark.django_db

MISMATCH = "You must type the same password each time."


def test_a_weak_password_and_a_mismatch_are_both_shown_at_once(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "12345678",
            "password2": "12345679",
        },
    )
    errors = error_texts(response)
    assert response.status_code == 200
    assert MISMATCH in errors
    assert any("too common" in error or "entirely numeric" in error for error in errors)
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_a_strong_password_typed_twice_alike_raises_no_mismatch(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "not-an-address",
            "password1": "a-long-enough-secret",
            "password2": "a-long-enough-secret",
        },
    )
    assert MISMATCH not in error_texts(response)


def test_sign_up_to_play_klondike_lands_in_a_klondike_game(client):
    home = client.get(reverse("home")).content.decode()
    link = reverse("account_signup") + "?next=" + reverse("games:play", args=["klondike"])
    assert f'href="{link}">Sign up to play Klondike</a>' in home
    signed_up = client.post(
        link,
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a-long-enough-secret",
            "password2": "a-long-enough-secret",
        },
        follow=True,
    )
    game = Game.objects.get(player__username="newcomer", variant="klondike")
    assert signed_up.redirect_chain[-1][0] == reverse("games:detail", args=[game.id])
    assert b'id="board"' in signed_up.content
