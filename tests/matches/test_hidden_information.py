"""No match page, live panel or pushed fragment holds a face-down card, a stock card
or the seed of any seat's game: random moves on both boards of a Sprint, every panel
searched for every card each seat's table does not show."""

import random

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games import services as games_services
from games.engine import format_move, get_variant
from games.errors import MoveRefused
from games.models import Game
from matches import selectors
from tests.games.helpers import hidden_cards, leaked_cards
from tests.matches.helpers import games_of, sprint

pytestmark = pytest.mark.django_db


def assert_nothing_hidden(html: str, games: list[Game]) -> None:
    for game in games:
        game.refresh_from_db()
        assert game.seed not in html
    # A card hidden on one board may lie face up on the other: only cards hidden on
    # every board are secrets of the panel.
    secret = set.intersection(*(hidden_cards(game) for game in games))
    assert leaked_cards(html, secret) == []


@pytest.mark.parametrize("seed", range(3))
def test_random_sprints_never_show_a_hidden_card(client, player, make_user, seed):
    rng = random.Random(seed)
    bob = make_user("bob")
    match = sprint(player, bob)
    games = games_of(match)
    engine = get_variant("steps")
    client.force_login(player)
    live = reverse("matches:live", kwargs={"match_id": match.id})
    for step in range(40):
        game = games[step % 2]
        game.refresh_from_db()
        moves = engine.legal_moves(engine.load(game.state))
        if not game.is_active or not moves:
            continue
        try:
            games_services.game_move_play(
                game_id=game.id,
                player=game.player,
                move=format_move(rng.choice(moves)),
                revision=game.revision,
            )
        except MoveRefused:
            continue
        pushed = render_to_string(
            "matches/_live_body.html", {"view": selectors.match_live_view(match_id=match.id)}
        )
        assert_nothing_hidden(pushed, games)
        if step % 5 == 0:
            assert_nothing_hidden(client.get(live).content.decode(), games)
    page = client.get(reverse("matches:detail", kwargs={"match_id": match.id}), follow=True)
    assert_nothing_hidden(page.content.decode(), games)
