"""Spike on the platform: deal options, playing cards, highlighting, the wild
card, the Summit ledger on the summary and the Time Attack clock."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.services import profile_update
from games import services, tasks
from games.engine import get_variant, parse_move
from games.errors import GameClosed
from games.models import Game
from games.tracks import casual_track
from tests.games.helpers import load_fixture, refusal_code, start_with_deck

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
SPIKE = get_variant("spike")


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.id})


def spike_game(player, mode: str = "classic") -> Game:
    return services.game_start(
        player=player, variant="spike", track=casual_track(options={"mode": mode})
    )


def test_the_deal_options_are_chosen_on_the_play_page(player_client, player):
    page = player_client.get(reverse("games:play", args=["spike"]))
    assert b'value="time_attack"' in page.content
    response = player_client.post(
        reverse("games:new_deal", args=["spike"]), {"mode": "time_attack"}
    )
    game = Game.objects.get(player=player, variant="spike")
    assert response["Location"] == url("detail", game)
    assert game.options == {"mode": "time_attack"}
    assert game.deadline_at == game.started_at + timedelta(seconds=120)


def test_a_bad_option_is_refused_and_deals_nothing(player_client, player):
    response = player_client.post(reverse("games:new_deal", args=["spike"]), {"mode": "turbo"})
    assert response.status_code == 400
    assert b"turbo" in response.content
    assert not Game.objects.filter(player=player).exists()


def test_playing_a_card_and_the_wild_card_through_the_board(player_client, player):
    game = spike_game(player)
    state = SPIKE.load(game.state)
    public = SPIKE.public_view(state)
    wild = player_client.post(url("move", game), {"move": "wild", "revision": 0}, **HX)
    assert wild.status_code == 200
    assert b"wild-card" in wild.content
    exposed = next(
        slot["card"]
        for spike in public["spikes"]
        for row in spike["rows"]
        for slot in row
        if slot["exposed"]
    )
    played = player_client.post(url("move", game), {"move": exposed, "revision": 1}, **HX)
    assert played.status_code == 200
    game.refresh_from_db()
    assert game.move_log == ["wild", exposed]
    again = player_client.post(url("move", game), {"move": "wild", "revision": 2}, **HX)
    assert refusal_code(again) == "illegal_move"


def test_selecting_the_waste_highlights_the_playable_cards(player_client, player):
    game = spike_game(player)
    playable = SPIKE.public_view(SPIKE.load(game.state))["playable"]
    plain = player_client.get(url("detail", game), **HX)
    assert b" playable" not in plain.content
    selected = player_client.get(url("detail", game) + "?sel=w", **HX)
    assert selected.content.count(b" playable") == len(playable)


def test_the_highlighting_setting_and_relaxed_mode_keep_it_on(player_client, player):
    relaxed = spike_game(player, "relaxed")
    playable = SPIKE.public_view(SPIKE.load(relaxed.state))["playable"]
    page = player_client.get(url("detail", relaxed), **HX)
    assert page.content.count(b" playable") == len(playable)
    classic = spike_game(player, "classic")
    profile_update(user=player, public=True, highlight_moves=True, reduced_motion=False)
    page = player_client.get(url("detail", classic), **HX)
    assert b"highlighting" in page.content


def test_a_win_shows_the_summit_ledger_and_badge(player_client, player):
    case = load_fixture("spike_win.json")
    game = start_with_deck(player, case["deck"], variant="spike")
    for revision, move in enumerate(case["moves"]):
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    ledger = SPIKE.score(SPIKE.load(game.state))
    assert game.final_score == ledger - 2 * (game.elapsed_ms // 1000)
    page = player_client.get(url("detail", game))
    assert b'id="badge"' in page.content
    badge = SPIKE.public_view(SPIKE.load(game.state))["badge"]
    assert badge.capitalize().encode() in page.content
    assert f'id="final-score">{game.final_score}<'.encode() in page.content


def expire(game: Game) -> None:
    Game.objects.filter(id=game.id).update(
        started_at=timezone.now() - timedelta(seconds=200),
        deadline_at=timezone.now() - timedelta(seconds=80),
    )


def test_time_attack_closes_by_itself_when_its_time_is_up(player):
    game = spike_game(player, "time_attack")
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    assert tasks.games_time_up_sweep_task() == 0
    expire(game)
    assert tasks.games_time_up_sweep_task() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.elapsed_ms == 120_000
    assert game.final_score == SPIKE.score(SPIKE.load(game.state)) - 240
    assert tasks.games_time_up_sweep_task() == 0
    assert tasks.game_time_up_task(str(game.id)) is False


def test_the_clock_task_closes_the_game_at_its_deadline_and_only_then(player):
    game = spike_game(player, "time_attack")
    assert tasks.game_time_up_task(str(game.id)) is False
    game.refresh_from_db()
    assert game.is_active
    expire(game)
    assert tasks.game_time_up_task(str(game.id)) is True
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_an_action_after_the_deadline_closes_the_game_and_is_refused(player_client, player):
    game = spike_game(player, "time_attack")
    expire(game)
    with pytest.raises(GameClosed, match="Time is up"):
        services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.move_log == []


def test_looking_at_an_expired_board_closes_it(player_client, player):
    game = spike_game(player, "time_attack")
    expire(game)
    page = player_client.get(url("detail", game))
    assert b'id="summary"' in page.content
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_bonus_seconds_move_the_deadline(player):
    case = load_fixture("spike_lost.json")
    assert case["options"] == {"mode": "time_attack"}
    timed = start_with_deck(player, case["deck"], variant="spike", options=case["options"])
    for revision, move in enumerate(case["moves"]):
        timed.refresh_from_db()
        if not timed.is_active:
            break
        services.game_move_play(game_id=timed.id, player=player, move=move, revision=revision)
    timed.refresh_from_db()
    bonus = SPIKE.load(timed.state).time_bonus_seconds
    assert bonus > 0
    assert timed.deadline_at == timed.started_at + timedelta(seconds=120 + bonus)


def test_clearing_a_spike_is_celebrated_on_the_board(player_client, player):
    case = load_fixture("spike_win.json")
    game = start_with_deck(player, case["deck"], variant="spike", options=case["options"])
    for revision, move in enumerate(case["moves"]):
        step = SPIKE.apply(SPIKE.load(Game.objects.get(id=game.id).state), parse_move(move))
        cleared = [e for e in step.events if e.startswith("spike_cleared:")]
        if cleared:
            response = player_client.post(
                url("move", game), {"move": move, "revision": revision}, **HX
            )
            number = cleared[0].split(":")[1]
            assert f"Spike {number} cleared!".encode() in response.content
            assert b"spike-cleared-banner" in response.content
            return
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)
    pytest.fail("the winning fixture cleared no spike")


def test_a_new_deal_posted_with_no_options_is_the_classic_mode(player_client, player):
    response = player_client.post(reverse("games:new_deal", args=["spike"]))
    assert response.status_code == 302
    assert Game.objects.get(player=player, variant="spike").options["mode"] == "classic"
