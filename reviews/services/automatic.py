"""The automatic review: every closed game verified once by replay and run through the
automatic checks (`game_review`, from a task on finish and from the sweep), and the
sweep that catches up on the games a task missed and the scores that waited."""

from datetime import date, datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Game
from games.specs import game_spec
from leaderboards.models import Result
from reviews import rules
from reviews.models import AuditEntry, Flag, GameReview, Verification
from reviews.replays import verify_game
from reviews.rules import Finding, OutlierCheck
from reviews.services.recheck import results_recheck
from reviews.services.state import (
    flag_raise,
    game_lock,
    review_for_update,
    review_state_sync,
    verification_record,
)


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
            game_lock(game_id)
            if _verified_automatically(game_id):
                return False
            now = timezone.now()
            verification_record(game, outcome, now=now)
            review = review_for_update(game, now)
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
                flag_raise(game, finding, by=None, now=now)
            review_state_sync(game, review)
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
        game_lock(game_id)
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
            flag_raise(game, check.finding, by=None, now=timezone.now())
        review_state_sync(game, review)
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
