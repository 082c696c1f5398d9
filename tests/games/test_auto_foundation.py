"""The automatic moves to the foundations (Profile.auto_foundation): after a player's
move or tap, the safe cards go up as moves of their own in the same transaction, so
the log replays, the review verifies and undo takes them back one at a time."""

import pytest
from django.urls import reverse

from accounts.services import profile_update
from games import services
from games.engine import get_variant, shuffled_deck
from games.models import Game
from reviews.replays import replay_game, verify_game
from tests.engine.helpers import deck_from_layout
from tests.games.helpers import start_with_deck

pytestmark = pytest.mark.django_db

KLONDIKE = get_variant("klondike")
HX = {"HTTP_HX_REQUEST": "true"}
# Pile 1 is the Ace of spades alone, pile 2 the 2 of spades on the 3 of spades (the
# first spare card), so both go up by themselves and the 3 waits for the red 2s; the
# other piles end in Nines and Tens.
DECK = deck_from_layout(["AS", "2S", "9H", "9C", "9D", "TC", "TH"])


@pytest.fixture
def automatic_moves(player):
    """The player's setting on: the service reads it with the game's locked row."""
    profile_update(
        user=player, public=True, highlight_moves=False, reduced_motion=False, auto_foundation=True
    )


@pytest.mark.usefixtures("automatic_moves")
def test_after_a_move_the_safe_cards_go_up_as_logged_moves(player):
    game = start_with_deck(player, DECK)
    outcome = services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    game.refresh_from_db()
    assert game.move_log == ["draw", "t1-f", "t2-f"]
    assert len(game.undo_log) == game.move_count == 3
    assert game.state["foundations"] == [2, 0, 0, 0]
    assert game.state["tableau"][1]["up"] == ["3S"]  # turned up, fits, but not safe
    assert outcome.events == ("auto_foundation:AS", "auto_foundation:2S")


@pytest.mark.usefixtures("automatic_moves")
def test_a_tap_is_followed_by_the_safe_moves_too(player):
    game = start_with_deck(player, DECK)
    services.game_card_tap(game_id=game.id, player=player, source="t1", count=1, revision=0)
    game.refresh_from_db()
    assert game.move_log == ["t1-f", "t2-f"]


def test_with_the_setting_off_nothing_moves_by_itself(player):
    game = start_with_deck(player, DECK)
    outcome = services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    game.refresh_from_db()
    assert game.move_log == ["draw"]
    assert game.state["foundations"] == [0, 0, 0, 0]
    assert outcome.events == ()


@pytest.mark.usefixtures("automatic_moves")
def test_undo_takes_the_automatic_moves_back_one_at_a_time(player):
    game = start_with_deck(player, DECK)
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    services.game_move_undo(game_id=game.id, player=player, revision=1)
    game.refresh_from_db()
    assert game.move_log == ["draw", "t1-f"]
    assert game.state["foundations"] == [1, 0, 0, 0]
    assert game.state["tableau"][1]["up"] == ["2S"]


def _seeded_game_with_an_ace_on_top(player) -> Game:
    """A game dealt from its own seed (so the review can deal it again) with an Ace on
    a pile top: the first such seed of a fixed list, the same on every run."""
    seed = next(
        seed
        for seed in (f"auto-foundation-{n}" for n in range(200))
        if any(pile.up[-1][0] == "A" for pile in KLONDIKE.deal(shuffled_deck(seed)).tableau)
    )
    game = start_with_deck(player, list(shuffled_deck(seed)))
    game.seed = seed
    game.save(update_fields=["seed"])
    return game


@pytest.mark.usefixtures("automatic_moves")
def test_the_log_replays_to_the_stored_state_and_the_review_verifies_it(player):
    game = _seeded_game_with_an_ace_on_top(player)
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    game.refresh_from_db()
    assert len(game.move_log) > 1  # the Ace, at least, went up by itself
    assert KLONDIKE.dump(replay_game(game).state) == game.state
    services.game_finish(game_id=game.id, player=player, revision=game.revision)
    game.refresh_from_db()
    outcome = verify_game(game)
    assert outcome.ok, outcome.details


@pytest.mark.usefixtures("automatic_moves")
def test_the_web_move_acts_on_the_players_setting(player, player_client):
    game = start_with_deck(player, DECK)
    url = reverse("games:move", kwargs={"game_id": game.id})
    response = player_client.post(url, {"move": "draw", "revision": 0}, **HX)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.move_log == ["draw", "t1-f", "t2-f"]


def test_the_web_move_leaves_the_cards_alone_by_default(player, player_client):
    game = start_with_deck(player, DECK)
    url = reverse("games:move", kwargs={"game_id": game.id})
    player_client.post(url, {"move": "draw", "revision": 0}, **HX)
    game.refresh_from_db()
    assert game.move_log == ["draw"]
