"""HTML and JSON answers are gzipped for a client that accepts it, except those that
carry a secret of their own beside what the asker sent (BREACH)."""

import gzip

import pytest
from django.urls import reverse

from matches import services
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip"}


def test_a_board_is_compressed_and_reads_the_same(player_client, player):
    game = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    url = reverse("games:detail", kwargs={"game_id": game.id})
    plain = player_client.get(url)
    packed = player_client.get(url, **GZIP)
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    # The same page, but for the CSRF token, which Django masks anew for every answer.
    assert len(packed.content) < len(plain.content) / 3
    assert gzip.decompress(packed.content).decode().count("<form") == plain.content.decode().count(
        "<form"
    )


def test_a_board_partial_for_htmx_is_compressed(player_client, player):
    game = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    url = reverse("games:move", kwargs={"game_id": game.id})
    response = player_client.post(
        url, {"move": "draw", "revision": 0}, HTTP_HX_REQUEST="true", **GZIP
    )
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"


def test_a_match_page_with_its_invite_link_is_never_compressed(player_client, player):
    match = services.match_create(player=player, mode="steps_sprint", private=True)
    response = player_client.get(
        reverse("matches:detail", kwargs={"match_id": match.id}) + "?code=guess", **GZIP
    )
    assert match.invite_code in response.content.decode()
    assert "Content-Encoding" not in response
