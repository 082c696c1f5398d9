"""Writes of the review of results (docs/review.md).

Every closed game is verified once by replay and run through the automatic
checks (`game_review`, from a task on finish and from the sweep). Reviewers
verify again, void, restore and dismiss flags; each of their actions needs a
note and writes an audit entry in the same transaction.

The game row is the lock: every write about one game's review first takes
`SELECT ... FOR UPDATE` on it, so an automatic review, a sweep and a reviewer
acting on the same game take turns. `_sync_state` then keeps the review state
and the leaderboards in step: a result is listed only while the game is clear
(no open flag, not voided).
"""

import logging
import secrets
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from functools import partial
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, Min, OuterRef, Q, Subquery
from django.utils import timezone

from games.models import Game
from games.services import game_figures_set
from games.specs import game_spec
from leaderboards.models import DailyDeal, Result
from leaderboards.selectors import daily_deal_id_of, daily_deal_of
from leaderboards.services import result_listing_set
from matches.services import match_review_changed
from reviews import rules
from reviews.models import AuditEntry, Flag, GameReview, Verification
from reviews.replays import (
    GAME_RECORD_FIELDS,
    RESULT_RECORD_FIELDS,
    VerificationOutcome,
    game_record_digest,
    record_digest,
    verify_game,
)
from reviews.rules import Finding, OutlierCheck
from reviews.selectors import is_reviewer
from reviews.tasks import review_period_tables_task

logger = logging.getLogger(__name__)


class ReviewRefused(Exception):
    """A reviewer's action that cannot be done (no note, nothing to dismiss, ...):
    nothing was changed."""


# -- the automatic review --------------------------------------------------------


def game_review(*, game_id: UUID) -> bool:
    """Verify a closed game by replay and run the automatic checks, once: a game
    already verified automatically is left alone. Returns whether this call
    reviewed it. Safe to run twice or at the same moment as another run."""
    game = Game.objects.select_related("player").filter(id=game_id).first()
    if game is None or game.is_active or _verified_automatically(game_id):
        return False
    # The replay runs outside the transaction: a closed game never changes.
    outcome = verify_game(game)
    speed = rules.merge(
        rules.speed_findings(
            won=game.status == Game.Status.WON,
            elapsed_ms=game.elapsed_ms,
            actions=game.revision,
            min_seconds_per_action=settings.REVIEW_MIN_SECONDS_PER_MOVE,
            min_actions=settings.REVIEW_MIN_MOVES_FOR_SPEED,
            min_win_seconds=_min_win_seconds(game.variant),
        )
    )
    try:
        with transaction.atomic():
            _lock(game_id)
            if _verified_automatically(game_id):
                return False
            now = timezone.now()
            _record_verification(game, outcome, now=now)
            review = _review_for_update(game, now)
            findings: list[Finding] = []
            if not outcome.ok:
                findings.append(Finding(rules.REPLAY_MISMATCH, outcome.details, outcome.figures))
            if speed is not None:
                findings.append(speed)
            seen = _deal_seen_finding(game)
            if seen is not None:
                findings.append(seen)
            result = Result.objects.filter(game_id=game_id).first()
            if result is not None:
                check = _outlier_check(result)
                review.outlier_pending = not check.checked
                if check.finding is not None:
                    findings.append(check.finding)
            for finding in findings:
                _raise_flag(game, finding, by=None, now=now)
            _sync_state(game, review)
    except IntegrityError:
        # Another run of the same game committed first (SQLite takes no row lock).
        return False
    return True


def _deal_seen_finding(game: Game) -> Finding | None:
    """A ranked daily result of a player (a reviewer) who had opened a replay of
    the same deal while it was live, before finishing this game: every card of
    the deal was in front of them."""
    if game.track != Game.Track.DAILY or not game.is_ranked or game.finished_at is None:
        return None
    viewed = (
        AuditEntry.objects.filter(
            action=AuditEntry.Action.REPLAY_VIEWED,
            actor_id=game.player_id,
            game__track=game.track,
            game__track_ref=game.track_ref,
            created_at__lte=game.finished_at,
        )
        .order_by("created_at")
        .first()
    )
    if viewed is None:
        return None
    details = (
        f"The player opened the replay of game {str(viewed.game_id)[:8]} of this daily deal "
        f"at {viewed.created_at:%Y-%m-%d %H:%M} UTC, while the deal was live and before "
        "finishing this game: every card of the deal was shown."
    )
    return Finding(
        rules.DEAL_SEEN,
        details,
        {"audit_entry": viewed.id, "viewed_game": str(viewed.game_id)},
    )


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
    return _audit(
        game,
        AuditEntry.Action.REPLAY_VIEWED,
        actor=viewer,
        note=f"Opened the replay while the {deal.variant} daily deal of {deal.date:%Y-%m-%d} "
        "was live.",
        now=timezone.now(),
        details={"daily_deal": deal.id},
    )


def _min_win_seconds(variant: str) -> int | None:
    spec = game_spec(variant)
    return None if spec is None else spec.min_win_seconds


def _verified_automatically(game_id: UUID) -> bool:
    return Verification.objects.filter(game_id=game_id, automatic=True).exists()


def games_to_review(*, now: datetime, days: int | None) -> list[UUID]:
    """Closed games with no automatic verification (a lost task, a broker that
    was down): finished more than the grace period ago, within `days`."""
    games = (
        Game.objects.exclude(status=Game.Status.ACTIVE)
        .filter(finished_at__lt=now - timedelta(seconds=settings.REVIEW_SWEEP_GRACE_SECONDS))
        .exclude(Exists(Verification.objects.filter(game=OuterRef("pk"), automatic=True)))
    )
    if days is not None:
        games = games.filter(finished_at__gte=now - timedelta(days=days))
    return list(
        games.order_by("finished_at").values_list("id", flat=True)[: settings.REVIEW_SWEEP_BATCH]
    )


def reviews_sweep(*, now: datetime | None = None, days: int | None = None) -> dict[str, int]:
    """The periodic catch-up: review the closed games the task missed (one batch),
    judge the scores that waited for enough results on their deal, and recheck
    listed results against the digest of their last verification."""
    now = now or timezone.now()
    reviewed = sum(game_review(game_id=game_id) for game_id in games_to_review(now=now, days=days))
    outliers = outliers_recheck(today=now.date())
    return {"reviewed": reviewed, "outliers_flagged": outliers, **results_recheck(now=now)}


# -- the recheck of listed results ---------------------------------------------------

# What the recheck reads of each result: the game's record, the result's, and the
# digest of the game's last verification.
_RECHECK_VALUES = (
    "game_id",
    *(f"game__{field}" for field in GAME_RECORD_FIELDS),
    *RESULT_RECORD_FIELDS,
    "verified_digest",
)
RECHECK_CHUNK = 1000


def results_recheck(*, now: datetime) -> dict[str, int]:
    """Tampering after review: every listed result of today's and yesterday's deals
    (UTC) and REVIEW_RESAMPLE_SIZE other listed results drawn at random are
    compared, by digest, with what their game's last verification vouched for. An
    equal digest needs nothing more; a different one (or none, from before digests)
    is replayed again (`game_recheck`), at most REVIEW_SWEEP_BATCH a run: the
    rest wait for the next run (after a deploy every record from before digests
    differs). Returns the results compared, replayed, flagged and deferred."""
    yesterday = now.astimezone(UTC).date() - timedelta(days=1)
    recent_deals = list(DailyDeal.objects.filter(date__gte=yesterday).values_list("id", flat=True))
    sampled = _sampled_result_ids(size=settings.REVIEW_RESAMPLE_SIZE)
    compared = replayed = flagged = deferred = 0
    for row in _recheck_rows(deal_ids=recent_deals, result_ids=sampled):
        compared += 1
        current = record_digest(
            {field: row[f"game__{field}"] for field in GAME_RECORD_FIELDS},
            {field: row[field] for field in RESULT_RECORD_FIELDS},
        )
        if current == row["verified_digest"]:
            continue
        if replayed >= settings.REVIEW_SWEEP_BATCH:
            deferred += 1
            continue
        replayed += 1
        flagged += game_recheck(game_id=row["game_id"])
    return {
        "rechecked": compared,
        "replayed": replayed,
        "recheck_flagged": flagged,
        "recheck_deferred": deferred,
    }


def _recheck_rows(*, deal_ids: list[int], result_ids: list[int]) -> Iterator[dict[str, Any]]:
    """The listed results to recheck, with their game's record and the digest of
    its last verification. A game never verified is left to the review."""
    last = Verification.objects.filter(game=OuterRef("game_id")).order_by("-verified_at", "-id")
    return (
        Result.objects.listed()
        .filter(Q(daily_deal_id__in=deal_ids) | Q(id__in=result_ids))
        .filter(Exists(last))
        .annotate(verified_digest=Subquery(last.values("digest")[:1]))
        .order_by("id")
        .values(*_RECHECK_VALUES)
        .iterator(chunk_size=RECHECK_CHUNK)
    )


def _sampled_result_ids(*, size: int) -> list[int]:
    """Up to `size` listed results drawn at random: one index seek each to the
    first listed id at or after a random point (results after a gap of ids are a
    little more likely). Unpredictable (secrets), so nobody can tell which old
    results the next sweep looks at."""
    listed = Result.objects.listed()
    bounds = listed.aggregate(low=Min("id"), high=Max("id"))
    low, high = bounds["low"], bounds["high"]
    if size <= 0 or low is None or high is None:
        return []
    if high - low < size:
        return list(listed.values_list("id", flat=True))
    chooser = secrets.SystemRandom()
    found: set[int] = set()
    for point in (chooser.randint(low, high) for _ in range(size)):
        hit = listed.filter(id__gte=point).order_by("id").values_list("id", flat=True).first()
        if hit is not None:
            found.add(hit)
    return sorted(found)


def game_recheck(*, game_id: UUID) -> bool:
    """Replay a game whose record may have changed since its last verification,
    and record the run (a sweep recheck). A replay mismatch, or a record that
    changed although the replay matches (a closed game never changes), raises a
    replay-mismatch flag and takes the result off the boards. Returns whether it
    raised one. Does nothing when the record already matches its last
    verification (another run got there first) or its result is no longer listed."""
    game = Game.objects.select_related("player").filter(id=game_id).first()
    if game is None or game.is_active:
        return False
    outcome = verify_game(game)
    try:
        with transaction.atomic():
            _lock(game_id)
            result = Result.objects.filter(game_id=game_id, listed=True).first()
            last = Verification.objects.filter(game_id=game_id).first()
            if result is None or last is None or last.digest == outcome.digest:
                return False
            fresh = Game.objects.get(id=game_id)
            if game_record_digest(fresh, result) != outcome.digest:
                return False  # changed again while replaying: the next sweep sees it
            now = timezone.now()
            review = _review_for_update(game, now)
            _record_verification(game, outcome, now=now, recheck=True)
            finding = _changed_record_finding(outcome, last)
            if finding is not None:
                _raise_flag(game, finding, by=None, now=now, new_evidence=True)
            _sync_state(game, review)
    except IntegrityError:
        return False  # a flag another run raised first (SQLite takes no row lock)
    return finding is not None


def _changed_record_finding(
    outcome: VerificationOutcome, last: Verification | None
) -> Finding | None:
    """A replay mismatch; or, for a record whose digest differs from the one its
    last verification vouched for, that change itself, even with a replay that
    matches. A verification from before digests (none stored) vouches for nothing."""
    if not outcome.ok:
        return Finding(rules.REPLAY_MISMATCH, outcome.details, outcome.figures)
    if last is None or not last.digest or last.digest == outcome.digest:
        return None
    details = (
        "Replay mismatch: the record changed after its verification of "
        f"{last.verified_at:%Y-%m-%d %H:%M} UTC (#{last.id}): the digest of its move log, "
        "figures and result differs, although the replay of the new record matches; a "
        "closed game never changes."
    )
    figures = {**outcome.figures, "digest": {"verified": last.digest, "now": outcome.digest}}
    return Finding(rules.REPLAY_MISMATCH, details, figures)


def outliers_recheck(*, today: date) -> int:
    """Results whose score check waited for enough other results: judged once
    their deal has them, while the deal is recent; older ones stop waiting.
    Returns the flags raised."""
    since = today - timedelta(days=settings.REVIEW_OUTLIER_RECHECK_DAYS)
    GameReview.objects.filter(
        outlier_pending=True, game__result__daily_deal__date__lt=since
    ).update(outlier_pending=False)
    pending = GameReview.objects.filter(outlier_pending=True).values_list("game_id", flat=True)
    return sum(_outlier_recheck(game_id) for game_id in list(pending))


def _outlier_recheck(game_id: UUID) -> bool:
    with transaction.atomic():
        _lock(game_id)
        review = (
            GameReview.objects.select_for_update()
            .select_related("game__player")
            .filter(game_id=game_id, outlier_pending=True)
            .first()
        )
        if review is None:
            return False
        game = review.game
        result = Result.objects.filter(game_id=game_id).first()
        already = Flag.objects.filter(game_id=game_id, kind=rules.SCORE_OUTLIER).exists()
        if result is None or already or review.state == GameReview.State.VOIDED:
            review.outlier_pending = False
            review.save(update_fields=["outlier_pending", "updated_at"])
            return False
        check = _outlier_check(result)
        if not check.checked:
            return False
        review.outlier_pending = False
        if check.finding is not None:
            _raise_flag(game, check.finding, by=None, now=timezone.now())
        _sync_state(game, review)
        return check.finding is not None


def _outlier_check(result: Result) -> OutlierCheck:
    """The result's score against the deal's other listed results with the same
    outcome (a win against wins, anything else against the rest)."""
    others = list(
        Result.objects.listed()
        .filter(daily_deal_id=result.daily_deal_id, won=result.won)
        .exclude(id=result.id)
        .values_list("score", flat=True)
    )
    return rules.score_outlier(
        score=result.score,
        others=others,
        min_results=settings.REVIEW_OUTLIER_MIN_RESULTS,
        mads=settings.REVIEW_OUTLIER_MADS,
        min_mad=settings.REVIEW_OUTLIER_MIN_MAD,
    )


# -- reviewers' actions -----------------------------------------------------------


def review_verify_again(*, game_id: UUID, reviewer: User, note: str) -> Verification:
    """Replay the game again now. A mismatch opens a "replay mismatch" flag (if
    none is open); a match changes no flag: the reviewer dismisses it."""
    note = _checked_note(reviewer, note)
    game = _closed_game(game_id)
    outcome = verify_game(game)
    with transaction.atomic():
        _lock(game_id)
        now = timezone.now()
        review = _review_for_update(game, now)
        last = Verification.objects.filter(game_id=game_id).first()
        verification = _record_verification(game, outcome, now=now, requested_by=reviewer)
        flag = None
        finding = _changed_record_finding(outcome, last)
        if finding is not None:
            flag = _raise_flag(game, finding, by=reviewer, now=now)
        _audit(
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
        _sync_state(game, review)
    return verification


def review_void(*, game_id: UUID, reviewer: User, note: str) -> GameReview:
    """Void the result: it leaves every leaderboard at once (and the deal's ranks
    are rebuilt); the game's open flags are resolved as upheld."""
    note = _checked_note(reviewer, note)
    game = _closed_game(game_id)
    with transaction.atomic():
        _lock(game_id)
        now = timezone.now()
        review = _review_for_update(game, now)
        if review.state == GameReview.State.VOIDED:
            raise ReviewRefused("This game is already voided.")
        upheld = list(Flag.objects.filter(game=game, status=Flag.Status.OPEN))
        Flag.objects.filter(id__in=[flag.id for flag in upheld]).update(
            status=Flag.Status.UPHELD, resolved_at=now, resolved_by=reviewer
        )
        before = review.state
        review.state = GameReview.State.VOIDED
        _audit(
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
        _sync_state(game, review)
    return review


def review_restore(*, game_id: UUID, reviewer: User, note: str) -> GameReview:
    """Undo a void: the result is back on the leaderboards unless a flag is open."""
    note = _checked_note(reviewer, note)
    game = _closed_game(game_id)
    with transaction.atomic():
        _lock(game_id)
        now = timezone.now()
        review = _review_for_update(game, now)
        if review.state != GameReview.State.VOIDED:
            raise ReviewRefused("Only a voided game can be restored.")
        review.state = GameReview.State.CLEAR
        _sync_state(game, review)
        _audit(
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
        _lock(game_id)
        now = timezone.now()
        review = _review_for_update(game, now)
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
            _audit(
                game,
                AuditEntry.Action.DISMISS_FLAG,
                actor=reviewer,
                note=note,
                now=now,
                flag=flag,
                details={"kind": flag.kind, "flag_details": flag.details},
            )
        _sync_state(game, review)
    return dismissed


# -- shared ------------------------------------------------------------------------


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


def _lock(game_id: UUID) -> None:
    """The game row is the lock of its review (a no-op on SQLite, which writes
    one transaction at a time)."""
    list(Game.objects.select_for_update().filter(id=game_id).values_list("id", flat=True))


def _review_for_update(game: Game, now: datetime) -> GameReview:
    review, _ = GameReview.objects.select_for_update().get_or_create(
        game=game, defaults={"reviewed_at": now}
    )
    return review


def _raise_flag(
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
    _audit(
        game,
        AuditEntry.Action.FLAG_RAISED,
        actor=by,
        note=finding.details,
        now=now,
        flag=flag,
        details={"kind": finding.kind, "figures": finding.figures},
    )
    return flag


def _sync_state(game: Game, review: GameReview) -> None:
    """The review state follows the flags (a void stands until restored), and
    the result is listed, and counted in the player's own figures (and a match's
    game in its match's ratings), exactly when the game is clear."""
    if review.state != GameReview.State.VOIDED:
        open_flags = Flag.objects.filter(game=game, status=Flag.Status.OPEN).exists()
        review.state = GameReview.State.UNDER_REVIEW if open_flags else GameReview.State.CLEAR
    review.save()
    listed = review.state == GameReview.State.CLEAR
    game_figures_set(game_id=game.id, counted=listed)
    if game.track == Game.Track.MATCH:
        # A match with a game held or voided is off the ratings (matches.services.review).
        match_review_changed(game_id=game.id)
    deal_id = daily_deal_id_of(game)
    if result_listing_set(game_id=game.id, listed=listed) and deal_id is not None:
        transaction.on_commit(partial(_enqueue_period_tables, deal_id=deal_id))


def _enqueue_period_tables(*, deal_id: int) -> None:
    try:
        review_period_tables_task.apply_async((deal_id,), retry=False)
    except Exception:
        logger.warning("period tables of deal %s not recomputed; the beat will", deal_id)


def _audit(
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


def _record_verification(
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
