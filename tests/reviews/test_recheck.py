"""Tampering after review: every verification stores a digest of what it verified,
and the sweep rechecks listed results (all of today's and yesterday's deals, and a
random sample of the rest) against it, replaying where it differs."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Game
from leaderboards import selectors
from leaderboards.models import DailyDeal, Result
from leaderboards.periods import today_utc
from leaderboards.services import ranking_rule_for
from reviews import services
from reviews.models import AuditEntry, Flag, GameReview, Verification
from reviews.replays import game_record_digest, record_digest, verify_game
from reviews.services import recheck
from reviews.tasks import reviews_sweep_task
from tests.leaderboards.helpers import deal_of
from tests.reviews.helpers import committed, finished_game, tamper

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _database_ranks(settings):
    settings.REDIS_URL = ""


@pytest.fixture
def replays(monkeypatch):
    """Counts the replays the recheck asks for (and still runs them)."""
    calls: list[Game] = []

    def counting(game):
        calls.append(game)
        return verify_game(game)

    monkeypatch.setattr(recheck, "verify_game", counting)
    return calls


def reviewed_ranked_game(player, *, moves=12, day=None):
    """A ranked daily game, closed and reviewed as the task on finish does: clear, listed."""
    deal = deal_of("klondike")
    with committed():
        game = finished_game(player, moves=moves, deal=deal)
    if day is not None:  # the same deal, on another day
        DailyDeal.objects.filter(id=deal.id).update(date=day)
    assert GameReview.objects.get(game=game).state == GameReview.State.CLEAR
    assert Result.objects.get(game=game).listed is True
    return game


def rewrite_to_another_line(game, other):
    """A forgery consistent enough to replay: the game's record replaced by
    another real line of the same deal (`other`), and its result to match."""
    fields = ["state", "move_log", "score", "final_score", "move_count", "status"]
    tamper(game, **{field: getattr(other, field) for field in fields})
    forged = Game.objects.get(id=game.id)
    result = Result.objects.get(game=game)
    result.move_count, result.score = forged.move_count, forged.final_score
    Result.objects.filter(id=result.id).update(
        move_count=result.move_count,
        score=result.score,
        rank_key=ranking_rule_for("klondike").rank_key(result),
    )
    assert verify_game(forged).ok  # the replay alone would not see it
    return forged


def sweep():
    return reviews_sweep_task.delay().get()


def on_the_board(game):
    deal = DailyDeal.objects.get(id=int(game.track_ref))
    page = selectors.leaderboard_for_deal(deal=deal, viewer=None)
    return game.player.username in [row.username for row in page.rows]


class TestTheDigest:
    def test_the_automatic_verification_stores_the_digest_of_what_it_verified(self, player):
        game = reviewed_ranked_game(player)
        verification = Verification.objects.get(game=game, automatic=True)
        assert len(verification.digest) == 64
        assert verification.digest == game_record_digest(game, Result.objects.get(game=game))

    def test_it_covers_the_move_log_figures_and_the_result(self):
        game = {
            "status": "finished",
            "score": 10,
            "final_score": 10,
            "move_count": 2,
            "elapsed_ms": 5000,
            "move_log": ["d", "w-t1"],
        }
        result = {
            "player_id": 1,
            "daily_deal_id": 2,
            "score": 10,
            "won": False,
            "move_count": 2,
            "elapsed_ms": 5000,
            "rank_key": 99,
        }
        digest = record_digest(game, result)
        assert digest == record_digest(dict(reversed(game.items())), result)  # canonical
        changed = {
            record_digest({**game, field: value}, result)
            for field, value in [
                ("status", "won"),
                ("score", 710),
                ("final_score", 710),
                ("move_count", 3),
                ("elapsed_ms", 4000),
                ("move_log", ["d"]),
            ]
        } | {
            record_digest(game, {**result, field: value})
            for field, value in [("score", 710), ("won", True), ("rank_key", 100)]
        }
        assert digest not in changed
        assert len(changed) == 9
        assert record_digest(game, None) != digest


class TestTamperingAfterReview:
    def test_score_and_move_log_changed_after_review_are_flagged_and_unlisted(self, player):
        game = reviewed_ranked_game(player)
        assert on_the_board(game)
        tamper(game, score=game.score + 700, move_log=game.move_log[:3])
        assert services.game_review(game_id=game.id) is False  # reviewed once, as before
        with committed():
            swept = sweep()
        assert (swept["replayed"], swept["recheck_flagged"]) == (1, 1)
        flag = Flag.objects.get(game=game)
        assert flag.kind == Flag.Kind.REPLAY_MISMATCH
        assert flag.status == Flag.Status.OPEN
        assert "score: stored" in flag.details
        assert "moves: stored 12, 3 in the log, 3 replayed" in flag.details
        assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW
        assert Result.objects.get(game=game).listed is False
        assert not on_the_board(game)
        recheck = Verification.objects.get(game=game, recheck=True)
        assert not recheck.ok
        assert recheck.automatic is False
        assert recheck.source == "sweep recheck"
        assert recheck.digest == game_record_digest(
            Game.objects.get(id=game.id), Result.objects.get(game=game)
        )
        entry = AuditEntry.objects.get(game_id=game.id, action=AuditEntry.Action.FLAG_RAISED)
        assert entry.actor_name == "system"

        entries, verifications = AuditEntry.objects.count(), Verification.objects.count()
        with committed():
            again = sweep()
        assert (again["replayed"], again["recheck_flagged"]) == (0, 0)
        assert (AuditEntry.objects.count(), Verification.objects.count()) == (
            entries,
            verifications,
        )
        assert Flag.objects.filter(game=game).count() == 1

    def test_a_result_row_changed_on_its_own_is_flagged(self, player):
        game = reviewed_ranked_game(player)
        result = Result.objects.get(game=game)
        Result.objects.filter(id=result.id).update(score=result.score + 700)
        with committed():
            assert sweep()["recheck_flagged"] == 1
        flag = Flag.objects.get(game=game)
        assert (
            f"result: score {result.score + 700} on the leaderboards, the game's final score "
            f"{game.final_score}" in flag.details
        )
        assert Result.objects.get(game=game).listed is False

    def test_a_rank_key_changed_on_its_own_is_a_mismatch(self, player):
        game = reviewed_ranked_game(player)
        Result.objects.filter(game=game).update(rank_key=1 << 52)
        outcome = verify_game(game)
        assert not outcome.ok
        assert any(
            m.startswith("result: rank key: on the leaderboards") for m in outcome.mismatches
        )

    def test_yesterdays_deal_is_rechecked_in_full(self, player, settings):
        settings.REVIEW_RESAMPLE_SIZE = 0
        game = reviewed_ranked_game(player, day=today_utc() - timedelta(days=1))
        tamper(game, score=game.score + 700)
        assert sweep()["recheck_flagged"] == 1
        assert Result.objects.get(game=game).listed is False

    def test_an_older_deal_is_rechecked_when_sampled(self, player, settings):
        game = reviewed_ranked_game(player, day=today_utc() - timedelta(days=10))
        tamper(game, score=game.score + 700)
        settings.REVIEW_RESAMPLE_SIZE = 0
        assert sweep()["rechecked"] == 0  # neither recent nor drawn
        assert Result.objects.get(game=game).listed is True
        settings.REVIEW_RESAMPLE_SIZE = 5
        assert sweep()["recheck_flagged"] == 1
        assert Result.objects.get(game=game).listed is False

    def test_a_record_rewritten_to_a_line_that_replays_is_still_caught(self, player, make_user):
        """A closed game never changes, so a digest that differs is itself the finding."""
        game = reviewed_ranked_game(player, moves=12)
        rewrite_to_another_line(game, finished_game(make_user("bob"), moves=10))
        assert sweep()["recheck_flagged"] == 1
        flag = Flag.objects.get(game=game)
        assert flag.details.startswith("Replay mismatch: the record changed after its verification")
        assert "although the replay of the new record matches" in flag.details
        assert set(flag.figures["digest"]) == {"verified", "now"}
        assert Result.objects.get(game=game).listed is False


class TestNothingChanged:
    def test_an_untampered_sample_changes_nothing_and_replays_nothing(
        self, player, make_user, settings, replays
    ):
        today = reviewed_ranked_game(player)
        old_deal = deal_of("klondike", today_utc() - timedelta(days=30))
        with committed():
            old = finished_game(make_user("bob"), moves=8, deal=old_deal)
        settings.REVIEW_RESAMPLE_SIZE = 10
        before = (Verification.objects.count(), AuditEntry.objects.count())
        replays.clear()
        for _ in range(2):
            swept = sweep()
            assert (swept["rechecked"], swept["replayed"], swept["recheck_flagged"]) == (2, 0, 0)
        assert replays == []
        assert (Verification.objects.count(), AuditEntry.objects.count()) == before
        assert not Flag.objects.exists()
        assert Result.objects.filter(game__in=[today, old], listed=True).count() == 2

    def test_a_verification_from_before_digests_is_replayed_once_and_then_trusted(
        self, player, replays
    ):
        game = reviewed_ranked_game(player)
        Verification.objects.filter(game=game).update(digest="")
        replays.clear()
        swept = sweep()
        assert (swept["replayed"], swept["recheck_flagged"]) == (1, 0)
        assert len(replays) == 1
        recheck = Verification.objects.get(game=game, recheck=True)
        assert recheck.ok
        assert recheck.digest == game_record_digest(game, Result.objects.get(game=game))
        assert sweep()["replayed"] == 0
        assert len(replays) == 1
        assert Result.objects.get(game=game).listed is True

    def test_a_game_not_reviewed_yet_is_left_to_the_review(self, player, replays):
        game = finished_game(player, moves=12, deal=deal_of("klondike"))  # no task ran
        assert sweep()["rechecked"] == 0
        assert replays == []
        assert Result.objects.get(game=game).listed is True


class TestAfterADecision:
    def test_a_dismissed_mismatch_stands_until_the_record_changes_again(self, player, reviewer):
        game = reviewed_ranked_game(player)
        tamper(game, score=game.score + 700)
        with committed():
            assert sweep()["recheck_flagged"] == 1
        with committed():
            services.review_flags_dismiss(
                game_id=game.id, reviewer=reviewer, note="Checked by hand: fine."
            )
        assert Result.objects.get(game=game).listed is True
        # The record the reviewer decided on is the one the recheck vouched for.
        assert sweep()["replayed"] == 0
        assert Result.objects.get(game=game).listed is True

        tamper(game, move_log=game.move_log[:3])
        with committed():
            assert sweep()["recheck_flagged"] == 1
        flags = list(Flag.objects.filter(game=game).order_by("id"))
        assert [flag.status for flag in flags] == [Flag.Status.DISMISSED, Flag.Status.OPEN]
        assert all(flag.kind == Flag.Kind.REPLAY_MISMATCH for flag in flags)
        assert Result.objects.get(game=game).listed is False

    def test_verify_again_after_a_rewrite_that_replays_raises_the_flag(
        self, player, reviewer, make_user
    ):
        game = reviewed_ranked_game(player, moves=12)
        rewrite_to_another_line(game, finished_game(make_user("bob"), moves=10))
        with committed():
            services.review_verify_again(game_id=game.id, reviewer=reviewer, note="Look again.")
        flag = Flag.objects.get(game=game)
        assert flag.details.startswith("Replay mismatch: the record changed after its verification")
        assert flag.raised_by == reviewer
        assert Result.objects.get(game=game).listed is False


def test_the_review_page_names_the_sweeps_recheck(player, reviewer, client):
    game = reviewed_ranked_game(player)
    tamper(game, score=game.score + 700)
    sweep()
    client.force_login(reviewer)
    html = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    runs = re.findall(r"<td>(automatic|sweep recheck|rita)</td>", html)
    assert runs == ["sweep recheck", "automatic"]


def test_replays_beyond_the_batch_wait_for_the_next_run(player, make_user, settings):
    settings.REVIEW_SWEEP_BATCH = 1
    games = [reviewed_ranked_game(player), reviewed_ranked_game(make_user("bob"))]
    for game in games:
        tamper(game, score=game.score + 700)
    first = sweep()
    assert (first["replayed"], first["recheck_flagged"], first["recheck_deferred"]) == (1, 1, 1)
    second = sweep()
    assert (second["replayed"], second["recheck_flagged"], second["recheck_deferred"]) == (1, 1, 0)
    assert Result.objects.filter(game__in=games, listed=True).count() == 0
