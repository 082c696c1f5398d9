"""Kingsley and Spiderette on the platform: everything a Klondike game has,
plus a game that ends itself as lost, Spiderette's deal button and run removal."""

import pytest
from django.urls import reverse

from games import services
from games.engine import format_move, full_deck, get_variant, parse_move
from games.models import Game
from tests.games.helpers import load_fixture, refusal_code, start_with_deck

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.id})


def play_moves(game: Game, moves: list[str]) -> None:
    for move in moves:
        game.refresh_from_db()
        services.game_move_play(
            game_id=game.id, player=game.player, move=move, revision=game.revision
        )
    game.refresh_from_db()


@pytest.mark.parametrize("variant", ["kingsley", "spiderette"])
def test_each_game_is_dealt_resumed_restarted_undone_and_finished(player_client, player, variant):
    start = player_client.post(reverse("games:play", args=[variant]))
    game = Game.objects.get(player=player, variant=variant)
    assert start["Location"] == url("detail", game)
    page = player_client.get(url("detail", game))
    assert page.status_code == 200
    assert f"variant-{variant}".encode() in page.content
    engine = get_variant(variant)
    move = engine.legal_moves(engine.load(game.state))[0]
    moved = player_client.post(url("move", game), {"move": format_move(move), "revision": 0}, **HX)
    assert refusal_code(moved) is None
    stale = player_client.post(url("move", game), {"move": format_move(move), "revision": 0}, **HX)
    assert refusal_code(stale) == "stale_revision"
    assert player_client.post(url("undo", game), {"revision": 1}, **HX).status_code == 200
    game.refresh_from_db()
    assert (game.move_log, game.revision) == ([], 2)
    restarted = player_client.post(url("restart", game), {"confirm": "on"})
    again = Game.objects.get(player=player, variant=variant, status=Game.Status.ACTIVE)
    assert restarted["Location"] == url("detail", again)
    assert again.seed == game.seed
    player_client.post(url("finish", again), {"revision": 0, "confirm": "on"})
    again.refresh_from_db()
    assert again.status == Game.Status.FINISHED
    assert player_client.get(reverse("games:rules", args=[variant])).status_code == 200


@pytest.mark.parametrize("variant", ["kingsley", "spiderette"])
def test_a_stuck_game_ends_as_lost_with_a_clear_message(player_client, player, variant):
    case = load_fixture(f"{variant}_lost.json")
    game = start_with_deck(player, case["deck"], variant=variant)
    play_moves(game, case["moves"])
    assert game.status == Game.Status.ACTIVE  # announced: Undo or Accept the loss
    assert b'id="lost-banner"' in player_client.get(url("detail", game)).content
    player_client.post(url("accept_loss", game), {"revision": game.revision}, **HX)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    assert game.finished_at is not None
    page = player_client.get(url("detail", game))
    assert b'id="lost-reason"' in page.content
    assert b"Lost" in page.content
    refused = player_client.post(url("undo", game), {"revision": game.revision}, **HX)
    assert refusal_code(refused) == "game_closed"


@pytest.mark.parametrize("variant", ["kingsley", "spiderette"])
def test_a_won_game_closes_itself(player, variant):
    case = load_fixture(f"{variant}_win.json")
    game = start_with_deck(player, case["deck"], variant=variant)
    play_moves(game, case["moves"])
    assert game.status == Game.Status.WON
    assert game.score == 52


def deck_with(front: dict[int, str]) -> list[str]:
    """A deck in deal order with chosen cards at chosen positions."""
    rest = [card for card in full_deck() if card not in front.values()]
    return [front[i] if i in front else rest.pop(0) for i in range(52)]


def test_spiderette_deal_button_says_what_is_left_and_why_it_is_refused(player_client, player):
    # Pile 1 is deck[0]; pile 2's top is deck[2]: the 5 of spades can leave pile 1 for the 6.
    game = start_with_deck(player, deck_with({0: "5S", 2: "6H"}), variant="spiderette")
    page = player_client.get(url("detail", game), **HX)
    assert "Deal 7 · 4 deals left".encode() in page.content
    services.game_move_play(game_id=game.id, player=player, move="t1-t2", revision=0)
    page = player_client.get(url("detail", game), **HX)
    assert b"Every pile must hold" in page.content
    assert b"disabled" in page.content.split(b'id="stock"')[1][:300]
    refused = player_client.post(url("move", game), {"move": "deal", "revision": 1}, **HX)
    assert refusal_code(refused) == "illegal_move"
    assert b"Every pile must hold" in refused.content


def test_spiderette_shows_a_removed_run_leaving(player_client, player):
    case = load_fixture("spiderette_win.json")
    game = start_with_deck(player, case["deck"], variant="spiderette")
    engine = get_variant("spiderette")
    for move in case["moves"]:
        game.refresh_from_db()
        step = engine.apply(engine.load(game.state), parse_move(move))
        if any(event.startswith("run_removed:") for event in step.events):
            response = player_client.post(
                url("move", game), {"move": move, "revision": game.revision}, **HX
            )
            assert b"run-leaving" in response.content
            assert b"is complete and leaves the table" in response.content
            return
        services.game_move_play(game_id=game.id, player=player, move=move, revision=game.revision)
    pytest.fail("the winning fixture removed no run")
