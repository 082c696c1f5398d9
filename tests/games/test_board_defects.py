"""Issue 13's defects on the board, its summary and history (view tests)."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from games.tracks import casual_track
from tests.games.helpers import refusal_code

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.id})


def spike_game(player, mode: str = "classic") -> Game:
    return services.game_start(
        player=player, variant="spike", track=casual_track(options={"mode": mode})
    )


def _age(game: Game, seconds: int) -> None:
    """The game as if dealt `seconds` ago on the real-time clock Spike keeps."""
    Game.objects.filter(id=game.id).update(
        started_at=game.started_at - timedelta(seconds=seconds),
        last_action_at=game.last_action_at - timedelta(seconds=seconds),
    )


def test_spike_shows_the_score_and_the_final_score_with_its_time_deduction(player_client, player):
    game = spike_game(player)
    _age(game, 5)
    html = player_client.get(url("detail", game)).content.decode()
    assert '<dd id="score">0</dd>' in html
    assert 'id="final-score-now">-10 <small>(\u221210 for time)</small>' in html
    assert "the final score is your score minus 2 points for every second played" in html


def test_a_relaxed_spike_game_and_klondike_show_no_final_score_beside_the_score(
    player_client, player
):
    relaxed = spike_game(player, "relaxed")
    klondike = services.game_start(player=player, variant="klondike")
    for game in (relaxed, klondike):
        _age(game, 5)
        assert b"final-score-now" not in player_client.get(url("detail", game)).content


def test_klondike_says_its_scoring_as_a_player_reads_it_and_calls_stock_passes_recycles(
    player_client, player
):
    game = services.game_start(player=player, variant="klondike")
    html = player_client.get(url("detail", game)).content.decode()
    assert (
        "Scoring: only stock recycles after the third cost points (-20); "
        "the full points table comes later."
    ) in html
    assert "<dt>Recycles</dt>" in html
    assert "<dt>Restarts</dt>" not in html
    assert "not confirmed" not in html
    rules = player_client.get(reverse("games:rules", args=["klondike"])).content.decode()
    assert "not confirmed" not in rules
    assert "(a recycle)" in rules


def test_the_undo_count_is_on_the_board_the_summary_and_in_history(player_client, player):
    game = services.game_start(player=player, variant="klondike")
    for revision in (0, 2):
        player_client.post(url("move", game), {"move": "draw", "revision": revision}, **HX)
        player_client.post(url("undo", game), {"revision": revision + 1}, **HX)
    board = player_client.get(url("detail", game)).content.decode()
    assert '<dt>Undos</dt><dd id="undos">2</dd>' in board
    player_client.post(url("finish", game), {"revision": 4, "confirm": "on"}, **HX)
    summary = player_client.get(url("detail", game)).content.decode()
    assert '<dd id="summary-undos">2</dd>' in summary
    history = player_client.get(reverse("games:history")).content.decode()
    assert '<th scope="col">Undos</th>' in history
    assert "<td>2</td>" in history


@pytest.mark.parametrize("htmx", [False, True])
def test_restart_asks_first_while_the_game_is_in_progress_then_acts(player_client, player, htmx):
    game = services.game_start(player=player, variant="klondike")
    extra = HX if htmx else {}
    ask = player_client.post(url("restart", game), **extra)
    assert ask.status_code == 200
    assert b"Restart this deal?" in ask.content
    assert b'id="confirm-restart"' in ask.content
    assert (b"<html" in ask.content) is not htmx
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert Game.objects.filter(player=player).count() == 1
    done = player_client.post(url("restart", game), {"confirm": "on"}, **extra)
    assert done.status_code == (200 if htmx else 302)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert Game.objects.get(player=player, status=Game.Status.ACTIVE).seed == game.seed


@pytest.mark.parametrize("htmx", [False, True])
def test_new_deal_asks_first_while_a_game_is_in_progress_then_acts(player_client, player, htmx):
    game = spike_game(player, "relaxed")
    extra = HX if htmx else {}
    new_deal = reverse("games:new_deal", args=["spike"])
    ask = player_client.post(new_deal, {"mode": "relaxed"}, **extra)
    assert ask.status_code == 200
    html = ask.content.decode()
    assert "Deal a new game?" in html
    assert '<input type="hidden" name="mode" value="relaxed">' in html
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert Game.objects.filter(player=player).count() == 1
    done = player_client.post(new_deal, {"mode": "relaxed", "confirm": "on"}, **extra)
    assert done.status_code == (200 if htmx else 302)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    latest = Game.objects.get(player=player, status=Game.Status.ACTIVE)
    assert latest.options == {"mode": "relaxed"}


def test_a_closed_game_restarts_and_new_deals_without_asking(player_client, player):
    game = services.game_start(player=player, variant="klondike")
    services.game_finish(game_id=game.id, player=player, revision=0)
    restarted = player_client.post(url("restart", game))
    assert restarted.status_code == 302
    again = Game.objects.get(player=player, status=Game.Status.ACTIVE)
    services.game_finish(game_id=again.id, player=player, revision=0)
    dealt = player_client.post(reverse("games:new_deal", args=["klondike"]))
    assert dealt.status_code == 302
    assert Game.objects.filter(player=player, status=Game.Status.ACTIVE).count() == 1


def test_a_confirm_other_than_on_is_refused_and_changes_nothing(player_client, player):
    game = services.game_start(player=player, variant="klondike")
    restart = player_client.post(url("restart", game), {"confirm": "yes"}, **HX)
    assert refusal_code(restart) == "malformed"
    new_deal = player_client.post(reverse("games:new_deal", args=["klondike"]), {"confirm": "1"})
    assert new_deal.status_code == 400
    assert Game.objects.filter(player=player).count() == 1


@pytest.mark.parametrize("method", ["get", "post"])
def test_play_with_no_game_in_progress_asks_for_spikes_mode(player_client, player, method):
    response = getattr(player_client, method)(reverse("games:play", args=["spike"]), follow=True)
    html = response.content.decode()
    for mode in ("classic", "time_attack", "relaxed"):
        assert f'value="{mode}"' in html
    assert 'id="deal"' in html
    assert not Game.objects.filter(player=player).exists()


def test_play_with_a_spike_game_in_progress_resumes_it(player_client, player):
    game = spike_game(player, "relaxed")
    for method in ("get", "post"):
        response = getattr(player_client, method)(reverse("games:play", args=["spike"]))
        assert response["Location"] == url("detail", game)
    options = player_client.get(reverse("games:play", args=["spike"]) + "?options")
    assert b'value="time_attack"' in options.content


def test_play_for_a_game_without_options_deals_at_once_even_by_get(player_client, player):
    response = player_client.get(reverse("games:play", args=["klondike"]))
    game = Game.objects.get(player=player, variant="klondike")
    assert response["Location"] == url("detail", game)
    assert player_client.get(reverse("games:play", args=["klondike"]))["Location"] == url(
        "detail", game
    )
    assert Game.objects.filter(player=player).count() == 1


def test_a_tap_with_nowhere_to_go_says_why_and_so_does_the_selection(player_client, player):
    from tests.engine.helpers import deck_from_layout
    from tests.games.helpers import start_with_deck

    deck = deck_from_layout(["7H", "5C", "9D", "QS", "4D", "JH", "3S"])
    game = start_with_deck(player, deck)
    why = (
        "The 7 of hearts has nowhere to go: no foundation takes it (the hearts foundation "
        "needs the ace of hearts) and no pile ends in a black 8"
    )
    tapped = player_client.post(url("tap", game), {"source": "t1", "revision": 0}, **HX)
    assert refusal_code(tapped) == "illegal_move"
    assert why in tapped.content.decode()
    selected = player_client.get(url("detail", game) + "?sel=t1/1").content.decode()
    assert f"{why}." in selected
    assert "nowhere to go right now" not in selected
