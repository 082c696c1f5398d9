"""The automatic flags, each both ways: implausible speed (per action, and a win
too fast) and a score outlier; each says why with the figures."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from games.models import Game
from leaderboards.models import Result
from leaderboards.periods import today_utc
from reviews import rules, services
from reviews.models import Flag, GameReview
from reviews.tasks import reviews_sweep_task
from tests.leaderboards.helpers import Figures, deal_of, insert_results
from tests.reviews.helpers import finished_game, tamper, won_game
from tests.specs import override_game_specs

pytestmark = pytest.mark.django_db


def flags_of(game):
    return list(Flag.objects.filter(game=game))


@pytest.fixture
def speed_rules(settings, monkeypatch):
    settings.REVIEW_MIN_SECONDS_PER_MOVE = 0.25
    settings.REVIEW_MIN_MOVES_FOR_SPEED = 20
    override_game_specs(monkeypatch, klondike={"min_win_seconds": 45})
    return settings


class TestSecondsPerAction:
    def test_faster_than_a_person_is_flagged_with_the_figures(self, player, speed_rules):
        game = finished_game(player, moves=24)
        assert game.revision == 25  # 24 moves and the finish
        game = tamper(game, elapsed_ms=5_000)  # 0.2 s per action
        services.game_review(game_id=game.id)
        [flag] = flags_of(game)
        assert flag.kind == Flag.Kind.IMPLAUSIBLE_SPEED
        assert flag.details == (
            "25 actions in 5.0 s: 0.200 s per action, under the 0.25 s limit "
            "(applies from 20 actions)."
        )
        assert flag.figures["seconds_per_action"] == 0.2
        assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW

    def test_a_person_s_pace_is_not_flagged(self, player, speed_rules):
        game = tamper(finished_game(player, moves=24), elapsed_ms=6_250)  # 0.25 s per action
        services.game_review(game_id=game.id)
        assert flags_of(game) == []
        assert GameReview.objects.get(game=game).state == GameReview.State.CLEAR

    def test_too_few_actions_say_nothing_about_pace(self, player, speed_rules):
        game = tamper(finished_game(player, moves=10), elapsed_ms=100)
        services.game_review(game_id=game.id)
        assert flags_of(game) == []


class TestWinTooFast:
    def test_a_win_under_the_game_s_threshold_is_flagged(self, player, speed_rules):
        game = tamper(won_game(player), elapsed_ms=44_500)  # 0.34 s per action: a fine pace
        services.game_review(game_id=game.id)
        [flag] = flags_of(game)
        assert flag.kind == Flag.Kind.IMPLAUSIBLE_SPEED
        assert flag.details == "Won in 44.5 s, under the 45 s limit for a win of this game."
        assert flag.figures == {"rule": "win_seconds", "seconds": 44.5, "limit": 45}

    def test_a_win_at_the_threshold_is_not_flagged(self, player, speed_rules):
        game = tamper(won_game(player), elapsed_ms=45_000)
        services.game_review(game_id=game.id)
        assert flags_of(game) == []

    def test_a_game_without_a_threshold_has_no_win_rule(self, player, speed_rules, monkeypatch):
        override_game_specs(monkeypatch, klondike={"min_win_seconds": None})
        game = tamper(won_game(player), elapsed_ms=40_000)
        services.game_review(game_id=game.id)
        assert flags_of(game) == []

    def test_both_rules_at_once_make_one_flag_with_both_reasons(self, player, speed_rules):
        game = tamper(won_game(player), elapsed_ms=10_000)
        services.game_review(game_id=game.id)
        [flag] = flags_of(game)
        assert "s per action" in flag.details
        assert "Won in 10.0 s" in flag.details
        assert [rule["rule"] for rule in flag.figures["rules"]] == [
            "seconds_per_action",
            "win_seconds",
        ]


@pytest.fixture
def outlier_rules(settings):
    settings.REDIS_URL = ""
    settings.REVIEW_OUTLIER_MIN_RESULTS = 20
    settings.REVIEW_OUTLIER_MADS = 5
    settings.REVIEW_OUTLIER_MIN_MAD = 1
    return settings


def others(deal, scores, prefix="o"):
    return insert_results(
        deal, [Figures(won=False, score=score) for score in scores], prefix=prefix
    )


class TestScoreOutlier:
    """Klondike's score is 0 until the fourth recycle: a game of a few moves
    scores 0, compared here with deals whose other results score lower."""

    def test_far_above_the_deal_s_other_results_is_flagged(self, player, outlier_rules):
        deal = deal_of("klondike")
        # -104, -102, -100, -98, -96 four times: median -100, MAD 2, threshold -90.
        others(deal, [-100 + 2 * (i % 5 - 2) for i in range(20)])
        game = finished_game(player, moves=12, deal=deal)
        assert Result.objects.get(game=game).score == 0
        services.game_review(game_id=game.id)
        [flag] = flags_of(game)
        assert flag.kind == Flag.Kind.SCORE_OUTLIER
        assert flag.details == (
            "Score 0 is above median -100 + 5 x MAD 2 = -90, over the deal's 20 other "
            "results with the same outcome."
        )
        assert flag.figures["threshold"] == -90
        assert Result.objects.get(game=game).listed is False

    def test_within_the_spread_is_not_flagged(self, player, outlier_rules):
        deal = deal_of("klondike")
        others(deal, [-20 + 4 * (i % 5) for i in range(20)])  # median -12, MAD 4: up to 8
        others(deal, [0], prefix="top")  # one other game scored 0 too
        game = finished_game(player, moves=12, deal=deal)
        services.game_review(game_id=game.id)
        assert flags_of(game) == []
        assert Result.objects.get(game=game).listed is True

    def test_only_results_with_the_same_outcome_count(self, player, outlier_rules):
        deal = deal_of("klondike")
        insert_results(deal, [Figures(won=True, score=-100) for _ in range(20)])
        game = finished_game(player, moves=12, deal=deal)
        services.game_review(game_id=game.id)
        assert flags_of(game) == []  # no other unfinished result to compare with
        assert GameReview.objects.get(game=game).outlier_pending is True

    def test_too_few_results_wait_and_the_sweep_judges_them_later(self, player, outlier_rules):
        deal = deal_of("klondike")
        others(deal, [-100] * 5, prefix="early")
        game = finished_game(player, moves=12, deal=deal)
        services.game_review(game_id=game.id)
        assert flags_of(game) == []
        assert GameReview.objects.get(game=game).outlier_pending is True

        others(deal, [-100] * 15, prefix="late")
        assert reviews_sweep_task.delay().get()["outliers_flagged"] == 1
        [flag] = flags_of(game)
        assert flag.kind == Flag.Kind.SCORE_OUTLIER
        assert "over the deal's 20 other results" in flag.details
        assert GameReview.objects.get(game=game).outlier_pending is False
        assert reviews_sweep_task.delay().get()["outliers_flagged"] == 0

    def test_a_deal_gone_by_stops_waiting(self, player, outlier_rules):
        deal = deal_of("klondike", today_utc() - timedelta(days=5))
        game = finished_game(player, moves=12)
        Game.objects.filter(id=game.id).update(track=Game.Track.DAILY, track_ref=deal.track_ref)
        services.game_review(game_id=game.id)
        GameReview.objects.filter(game=game).update(outlier_pending=True)
        services.outliers_recheck(today=today_utc())
        assert GameReview.objects.get(game=game).outlier_pending is False

    def test_a_game_without_a_ranked_result_has_no_score_check(self, player, outlier_rules):
        game = finished_game(player, moves=12)
        services.game_review(game_id=game.id)
        assert GameReview.objects.get(game=game).outlier_pending is False
        assert flags_of(game) == []


class TestRules:
    def test_the_median_and_mad_are_robust_to_a_few_extremes(self):
        check = rules.score_outlier(
            score=30, others=[10] * 11 + [11] * 8 + [10_000], min_results=20, mads=5, min_mad=1
        )
        assert check.checked
        assert check.finding is not None
        assert check.finding.figures["median"] == 10
        assert check.finding.figures["threshold"] == 15

    def test_a_mad_of_zero_counts_as_the_minimum(self):
        check = rules.score_outlier(score=14, others=[10] * 20, min_results=20, mads=5, min_mad=1)
        assert check.checked
        assert check.finding is None


def test_one_open_flag_per_kind_and_game(player):
    game = finished_game(player, moves=3)
    Flag.objects.create(game=game, kind=Flag.Kind.SCORE_OUTLIER, details="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        Flag.objects.create(game=game, kind=Flag.Kind.SCORE_OUTLIER, details="y")
    Flag.objects.create(game=game, kind=Flag.Kind.IMPLAUSIBLE_SPEED, details="z")
    Flag.objects.filter(kind=Flag.Kind.SCORE_OUTLIER).update(status=Flag.Status.DISMISSED)
    Flag.objects.create(game=game, kind=Flag.Kind.SCORE_OUTLIER, details="again")
    assert Flag.objects.filter(game=game).count() == 3


def test_a_dismissed_kind_is_not_raised_again_by_the_automatic_checks(player, outlier_rules):
    deal = deal_of("klondike")
    others(deal, [-100] * 5)
    game = finished_game(player, moves=12, deal=deal)
    services.game_review(game_id=game.id)
    Flag.objects.create(
        game=game, kind=Flag.Kind.SCORE_OUTLIER, details="x", status=Flag.Status.DISMISSED
    )
    others(deal, [-100] * 15, prefix="more")
    services.outliers_recheck(today=today_utc())
    assert Flag.objects.filter(game=game, status=Flag.Status.OPEN).count() == 0
