"""What every write of the review shares: the game row's lock, the review row, flags,
audit entries, verification runs, and the review state kept in step with the flags
(`review_state_sync`)."""

from datetime import datetime
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User

from games.models import Game
from games.services import game_review_hold_set
from reviews.models import AuditEntry, Flag, GameReview, Verification
from reviews.replays import VerificationOutcome
from reviews.rules import Finding


def game_lock(game_id: UUID) -> None:
    """The game row is the lock of its review (a no-op on SQLite, which writes
    one transaction at a time)."""
    list(Game.objects.select_for_update().filter(id=game_id).values_list("id", flat=True))


def review_for_update(game: Game, now: datetime) -> GameReview:
    review, _ = GameReview.objects.select_for_update().get_or_create(
        game=game, defaults={"reviewed_at": now}
    )
    return review


def flag_raise(
    game: Game, finding: Finding, *, by: User | None, now: datetime, new_evidence: bool = False
) -> Flag | None:
    """Open a flag of the finding's kind, with an audit entry. The automatic
    checks never raise a kind the game has had (a reviewer's decision on it
    stands), except on new evidence: a record that changed after that decision
    (the sweep's recheck). A reviewer's check raises it unless one is open."""
    existing = Flag.objects.filter(game=game, kind=finding.kind)
    if by is not None or new_evidence:
        existing = existing.filter(status=Flag.Status.OPEN)
    if existing.exists():
        return None
    flag = Flag.objects.create(
        game=game,
        kind=finding.kind,
        details=finding.details,
        figures=finding.figures,
        raised_at=now,
        raised_by=by,
    )
    audit_record(
        game,
        AuditEntry.Action.FLAG_RAISED,
        actor=by,
        note=finding.details,
        now=now,
        flag=flag,
        details={"kind": finding.kind, "figures": finding.figures},
    )
    return flag


HOLD_OF_STATE: dict[str, str] = {
    GameReview.State.UNDER_REVIEW: Game.ReviewHold.HELD,
    GameReview.State.VOIDED: Game.ReviewHold.VOIDED,
}
"""The hold a game's review state puts on its result (a clear game has none)."""


def review_state_sync(game: Game, review: GameReview) -> None:
    """The review state follows the flags (a void stands until restored), and the
    game's hold follows the state: a game counts exactly while it is clear. A change of
    the hold runs every app's hold hook in this transaction (settings.
    GAME_REVIEW_HOLD_HOOKS, through games.services.game_review_hold_set): the daily
    result leaves the leaderboards, the match the ratings, the challenge's completion
    its stars, and all come back once it is clear (docs/review.md)."""
    if review.state != GameReview.State.VOIDED:
        open_flags = Flag.objects.filter(game=game, status=Flag.Status.OPEN).exists()
        review.state = GameReview.State.UNDER_REVIEW if open_flags else GameReview.State.CLEAR
    review.save()
    game_review_hold_set(game=game, hold=HOLD_OF_STATE.get(review.state, ""))


def audit_record(
    game: Game,
    action: str,
    *,
    actor: User | None,
    note: str,
    now: datetime,
    flag: Flag | None = None,
    details: dict[str, Any] | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        created_at=now,
        actor=actor,
        actor_name=actor.get_username() if actor is not None else "system",
        action=action,
        game_id=game.id,
        player_name=game.player.get_username(),
        flag=flag,
        note=note,
        details=details or {},
    )


def verification_record(
    game: Game,
    outcome: VerificationOutcome,
    *,
    now: datetime,
    requested_by: User | None = None,
    recheck: bool = False,
) -> Verification:
    """One verification run, with the digest of what it verified: the automatic
    one when nobody asked for it and it is not the sweep's recheck."""
    return Verification.objects.create(
        game=game,
        automatic=requested_by is None and not recheck,
        recheck=recheck,
        ok=outcome.ok,
        details=outcome.details,
        figures=outcome.figures,
        digest=outcome.digest,
        verified_at=now,
        requested_by=requested_by,
    )
