"""Issue 13's defects on the board, its summary and history (view tests)."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from games.tracks import casual_track

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
