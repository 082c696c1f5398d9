"""Reviewers' actions: void and restore move the result off and back onto every
leaderboard (database and Redis paths, ranks rebuilt, period tables), dismissing
the last open flag lists it again; each action needs a note and writes an audit
entry that nobody can change or delete."""

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection, transaction

from leaderboards import redis_ranks, selectors
from leaderboards import services as leaderboard_services
from leaderboards.models import PeriodBest, Result
from leaderboards.periods import today_utc
from reviews import services
from reviews.models import AuditEntry, AuditLogImmutable, Flag, GameReview, Verification
from tests.leaderboards.helpers import Figures, deal_of, insert_results
from tests.reviews.helpers import committed, finished_game, tamper

pytestmark = pytest.mark.django_db


def names(page):
    return [row.username for row in page.rows]


def period_names(variant, period):
    table = selectors.period_leaderboard(variant=variant, period=period, today=today_utc())
    return [best.player.username for best in table.page.object_list]


@pytest.fixture
def ranked(source, player):
    """A deal with two other results and the player's clean ranked game on top."""
    deal = deal_of("klondike")
    insert_results(deal, [Figures(score=-20), Figures(score=-40)])
    if source == "redis":
        leaderboard_services.leaderboard_rebuild(deal_id=deal.id)
    with committed():
        game = finished_game(player, moves=12, deal=deal)
    leaderboard_services.period_rankings_compute_all(today=today_utc())
    assert GameReview.objects.get(game=game).state == GameReview.State.CLEAR
    page = selectors.leaderboard_for_deal(deal=deal, viewer=player)
    assert page.source == source
    assert names(page)[0] == player.username
    assert period_names("klondike", "week")[0] == player.username
    return deal, game


class TestVoidAndRestore:
    def test_void_takes_the_result_off_every_leaderboard_at_once(
        self, ranked, player, reviewer, source
    ):
        deal, game = ranked
        with committed():
            services.review_void(game_id=game.id, reviewer=reviewer, note="Used a solver.")
        assert Result.objects.get(game=game).listed is False
        page = selectors.leaderboard_for_deal(deal=deal, viewer=player)
        assert page.source == source
        assert player.username not in names(page)
        assert page.total == 2
        assert page.rows[0].rank == 1
        assert page.viewer_row is None
        assert selectors.player_rank(deal=deal, player=player) is None
        assert player.username not in period_names("klondike", "week")
        assert player.username not in period_names("klondike", "all")
        assert not PeriodBest.objects.filter(player=player).exists()
        if source == "redis":
            assert redis_ranks.size(deal.id) == 2
            assert deal.id not in leaderboard_services.leaderboards_sync(since=deal.date)
        assert GameReview.objects.get(game=game).state == GameReview.State.VOIDED

    def test_restore_puts_it_back_with_its_rank(self, ranked, player, reviewer, source):
        deal, game = ranked
        with committed():
            services.review_void(game_id=game.id, reviewer=reviewer, note="Used a solver.")
        with committed():
            services.review_restore(game_id=game.id, reviewer=reviewer, note="Appeal upheld.")
        assert Result.objects.get(game=game).listed is True
        page = selectors.leaderboard_for_deal(deal=deal, viewer=player)
        assert page.source == source
        assert names(page)[0] == player.username
        assert page.viewer_row is not None
        assert page.viewer_row.rank == 1
        assert period_names("klondike", "week")[0] == player.username
        assert period_names("klondike", "all")[0] == player.username
        assert GameReview.objects.get(game=game).state == GameReview.State.CLEAR

    def test_the_live_entry_leaves_before_the_rebuild_runs(
        self, ranked, player, reviewer, source, monkeypatch
    ):
        if source != "redis":
            pytest.skip("the Redis path")
        from leaderboards.tasks import leaderboard_rebuild_task

        deal, game = ranked
        enqueued = []
        monkeypatch.setattr(
            leaderboard_rebuild_task, "apply_async", lambda args, **kw: enqueued.append(args)
        )
        with committed():
            services.review_void(game_id=game.id, reviewer=reviewer, note="Used a solver.")
        assert enqueued == [(deal.id,)]
        assert redis_ranks.rank_of(deal.id, player.pk) is None
        assert redis_ranks.size(deal.id) == 2

    def test_a_flagged_result_stays_off_until_its_flag_is_dismissed(self, source, player, reviewer):
        deal = deal_of("klondike")
        insert_results(deal, [Figures(score=-20)])
        if source == "redis":
            leaderboard_services.leaderboard_rebuild(deal_id=deal.id)
        game = tamper(finished_game(player, moves=12, deal=deal), score=3)
        with committed():
            services.game_review(game_id=game.id)
        assert names(selectors.leaderboard_for_deal(deal=deal)) == ["p0000"]
        assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW
        with committed():
            services.review_flags_dismiss(
                game_id=game.id, reviewer=reviewer, note="Score field repaired by hand."
            )
        assert names(selectors.leaderboard_for_deal(deal=deal))[0] == player.username
        assert GameReview.objects.get(game=game).state == GameReview.State.CLEAR
        assert Flag.objects.get(game=game).status == Flag.Status.DISMISSED

    def test_a_void_upholds_the_open_flags_and_a_restore_lists_the_game(self, player, reviewer):
        game = tamper(finished_game(player, moves=12), score=3)
        services.game_review(game_id=game.id)
        services.review_void(game_id=game.id, reviewer=reviewer, note="Forged score.")
        flag = Flag.objects.get(game=game)
        assert (flag.status, flag.resolved_by) == (Flag.Status.UPHELD, reviewer)
        services.review_restore(game_id=game.id, reviewer=reviewer, note="Changed my mind.")
        assert GameReview.objects.get(game=game).state == GameReview.State.CLEAR

    def test_with_another_flag_open_a_restored_game_stays_under_review(self, player, reviewer):
        game = finished_game(player, moves=12)
        services.game_review(game_id=game.id)
        services.review_void(game_id=game.id, reviewer=reviewer, note="Reported by players.")
        tamper(game, score=9)
        services.review_verify_again(game_id=game.id, reviewer=reviewer, note="Check again.")
        services.review_restore(game_id=game.id, reviewer=reviewer, note="Not a cheat.")
        assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW

    def test_refusals_change_nothing(self, player, reviewer):
        game = finished_game(player, moves=12)
        services.game_review(game_id=game.id)
        with pytest.raises(services.ReviewRefused, match="Only a voided game"):
            services.review_restore(game_id=game.id, reviewer=reviewer, note="x")
        with pytest.raises(services.ReviewRefused, match="no open flag"):
            services.review_flags_dismiss(game_id=game.id, reviewer=reviewer, note="x")
        services.review_void(game_id=game.id, reviewer=reviewer, note="x")
        with pytest.raises(services.ReviewRefused, match="already voided"):
            services.review_void(game_id=game.id, reviewer=reviewer, note="x")
        assert AuditEntry.objects.filter(game_id=game.id).count() == 1


class TestVerifyAgain:
    def test_a_match_is_recorded_and_changes_no_flag(self, player, reviewer):
        game = finished_game(player, moves=12)
        services.game_review(game_id=game.id)
        verification = services.review_verify_again(
            game_id=game.id, reviewer=reviewer, note="Player asked."
        )
        assert verification.ok
        assert not verification.automatic
        assert verification.requested_by == reviewer
        assert Verification.objects.filter(game=game).count() == 2
        entry = AuditEntry.objects.get(game_id=game.id)
        assert entry.action == AuditEntry.Action.VERIFY
        assert entry.details["ok"] is True

    def test_a_mismatch_opens_a_flag_once(self, player, reviewer):
        game = finished_game(player, moves=12)
        services.game_review(game_id=game.id)
        tamper(game, final_score=1234)
        services.review_verify_again(game_id=game.id, reviewer=reviewer, note="Looks off.")
        services.review_verify_again(game_id=game.id, reviewer=reviewer, note="Still off?")
        flag = Flag.objects.get(game=game)
        assert flag.kind == Flag.Kind.REPLAY_MISMATCH
        assert flag.raised_by == reviewer
        assert "final score: stored 1234" in flag.details


class TestNotesAndPermission:
    @pytest.mark.parametrize("note", ["", "   \n "])
    def test_every_action_needs_a_note(self, player, reviewer, note):
        game = tamper(finished_game(player, moves=12), score=3)
        services.game_review(game_id=game.id)
        audit_before = AuditEntry.objects.count()
        for action in (
            services.review_void,
            services.review_restore,
            services.review_verify_again,
            services.review_flags_dismiss,
        ):
            with pytest.raises(services.ReviewRefused, match="A note is required"):
                action(game_id=game.id, reviewer=reviewer, note=note)
        assert AuditEntry.objects.count() == audit_before
        assert Verification.objects.filter(game=game).count() == 1
        assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW

    def test_staff_without_the_permission_cannot_act(self, player, staff):
        game = finished_game(player, moves=12)
        with pytest.raises(PermissionDenied):
            services.review_void(game_id=game.id, reviewer=staff, note="x")
        assert not AuditEntry.objects.exists()


class TestAuditEntries:
    def test_who_when_what_why(self, player, reviewer):
        game = tamper(finished_game(player, moves=12), score=3)
        services.game_review(game_id=game.id)
        services.review_flags_dismiss(game_id=game.id, reviewer=reviewer, note="Typo fixed.")
        services.review_void(game_id=game.id, reviewer=reviewer, note="On reflection, cheat.")
        services.review_restore(game_id=game.id, reviewer=reviewer, note="Appeal upheld.")
        entries = list(AuditEntry.objects.filter(game_id=game.id).order_by("created_at", "id"))
        assert [(e.action, e.actor_name, e.note) for e in entries] == [
            (AuditEntry.Action.FLAG_RAISED, "system", Flag.objects.get(game=game).details),
            (AuditEntry.Action.DISMISS_FLAG, reviewer.username, "Typo fixed."),
            (AuditEntry.Action.VOID, reviewer.username, "On reflection, cheat."),
            (AuditEntry.Action.RESTORE, reviewer.username, "Appeal upheld."),
        ]
        assert all(entry.player_name == player.username for entry in entries)
        assert all(entry.created_at is not None for entry in entries)
        assert entries[1].flag_id == Flag.objects.get(game=game).id
        assert entries[1].actor == reviewer

    def test_nobody_can_change_or_delete_an_entry(self, player, reviewer):
        game = finished_game(player, moves=12)
        services.review_void(game_id=game.id, reviewer=reviewer, note="Cheat.")
        entry = AuditEntry.objects.get()
        entry.note = "Nothing to see."
        with pytest.raises(AuditLogImmutable):
            entry.save()
        with pytest.raises(AuditLogImmutable):
            entry.delete()
        with pytest.raises(AuditLogImmutable):
            AuditEntry.objects.filter(id=entry.id).update(note="Nothing to see.")
        with pytest.raises(AuditLogImmutable):
            AuditEntry.objects.all().delete()
        assert AuditEntry.objects.get().note == "Cheat."

    def test_the_entries_outlive_the_game_and_the_player(self, player, reviewer):
        game = finished_game(player, moves=12)
        services.review_void(game_id=game.id, reviewer=reviewer, note="Cheat.")
        player.delete()
        entry = AuditEntry.objects.get()
        assert (entry.game_id, entry.player_name, entry.note) == (game.id, "alice", "Cheat.")

    def test_postgresql_refuses_a_change_or_delete_too(self, player, reviewer):
        if connection.vendor != "postgresql":
            pytest.skip("the trigger is PostgreSQL's; SQLite relies on the model")
        game = finished_game(player, moves=12)
        services.review_void(game_id=game.id, reviewer=reviewer, note="Cheat.")
        for sql in (
            "UPDATE reviews_auditentry SET note = 'x'",
            "DELETE FROM reviews_auditentry",
        ):
            with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cur:
                cur.execute(sql)
        assert AuditEntry.objects.get().note == "Cheat."
