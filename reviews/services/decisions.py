"""The reviewers' actions: verify again, void, restore, dismiss flags (each needs a note
and writes an audit entry in the same transaction), and the record of a reviewer who
opens the replay of a live daily deal."""

from datetime import date
from uuid import UUID

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from games.models import Game
from leaderboards.selectors import daily_deal_of
from reviews.models import AuditEntry, Flag, GameReview, Verification
from reviews.replays import verify_game
from reviews.selectors import is_reviewer
from reviews.services.recheck import changed_record_finding
from reviews.services.state import (
    audit_record,
    flag_raise,
    game_lock,
    review_for_update,
    review_state_sync,
    verification_record,
)


class ReviewRefused(Exception):
    """A reviewer's action that cannot be done (no note, nothing to dismiss, ...):
    nothing was changed."""


def review_verify_again(*, game_id: UUID, reviewer: User, note: str) -> Verification:
    """Replay the game again now. A mismatch opens a "replay mismatch" flag (if
    none is open); a match changes no flag: the reviewer dismisses it."""
    note = _checked_note(reviewer, note)
    game = _closed_game(game_id)
    outcome = verify_game(game)
    with transaction.atomic():
        game_lock(game_id)
        now = timezone.now()
        review = review_for_update(game, now)
        last = Verification.objects.filter(game_id=game_id).first()
        verification = verification_record(game, outcome, now=now, requested_by=reviewer)
        flag = None
        finding = changed_record_finding(outcome, last)
        if finding is not None:
            flag = flag_raise(game, finding, by=reviewer, now=now)
        audit_record(
            game,
            AuditEntry.Action.VERIFY,
            actor=reviewer,
            note=note,
            now=now,
            details={
                "verification": verification.id,
                "ok": outcome.ok,
                "outcome": outcome.details,
                "flag_raised": flag.id if flag is not None else None,
            },
        )
        review_state_sync(game, review)
    return verification


def review_void(*, game_id: UUID, reviewer: User, note: str) -> GameReview:
    """Void the result: it leaves every leaderboard at once (and the deal's ranks
    are rebuilt); the game's open flags are resolved as upheld."""
    note = _checked_note(reviewer, note)
    game = _closed_game(game_id)
    with transaction.atomic():
        game_lock(game_id)
        now = timezone.now()
        review = review_for_update(game, now)
        if review.state == GameReview.State.VOIDED:
            raise ReviewRefused("This game is already voided.")
        upheld = list(Flag.objects.filter(game=game, status=Flag.Status.OPEN))
        Flag.objects.filter(id__in=[flag.id for flag in upheld]).update(
            status=Flag.Status.UPHELD, resolved_at=now, resolved_by=reviewer
        )
        before = review.state
        review.state = GameReview.State.VOIDED
        audit_record(
            game,
            AuditEntry.Action.VOID,
            actor=reviewer,
            note=note,
            now=now,
            details={
                "state_before": before,
                "flags_upheld": [{"id": f.id, "kind": f.kind} for f in upheld],
            },
        )
        review_state_sync(game, review)
    return review


def review_restore(*, game_id: UUID, reviewer: User, note: str) -> GameReview:
    """Undo a void: the result is back on the leaderboards unless a flag is open."""
    note = _checked_note(reviewer, note)
    game = _closed_game(game_id)
    with transaction.atomic():
        game_lock(game_id)
        now = timezone.now()
        review = review_for_update(game, now)
        if review.state != GameReview.State.VOIDED:
            raise ReviewRefused("Only a voided game can be restored.")
        review.state = GameReview.State.CLEAR
        review_state_sync(game, review)
        audit_record(
            game,
            AuditEntry.Action.RESTORE,
            actor=reviewer,
            note=note,
            now=now,
            details={"state_after": review.state},
        )
    return review


def review_flags_dismiss(
    *, game_id: UUID, reviewer: User, note: str, flag_ids: list[int] | None = None
) -> list[Flag]:
    """Dismiss the game's open flags (or those of `flag_ids`): one audit entry
    each. With no flag left open (and not voided) the result is listed again."""
    note = _checked_note(reviewer, note)
    game = _closed_game(game_id)
    with transaction.atomic():
        game_lock(game_id)
        now = timezone.now()
        review = review_for_update(game, now)
        flags = Flag.objects.select_for_update().filter(game=game, status=Flag.Status.OPEN)
        if flag_ids is not None:
            flags = flags.filter(id__in=flag_ids)
        dismissed = list(flags)
        if not dismissed:
            raise ReviewRefused("This game has no open flag to dismiss.")
        for flag in dismissed:
            flag.status = Flag.Status.DISMISSED
            flag.resolved_at = now
            flag.resolved_by = reviewer
            flag.save(update_fields=["status", "resolved_at", "resolved_by"])
            audit_record(
                game,
                AuditEntry.Action.DISMISS_FLAG,
                actor=reviewer,
                note=note,
                now=now,
                flag=flag,
                details={"kind": flag.kind, "flag_details": flag.details},
            )
        review_state_sync(game, review)
    return dismissed


def replay_view_record(*, game: Game, viewer: User, today: date) -> AuditEntry | None:
    """A reviewer opens the replay of a game of a live daily deal (one they have
    no attempt at: the viewer refuses the others): an audit entry, once per
    reviewer and game, so that a ranked attempt of theirs at the deal made after
    it is flagged (`deal_seen`). Nothing for a deal whose day is over."""
    deal = daily_deal_of(game=game)
    if deal is None or deal.date < today:
        return None
    seen = AuditEntry.objects.filter(
        action=AuditEntry.Action.REPLAY_VIEWED, actor_id=viewer.pk, game_id=game.id
    )
    if seen.exists():
        return None
    return audit_record(
        game,
        AuditEntry.Action.REPLAY_VIEWED,
        actor=viewer,
        note=f"Opened the replay while the {deal.variant} daily deal of {deal.date:%Y-%m-%d} "
        "was live.",
        now=timezone.now(),
        details={"daily_deal": deal.id},
    )


def _checked_note(reviewer: User, note: str) -> str:
    if not is_reviewer(reviewer):
        raise PermissionDenied("Only reviewers review results.")
    note = (note or "").strip()
    if not note:
        raise ReviewRefused("A note is required: say why.")
    return note


def _closed_game(game_id: UUID) -> Game:
    game = Game.objects.select_related("player").get(id=game_id)
    if game.is_active:
        raise ReviewRefused("This game is still being played.")
    return game
