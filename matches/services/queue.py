"""The quick-match queue of each mode: players of close ratings are paired, and the
rating window widens with the time waited (docs/matches.md)."""

from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from matches.errors import MatchRefused
from matches.models import Match, QueueEntry, Rating
from matches.modes import match_modes
from matches.services.lobby import (
    match_create,
    match_join,
    match_mode_require,
    match_start,
    points_table_for,
)


def rating_window(*, waited_seconds: float) -> float:
    """How far apart two ratings may be for a pairing, after waiting this long."""
    widened = settings.MATCH_QUEUE_WINDOW_WIDENS_BY * (waited_seconds // 10)
    return min(settings.MATCH_QUEUE_WINDOW_START + widened, settings.MATCH_QUEUE_WINDOW_MAX)


def queue_join(*, player: User, mode: str) -> Match | None:
    """Wait for an opponent in the mode's queue (at the player's rating); the match at
    once when someone close enough waits already."""
    match_kind = match_mode_require(key=mode)
    points_table_for(mode=match_kind, player=player)
    row = Rating.objects.filter(player=player, mode=mode).first()
    QueueEntry.objects.get_or_create(
        player=player,
        mode=mode,
        defaults={"rating": row.rating if row else 1500.0, "joined_at": timezone.now()},
    )
    return queue_pair(mode=mode).get(player.pk)


def queue_leave(*, player: User, mode: str) -> bool:
    return QueueEntry.objects.filter(player=player, mode=mode).delete()[0] > 0


def queue_pair(*, mode: str, now: datetime | None = None) -> dict[int, Match]:
    """Pair the mode's waiting players, longest waiting first, each with the closest
    rating within the window of the one who waited longer; the matches made, by
    player id. Entries another pairing holds are skipped, never paired twice."""
    now = now or timezone.now()
    made: dict[int, Match] = {}
    with transaction.atomic():
        waiting = list(
            QueueEntry.objects.select_for_update(skip_locked=True)
            .filter(mode=mode)
            .select_related("player")
            .order_by("joined_at", "id")
        )
        while len(waiting) >= 2:
            first = waiting.pop(0)
            window = rating_window(waited_seconds=(now - first.joined_at).total_seconds())
            candidates = [e for e in waiting if abs(e.rating - first.rating) <= window]
            if not candidates:
                continue
            second = min(candidates, key=lambda e: abs(e.rating - first.rating))
            waiting.remove(second)
            match = _pair(first, second)
            if match is not None:
                made[first.player_id] = made[second.player_id] = match
    return made


def _pair(first: QueueEntry, second: QueueEntry) -> Match | None:
    """One match for the pair, both seated and started, and both out of the queue; or,
    refused (a mode closed meanwhile), nothing made and both left waiting. Inside the
    pairing's transaction, which holds both entries."""
    try:
        with transaction.atomic():
            match = match_create(player=first.player, mode=first.mode)
            # A two-player mode starts as its second seat is taken; a Sprint by its maker.
            match = match_join(player=second.player, match_id=match.id)
            if match.status == Match.Status.OPEN:
                match = match_start(player=first.player, match_id=match.id)
            QueueEntry.objects.filter(id__in=[first.id, second.id]).delete()
    except MatchRefused:
        return None
    return match


def queue_pair_all() -> int:
    """The beat's entry: every mode's queue paired (windows widen meanwhile); how many
    matches were made."""
    return sum(len(queue_pair(mode=mode.key)) // 2 for mode in match_modes())


def queue_pair_all_if_embedded() -> int:
    """Without a worker there is no beat: a look at the lobby pairs the queues."""
    return queue_pair_all() if settings.CELERY_TASK_ALWAYS_EAGER else 0
