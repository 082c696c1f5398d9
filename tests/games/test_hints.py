"""The Hint action (games.services.game_hint and the hint view): counted on the game,
revision-guarded, the board marked, without JavaScript too; summary and history."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import format_move, get_variant
from games.errors import GameClosed, StaleAction
from games.models import Game
from leaderboards.periods import today_utc
from leaderboards.services import daily_deal_play, daily_deals_ensure
from tests.engine.helpers import deck_from_layout
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
KLONDIKE = get_variant("klondike")


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.id})


@pytest.fixture
def game(player):
    # Pile 1's Ace of spades can go up: every hint's order puts it first, and a solver
    # that wins with another first move still names a legal move.
    return start_with_deck(player, deck_from_layout(["AS", "8S", "7H"]))


def test_a_hint_is_counted_and_changes_no_position(player, game):
    before = Game.objects.get(id=game.id)
    outcome = services.game_hint(game_id=game.id, player=player, revision=0)
    game.refresh_from_db()
    assert game.hints_used == 1
    assert game.revision == 0  # the position is the same: the board's forms stay valid
    assert game.state == before.state
    assert game.move_log == []
    assert game.move_count == 0
    assert outcome.hint.move in {
        format_move(m) for m in KLONDIKE.legal_moves(KLONDIKE.load(game.state))
    }
    assert outcome.hint.text.startswith("Hint: ")
    # A move made from the board the hint came back on is accepted.
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    services.game_hint(game_id=game.id, player=player, revision=1)
    game.refresh_from_db()
    assert game.hints_used == 2


def test_a_hint_on_an_older_board_is_refused_and_not_counted(player, game):
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    with pytest.raises(StaleAction):
        services.game_hint(game_id=game.id, player=player, revision=0)
    game.refresh_from_db()
    assert game.hints_used == 0


def test_a_closed_game_gets_no_hint(player, game):
    services.game_finish(game_id=game.id, player=player, revision=0)
    with pytest.raises(GameClosed):
        services.game_hint(game_id=game.id, player=player, revision=1)
    game.refresh_from_db()
    assert game.hints_used == 0


def test_another_players_game_is_404(client, make_user, game):
    client.force_login(make_user("mallory"))
    response = client.post(url("hint", game), {"revision": 0}, **HX)
    assert response.status_code == 404
    game.refresh_from_db()
    assert game.hints_used == 0


def test_the_hint_needs_a_post_and_csrf(player, game):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.get(url("hint", game)).status_code == 405
    assert strict.post(url("hint", game), {"revision": 0}, **HX).status_code == 403
    game.refresh_from_db()
    assert game.hints_used == 0


def test_the_board_comes_back_with_the_move_marked(player_client, game):
    response = player_client.post(url("hint", game), {"revision": 0}, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="hint-text"' in html
    assert "Hint: Move the ace of spades to its foundation" in html
    assert re.search(r'class="pile[^"]*hint-source[^"]*" data-pile="t1"', html)
    assert re.search(r'class="foundation suit-spades[^"]*hint-destination', html)
    assert 'id="hint"' in html
    assert 'aria-keyshortcuts="h"' in html


def test_without_javascript_the_redirect_carries_the_hint(player_client, game):
    response = player_client.post(url("hint", game), {"revision": 0})
    assert response.status_code == 302
    assert response["Location"].startswith(url("detail", game) + "?hint=")
    page = player_client.get(response["Location"]).content.decode()
    assert "Hint: Move the ace of spades to its foundation" in page
    assert "hint-source" in page
    # The token is for this game at this revision: after a move it shows nothing.
    player_client.post(url("move", game), {"move": "draw", "revision": 0})
    assert "hint-text" not in player_client.get(response["Location"]).content.decode()
    # And a forged one shows nothing either.
    forged = player_client.get(url("detail", game) + "?hint=abc").content.decode()
    assert "hint-text" not in forged


def test_every_board_has_the_hint_button(player_client, player):
    for variant, fixture in [
        ("klondike", "klondike_win.json"),
        ("kingsley", "kingsley_win.json"),
        ("spiderette", "spiderette_win.json"),
        ("steps", "steps_win.json"),
        ("spike", "spike_win.json"),
    ]:
        game = start_with_deck(player, load_fixture(fixture)["deck"], variant=variant)
        html = player_client.get(url("detail", game)).content.decode()
        assert f'action="{url("hint", game)}"' in html, variant
        assert 'hx-post="' + url("hint", game) + '"' in html, variant
        response = player_client.post(url("hint", game), {"revision": game.revision}, **HX)
        assert response.status_code == 200, variant
        assert 'id="hint-text"' in response.content.decode(), variant
        game.refresh_from_db()
        assert game.hints_used == 1, variant


def test_the_summary_and_the_history_show_the_hints(player_client, player, game):
    player_client.post(url("hint", game), {"revision": 0}, **HX)
    player_client.post(url("hint", game), {"revision": 0}, **HX)
    player_client.post(url("finish", game), {"revision": 0, "confirm": "on"}, **HX)
    board = player_client.get(url("detail", game)).content.decode()
    assert re.search(r'<dd id="summary-hints">2</dd>', board)
    history = player_client.get(reverse("games:history")).content.decode()
    assert '<th scope="col">Hints</th>' in history
    assert re.search(r"<td>0</td>\s*<td>2</td>", history)  # undos, then hints


def test_a_ranked_daily_board_says_what_a_hint_does_before_the_first(player_client, player):
    deal = next(d for d in daily_deals_ensure(day=today_utc()) if d.variant == "klondike")
    game = daily_deal_play(player=player, deal=deal)
    assert game.is_ranked
    html = player_client.get(url("detail", game)).content.decode()
    assert "A hint places this ranked result after every result without hints" in html
    response = player_client.post(url("hint", game), {"revision": game.revision}, **HX)
    assert "Hints used: 1. This ranked result is placed after every result without hints" in (
        response.content.decode()
    )


def test_a_casual_board_has_no_ranking_note(player_client, game):
    html = player_client.get(url("detail", game)).content.decode()
    assert 'id="hint"' in html
    assert "after every result without hints" not in html


def test_the_hint_request_queries(player_client, game, django_assert_num_queries):
    # SAVEPOINT, the locked read (with the player's row and the profile's settings; the
    # session comes from the cache), the hint's one UPDATE (count and clock), RELEASE.
    # The board reads nothing more.
    with django_assert_num_queries(4) as captured:
        response = player_client.post(url("hint", game), {"revision": 0}, **HX)
    assert response.status_code == 200
    statements = [query["sql"] for query in captured.captured_queries]
    game_queries = [q for q in statements if "games_game" in q]
    assert game_queries[0].startswith("SELECT")
    assert [q for q in statements if "auth_user" in q] == [game_queries[0]]
    if connection.vendor == "postgresql":
        assert game_queries[0].rstrip().endswith('FOR UPDATE OF "games_game"')
    update = game_queries[1]
    assert update.startswith("UPDATE")
    assert '"hints_used"' in update
    assert '"revision"' not in update
    assert '"state"' not in update
