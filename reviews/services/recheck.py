"""The recheck of listed results: tampering after review. A closed game never changes,
so a record whose digest differs from the one its last verification vouched for is
replayed again and, changed, flagged."""

import secrets
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, Min, OuterRef, Q, Subquery
from django.utils import timezone

from games.models import Game
from leaderboards.models import DailyDeal, Result
from reviews import rules
from reviews.models import Verification
from reviews.replays import (
    GAME_RECORD_FIELDS,
    RESULT_RECORD_FIELDS,
    VerificationOutcome,
    game_record_digest,
    record_digest,
    verify_game,
)
from reviews.rules import Finding
from reviews.services.state import (
    flag_raise,
    game_lock,
    review_for_update,
    review_state_sync,
    verification_record,
)

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
            game_lock(game_id)
            result = Result.objects.filter(game_id=game_id, listed=True).first()
            last = Verification.objects.filter(game_id=game_id).first()
            if result is None or last is None or last.digest == outcome.digest:
                return False
            fresh = Game.objects.get(id=game_id)
            if game_record_digest(fresh, result) != outcome.digest:
                return False  # changed again while replaying: the next sweep sees it
            now = timezone.now()
            review = review_for_update(game, now)
            verification_record(game, outcome, now=now, recheck=True)
            finding = changed_record_finding(outcome, last)
            if finding is not None:
                flag_raise(game, finding, by=None, now=now, new_evidence=True)
            review_state_sync(game, review)
    except IntegrityError:
        return False  # a flag another run raised first (SQLite takes no row lock)
    return finding is not None


def changed_record_finding(
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
