"""Verification by replay: the stored move log re-run from the deal must give the
stored status, score, final score, move count and position."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games import services as game_services
from games.models import Game
from games.tracks import casual_track
from leaderboards.models import Result
from reviews import services
from reviews.models import AuditEntry, Flag, GameReview, Verification
from reviews.replays import verify_game
from reviews.tasks import game_review_task, reviews_sweep_task
from tests.leaderboards.helpers import deal_of
from tests.reviews.helpers import (
    committed,
    finish,
    finished_game,
    lost_kingsley_game,
    play_moves,
    seed_win,
    spike_game,
    start,
    tamper,
    won_game,
)

pytestmark = pytest.mark.django_db


def automatic(game):
    return Verification.objects.get(game=game, automatic=True)


class TestMatchingGames:
    def test_a_won_game_matches_and_stays_clear(self, player):
        with committed():
            game = won_game(player)
        assert game.status == Game.Status.WON
        assert game.move_count == len(seed_win()["moves"])
        verification = automatic(game)
        assert verification.ok, verification.details
        assert verification.details.startswith("Replay matches: won (won)")
        assert verification.figures["replayed"] == {
            "status": "won",
            "score": game.score,
            "final_score": game.final_score,
            "moves_applied": game.move_count,
        }
        assert not Flag.objects.filter(game=game).exists()
        assert GameReview.objects.get(game=game).state == GameReview.State.CLEAR

    def test_a_finished_game_matches_in_progress(self, player):
        with committed():
            game = finished_game(player, moves=12)
        assert game.status == Game.Status.FINISHED
        assert automatic(game).ok
        assert automatic(game).figures["replayed"]["status"] == "in_progress"

    def test_a_lost_game_matches_lost(self, player):
        game = lost_kingsley_game(player)
        assert game.status == Game.Status.LOST
        outcome = verify_game(game)
        assert outcome.ok, outcome.details

    def test_an_abandoned_game_matches(self, player):
        game = play_moves(start(player), seed_win()["moves"][:5])
        game_services.game_restart(game_id=game.id, player=player)
        game.refresh_from_db()
        assert game.status == Game.Status.ABANDONED
        assert verify_game(game).ok

    def test_a_final_score_with_the_time_taken_off_matches(self, player):
        game = spike_game(player)
        game = tamper(game, elapsed_ms=95_000)
        # The stored final score was computed with the time of the close: put the
        # one that time gives, as the close would have.
        from games.engine import get_variant

        variant = get_variant("spike")
        final = variant.final_score(variant.load(game.state), 95)
        game = tamper(game, final_score=final)
        outcome = verify_game(game)
        assert outcome.ok, outcome.details
        assert outcome.figures["replayed"]["final_score"] == final


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("klondike", None),
        ("kingsley", None),
        ("spiderette", None),
        ("steps", None),
        ("spike", {"mode": "classic"}),
        ("spike", {"mode": "time_attack"}),
        ("spike", {"mode": "relaxed"}),
    ],
    ids=lambda value: value if isinstance(value, str) else (value or {}).get("mode", "-"),
)
def test_every_variant_verifies_after_a_few_moves(player, variant, options):
    from games.engine import format_move, get_variant

    engine = get_variant(variant)
    game = game_services.game_start(
        player=player, variant=variant, track=casual_track(options=options)
    )
    for _ in range(6):
        game.refresh_from_db()
        legal = engine.legal_moves(engine.load(game.state))
        if not game.is_active or not legal:
            break
        game_services.game_move_play(
            game_id=game.id, player=player, move=format_move(legal[-1]), revision=game.revision
        )
    game.refresh_from_db()
    if game.is_active:
        game = finish(game)
    assert game.move_count > 0
    outcome = verify_game(game)
    assert outcome.ok, outcome.details


class TestTamperedGames:
    def test_a_tampered_move_log_is_a_replay_mismatch(self, player):
        game = finished_game(player, moves=12)
        log = list(game.move_log)
        log[3] = "t7-f"  # a move that the deal does not allow there
        game = tamper(game, move_log=log)
        assert services.game_review(game_id=game.id) is True
        verification = automatic(game)
        assert not verification.ok
        assert "move 4 ('t7-f') was refused" in verification.details
        flag = Flag.objects.get(game=game)
        assert flag.kind == Flag.Kind.REPLAY_MISMATCH
        assert flag.status == Flag.Status.OPEN
        assert "move 4 ('t7-f') was refused" in flag.details
        assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW

    def test_a_shortened_move_log_is_a_replay_mismatch(self, player):
        game = finished_game(player, moves=12)
        game = tamper(game, move_log=game.move_log[:-1])
        outcome = verify_game(game)
        assert not outcome.ok
        assert "moves: stored 12, 11 in the log, 11 replayed" in outcome.details
        assert "the stored position differs from the replayed one" in outcome.details

    def test_a_tampered_score_is_a_replay_mismatch(self, player):
        game = finished_game(player, moves=12)
        game = tamper(game, score=game.score + 500)
        outcome = verify_game(game)
        assert not outcome.ok
        assert outcome.mismatches == [f"score: stored {game.score}, replayed {game.score - 500}"]

    def test_a_tampered_final_score_is_a_replay_mismatch(self, player):
        game = finished_game(player, moves=12)
        game = tamper(game, final_score=999)
        outcome = verify_game(game)
        assert outcome.mismatches == [f"final score: stored 999, replayed {game.score}"]

    def test_a_tampered_status_is_a_replay_mismatch(self, player):
        game = tamper(finished_game(player, moves=12), status=Game.Status.WON)
        outcome = verify_game(game)
        assert outcome.mismatches == ["status: stored won, the replay ends in progress"]

    def test_a_tampered_position_is_a_replay_mismatch(self, player):
        game = finished_game(player, moves=12)
        state = dict(game.state)
        state["stock"], state["waste"] = state["waste"], state["stock"]
        outcome = verify_game(tamper(game, state=state))
        assert not outcome.ok

    def test_a_game_dealt_from_other_cards_than_its_seed_is_a_mismatch(self, player):
        game = finished_game(player, moves=12)
        game = tamper(game, seed="some-other-seed")
        assert not verify_game(game).ok

    def test_a_mismatch_keeps_the_result_off_the_leaderboards(self, player, settings):
        settings.REDIS_URL = ""
        deal = deal_of("klondike")
        game = finished_game(player, moves=12, deal=deal)
        game = tamper(game, score=77)
        Result.objects.filter(game=game).update(score=77)
        with committed():
            services.game_review(game_id=game.id)
        assert Result.objects.get(game=game).listed is False


class TestOnceAndSweep:
    def test_the_task_runs_on_finish_and_twice_has_one_effect(self, player):
        assert "reviews.tasks.game_review_task" in settings.GAME_CLOSED_TASKS
        with committed():
            game = finished_game(player, moves=12)
        assert Verification.objects.filter(game=game).count() == 1
        assert game_review_task.delay(str(game.id)).get() is False
        assert services.game_review(game_id=game.id) is False
        assert Verification.objects.filter(game=game).count() == 1

    def test_a_tampered_game_reviewed_twice_has_one_flag_and_one_audit_entry(self, player):
        game = tamper(finished_game(player, moves=12), score=5)
        assert services.game_review(game_id=game.id) is True
        assert services.game_review(game_id=game.id) is False
        assert Flag.objects.filter(game=game).count() == 1
        entry = AuditEntry.objects.get(game_id=game.id)
        assert entry.action == AuditEntry.Action.FLAG_RAISED
        assert entry.actor is None
        assert entry.actor_name == "system"

    def test_an_active_game_is_not_reviewed(self, player):
        game = start(player)
        assert services.game_review(game_id=game.id) is False
        assert not Verification.objects.exists()

    def test_the_sweep_reviews_closed_games_the_task_missed(self, player, make_user):
        missed = finished_game(player, moves=12)  # its on-commit hooks never ran
        recent = finished_game(make_user("bob"), moves=12)
        old_enough = timezone.now() - timedelta(seconds=settings.REVIEW_SWEEP_GRACE_SECONDS + 5)
        Game.objects.filter(id=missed.id).update(finished_at=old_enough)
        active = start(make_user("carol"))
        swept = reviews_sweep_task.delay().get()
        assert (swept["reviewed"], swept["outliers_flagged"]) == (1, 0)
        assert Verification.objects.filter(game=missed, automatic=True).exists()
        # A game that just closed is left to its own task for a minute.
        assert not Verification.objects.filter(game=recent).exists()
        assert not Verification.objects.filter(game=active).exists()
        swept = reviews_sweep_task.delay().get()
        assert (swept["reviewed"], swept["outliers_flagged"]) == (0, 0)

    def test_the_sweep_leaves_games_older_than_its_window_to_the_backfill(self, player):
        from django.core.management import call_command

        game = finished_game(player, moves=12)
        Game.objects.filter(id=game.id).update(
            finished_at=timezone.now() - timedelta(days=settings.REVIEW_SWEEP_DAYS + 1)
        )
        assert reviews_sweep_task.delay().get()["reviewed"] == 0
        call_command("reviews_backfill", stdout=open("/dev/null", "w"))  # noqa: SIM115
        assert Verification.objects.filter(game=game, automatic=True).exists()

    def test_a_game_finished_by_hand_verifies_after_finish(self, player):
        game = play_moves(start(player), seed_win()["moves"][:3])
        with committed():
            finish(game)
        assert automatic(game).ok


@pytest.mark.django_db(transaction=True)
def test_simultaneous_reviews_of_one_game_make_one_verification(player, settings):
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the row lock is exercised on PostgreSQL")
    settings.GAME_CLOSED_TASKS = []  # committing for real here: no task on the close
    game = tamper(finished_game(player, moves=12), score=3)
    barrier = threading.Barrier(4)
    outcomes: list[bool] = []

    def review() -> None:
        barrier.wait()
        try:
            outcomes.append(services.game_review(game_id=game.id))
        finally:
            connection.close()

    threads = [threading.Thread(target=review) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == [False, False, False, True]
    assert Verification.objects.filter(game=game).count() == 1
    assert Flag.objects.filter(game=game).count() == 1
    assert AuditEntry.objects.filter(game_id=game.id).count() == 1
