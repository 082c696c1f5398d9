"""A result the review holds (under review, voided) stays out of the player's
figures until it is cleared: history, profile statistics, win streaks, chart;
and the player is told why."""

import pytest
from django.urls import reverse

from games.models import Game
from games.selectors import game_stats_for_player
from players.selectors import player_score_charts, player_stats_rows, player_win_streaks
from reviews import services
from reviews.models import GameReview
from tests.reviews.helpers import committed, won_game
from tests.specs import override_game_specs

pytestmark = pytest.mark.django_db

WHY = "this result is being checked and is left out of your figures until it is cleared"


@pytest.fixture
def fast_win(player, settings, monkeypatch):
    """A Klondike win played in no time: the review flags it as too fast."""
    settings.REDIS_URL = ""
    override_game_specs(monkeypatch, klondike={"min_win_seconds": 45})
    game = won_game(player)
    with committed():
        services.game_review(game_id=game.id)
    assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW
    game.refresh_from_db()
    return game


def _counted(player) -> tuple[int, int, int | None, int, int]:
    stats = game_stats_for_player(player=player)
    streaks = player_win_streaks(player=player)["overall"]
    _rows, overall = player_stats_rows(player=player)
    charts = player_score_charts(player=player)
    points = sum(len(chart.points) for chart in charts) if charts else 0
    assert (overall.won, overall.played) == (stats.won, stats.played)
    return stats.played, stats.won, stats.fastest_win_seconds, streaks.longest, points


def test_a_win_under_review_is_out_of_every_figure_until_it_is_cleared(fast_win, player, reviewer):
    assert fast_win.review_hold == Game.ReviewHold.HELD
    assert _counted(player) == (0, 0, None, 0, 0)
    with committed():
        services.review_flags_dismiss(game_id=fast_win.id, reviewer=reviewer, note="Fine.")
    fast_win.refresh_from_db()
    assert fast_win.counted
    assert _counted(player) == (1, 1, fast_win.elapsed_seconds, 1, 1)


def test_a_voided_result_stays_out_and_a_restored_one_comes_back(fast_win, player, reviewer):
    with committed():
        services.review_flags_dismiss(game_id=fast_win.id, reviewer=reviewer, note="Fine.")
        services.review_void(game_id=fast_win.id, reviewer=reviewer, note="Forged.")
    assert Game.objects.get(id=fast_win.id).review_hold == Game.ReviewHold.VOIDED
    assert _counted(player)[:2] == (0, 0)
    with committed():
        services.review_restore(game_id=fast_win.id, reviewer=reviewer, note="Fine after all.")
    assert Game.objects.get(id=fast_win.id).counted
    assert _counted(player)[:2] == (1, 1)


def test_the_player_is_told_why_on_the_summary_and_in_history(fast_win, player, player_client):
    board = player_client.get(reverse("games:detail", args=[fast_win.id])).content.decode()
    assert f'<p class="note" id="review-note">Under review: {WHY}.</p>' in board
    history = player_client.get(reverse("games:history")).content.decode()
    assert f'<small class="review-note">{WHY.capitalize()}.</small>' in history
    assert '<dd id="stat-fastest">\u2013</dd>' in history
    assert '<dd id="stat-won">0</dd>' in history
    profile = player_client.get(reverse("players:profile", args=[player.username])).content
    assert b"0:00" not in profile  # no fastest win from the game held out
