"""No page or response ever holds a face-down card, a stock card or the seed.

Random games are played through the views; every rendered board (full page,
htmx partial, selection, refusal, summary) is searched for every hidden card
in every form a template prints a card in: code, name and visible label.
Every position a walk reaches is rendered and searched (the answer to its
move or undo); a selection, which draws the position before the move with
the selected cards and their targets marked, is searched for the first
selection from each kind of place (tableau, waste, foundation, ...) in the game
and then for every third move.
"""

import random

import pytest
from django.urls import reverse

from games import services
from games.engine import format_move, get_variant
from games.models import Game
from games.specs import game_keys
from games.templatetags.cards import card_face_html
from tests.games.helpers import card_forms, hidden_cards, leaked_cards

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def assert_nothing_hidden(html: str, game: Game) -> None:
    game.refresh_from_db()
    assert game.seed not in html
    assert leaked_cards(html, hidden_cards(game)) == []


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("variant", game_keys())
def test_random_games_through_the_views_never_show_a_hidden_card(
    player_client, player, variant, seed
):
    rng = random.Random(seed)
    engine = get_variant(variant)
    game = services.game_start(player=player, variant=variant)
    detail = reverse("games:detail", kwargs={"game_id": game.id})
    assert_nothing_hidden(player_client.get(detail).content.decode(), game)
    selected_from: set[str] = set()
    for step in range(60):
        game.refresh_from_db()
        if not game.is_active:
            break
        state = engine.load(game.state)
        moves = engine.legal_moves(state)
        if not moves:
            break
        move = rng.choice(moves)
        place = move.src.rstrip("0123456789") if move.src else None
        if place is not None and (place not in selected_from or step % 3 == 0):
            selected_from.add(place)
            selected = player_client.get(f"{detail}?sel={move.src}/{move.count}", **HX)
            assert_nothing_hidden(selected.content.decode(), game)
        response = player_client.post(
            reverse("games:move", kwargs={"game_id": game.id}),
            {"move": format_move(move), "revision": game.revision},
            **HX,
        )
        assert response.status_code == 200
        assert_nothing_hidden(response.content.decode(), game)
        if rng.random() < 0.15:
            undone = player_client.post(
                reverse("games:undo", kwargs={"game_id": game.id}),
                {"revision": game.revision + 1},
                **HX,
            )
            assert_nothing_hidden(undone.content.decode(), game)
    refused = player_client.post(
        reverse("games:move", kwargs={"game_id": game.id}), {"move": "t1-t1", "revision": 0}, **HX
    )
    assert_nothing_hidden(refused.content.decode(), game)
    assert_nothing_hidden(player_client.get(detail).content.decode(), game)
    player_client.post(
        reverse("games:finish", kwargs={"game_id": game.id}),
        {"revision": game.revision, "confirm": "on"},
    )
    assert_nothing_hidden(player_client.get(detail).content.decode(), game)
    history = player_client.get(reverse("games:history")).content.decode()
    assert_nothing_hidden(history, game)


def test_the_search_finds_a_card_in_each_printed_form():
    """The leak detector itself must see a card printed any way a template does."""
    rendered = card_face_html("TD")
    visible_only = rendered.replace('data-card="TD"', "").replace("10 of diamonds", "")
    for html in ('data-card="TD"', 'aria-label="10 of diamonds"', "<span>10♦</span>", visible_only):
        assert any(pattern.search(html) for pattern in card_forms("TD")), html
    assert not any(p.search("csrf=aTDb9") for p in card_forms("TD"))
