"""A player's first attempt at a daily deal is ranked; everything after is practice."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from games import services as game_services
from games.models import Game
from leaderboards import services
from leaderboards.models import Result
from leaderboards.services import daily_track
from tests.leaderboards.helpers import (
    committed,
    deal_of,
    finish,
    play_daily_and_finish,
    replay_fixture,
    start_daily,
)

pytestmark = pytest.mark.django_db


def test_the_first_attempt_is_ranked_and_deals_the_daily_cards(player):
    deal = deal_of("klondike")
    game = start_daily(player, deal)
    assert game.is_ranked
    assert (game.track, game.track_ref) == (Game.Track.DAILY, deal.track_ref)
    assert (game.seed, game.options) == (deal.seed, deal.options)


def test_everyone_gets_the_same_cards(player, make_user):
    deal = deal_of("klondike")
    mine = start_daily(player, deal)
    theirs = start_daily(make_user("bob"), deal)
    assert mine.state == theirs.state
    assert mine.is_ranked
    assert theirs.is_ranked


def test_playing_again_while_the_attempt_is_open_resumes_it(player):
    deal = deal_of("klondike")
    assert start_daily(player, deal) == start_daily(player, deal)
    assert Game.objects.filter(player=player, track_ref=deal.track_ref).count() == 1


def test_a_later_attempt_is_practice_and_writes_no_result(player):
    deal = deal_of("klondike")
    ranked = play_daily_and_finish(player, deal)
    later = play_daily_and_finish(player, deal)
    assert ranked.is_ranked
    assert not later.is_ranked
    assert later.state == start_daily(player, deal).state  # the same cards
    assert list(Result.objects.values_list("game_id", flat=True)) == [ranked.id]


def test_restarting_the_ranked_attempt_is_practice_and_the_attempt_stands(player):
    deal = deal_of("klondike")
    ranked = start_daily(player, deal)
    with committed():
        game_services.game_move_play(game_id=ranked.id, player=player, move="draw", revision=0)
        restarted = game_services.game_restart(game_id=ranked.id, player=player)
    ranked.refresh_from_db()
    assert ranked.status == Game.Status.ABANDONED
    assert not restarted.is_ranked
    assert restarted.restart_of_id == ranked.id
    assert (restarted.track, restarted.track_ref) == (Game.Track.DAILY, deal.track_ref)
    result = Result.objects.get()
    assert (result.game_id, result.move_count, result.won) == (ranked.id, 1, False)
    finish(restarted)
    assert Result.objects.count() == 1


def test_the_board_says_ranked_attempt_or_practice(player_client, player):
    deal = deal_of("klondike")
    ranked = start_daily(player, deal)
    page = player_client.get(reverse("games:detail", kwargs={"game_id": ranked.id}))
    assert b'id="daily-label"' in page.content
    assert b"ranked attempt" in page.content
    practice = game_services.game_restart(game_id=ranked.id, player=player)
    page = player_client.get(reverse("games:detail", kwargs={"game_id": practice.id}))
    assert b"practice" in page.content
    assert b"ranked attempt" not in page.content


def test_a_casual_game_of_the_same_variant_is_left_alone(player):
    casual = game_services.game_start(player=player, variant="klondike")
    start_daily(player, deal_of("klondike"))
    casual.refresh_from_db()
    assert casual.is_active
    assert not casual.is_ranked


def test_finishing_records_the_result_with_the_final_figures(player):
    deal = deal_of("klondike")
    game = start_daily(player, deal)
    with committed():
        game_services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    game = finish(game)
    result = Result.objects.get(game=game)
    assert result.daily_deal_id == deal.id
    assert result.player_id == player.id
    assert result.variant == "klondike"
    assert result.won is False
    assert result.score == game.final_score
    assert (result.elapsed_ms, result.move_count) == (game.elapsed_ms, 1)
    assert result.finished_at == game.finished_at
    assert result.rank_key == services.ranking_rule_for("klondike").rank_key(result)


def test_a_win_records_a_won_result(player):
    game = replay_fixture(start_daily(player, deal_of("klondike")), "klondike_win.json")
    assert game.status == Game.Status.WON
    result = Result.objects.get(game=game)
    assert result.won is True
    assert result.score == game.final_score


def test_a_loss_records_a_lost_result(player):
    game = replay_fixture(start_daily(player, deal_of("kingsley")), "kingsley_lost.json")
    assert game.status == Game.Status.ACTIVE  # a loss is announced; it counts once accepted
    assert not Result.objects.filter(game=game).exists()
    game_services.game_loss_accept(game_id=game.id, player=player, revision=game.revision)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    result = Result.objects.get(game=game)
    assert result.won is False
    assert result.move_count == game.move_count


def test_an_unranked_close_writes_nothing(player):
    game = game_services.game_start(player=player, variant="klondike")
    with committed():
        game_services.game_finish(game_id=game.id, player=player, revision=0)
    assert not Result.objects.exists()


def test_the_database_allows_one_result_per_player_and_deal(player):
    deal = deal_of("klondike")
    ranked = play_daily_and_finish(player, deal)
    practice = play_daily_and_finish(player, deal)
    first = Result.objects.get(game=ranked)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(
            game=practice,
            daily_deal=deal,
            player=player,
            variant="klondike",
            won=False,
            score=0,
            elapsed_ms=0,
            move_count=0,
            rank_key=first.rank_key,
            finished_at=first.finished_at,
        )


def test_the_database_allows_one_ranked_game_per_player_and_deal(player):
    deal = deal_of("klondike")
    start_daily(player, deal)
    with pytest.raises(IntegrityError), transaction.atomic():
        game_services.game_start(
            player=player, variant="klondike", track=daily_track(deal=deal, ranked=True)
        )
