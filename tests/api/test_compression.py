"""The API's answers are gzipped for a client that accepts it, but those carrying a
secret of their own (a session token, a private match's invite code): BREACH
(config.middleware)."""

import pytest

from matches import services

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip"}


def test_the_apis_match_and_sign_in_answers_are_never_compressed(api, player):
    match = services.match_create(player=player, mode="steps_sprint", private=True)
    shown = api.client.get(
        f"/api/v1/matches/{match.id}", {"code": "guess"}, headers=api.headers, **GZIP
    )
    assert shown.json()["invite_code"] == match.invite_code
    assert "Content-Encoding" not in shown
    signed_in = api.client.post(
        "/api/v1/auth/login",
        {"username": player.username, "password": "correct-horse-battery"},
        content_type="application/json",
        **GZIP,
    )
    assert signed_in.json()["meta"]["session_token"]
    assert "Content-Encoding" not in signed_in


def test_the_apis_game_list_is_compressed(api):
    response = api.client.get("/api/v1/variants", headers=api.headers, **GZIP)
    assert response["Content-Encoding"] == "gzip"
