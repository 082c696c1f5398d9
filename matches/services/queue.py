"""The quick-match queue of each mode: players of close ratings are paired, and the
rating window widens with the time waited (docs/matches.md)."""

from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from matches.errors import MatchRefused
from matches.models import Match, QueueEntry, Rating, Seat
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
    player id. A player with a match waiting or running waits on, unpaired; a pair
    another pairing holds is left to it, so nobody is paired twice, in any mode."""
    now = now or timezone.now()
    made: dict[int, Match] = {}
    waiting = list(
        QueueEntry.objects.filter(mode=mode)
        .exclude(player__in=_seated_players())
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


def _seated_players() -> QuerySet[Seat, int]:
    """The players with a match waiting or running: they are not paired again."""
    return Seat.objects.filter(
        match__status__in=[Match.Status.OPEN, Match.Status.RUNNING]
    ).values_list("player_id", flat=True)


def _players_held(first: QueueEntry, second: QueueEntry) -> bool:
    """Both players' rows locked for this pairing, the lower id first, or False (none
    held) where another pairing holds either: it pairs them, or leaves them waiting
    for the next run. Every pairing of a player, in any mode's queue, takes their
    row, so no two pair the same player at once; SKIP LOCKED, so none waits for
    another (two runs of one pair: the one that gets the lower id goes on)."""
    for player_id in sorted((first.player_id, second.player_id)):
        locked = User.objects.select_for_update(no_key=True, skip_locked=True).filter(pk=player_id)
        if not locked.values_list("pk", flat=True):
            return False
    return True


class _PairLeft(Exception):
    """The pair is not this run's to pair: its savepoint is rolled back, which releases
    the row it may have locked."""


def _still_waiting(first: QueueEntry, second: QueueEntry) -> bool:
    """Read once both are held, so a pairing that held them first has committed: both
    still in this queue, and neither with a match waiting or running."""
    players = [first.player_id, second.player_id]
    return (
        QueueEntry.objects.filter(id__in=[first.id, second.id]).count() == 2
        and not _seated_players().filter(player_id__in=players).exists()
    )


def _pair(first: QueueEntry, second: QueueEntry) -> Match | None:
    """One match for the pair, both seated and started, and every queue entry of both
    gone (all modes); or nothing made and both left waiting: another pairing holds
    either, either was paired meanwhile, or the mode refused (closed meanwhile). One
    transaction (a savepoint inside a caller's) that holds both players' rows."""
    try:
        with transaction.atomic():
            if not (_players_held(first, second) and _still_waiting(first, second)):
                raise _PairLeft
            match = match_create(player=first.player, mode=first.mode)
            # A two-player mode starts as its second seat is taken; a Sprint by its maker.
            match = match_join(player=second.player, match_id=match.id)
            if match.status == Match.Status.OPEN:
                match = match_start(player=first.player, match_id=match.id)
            QueueEntry.objects.filter(player_id__in=[first.player_id, second.player_id]).delete()
    except (MatchRefused, _PairLeft):
        return None
    return match


def queue_pair_all() -> int:
    """The beat's entry: every mode's queue paired (windows widen meanwhile); how many
    matches were made."""
    return sum(len(queue_pair(mode=mode.key)) // 2 for mode in match_modes())


def queue_pair_all_if_embedded() -> int:
    """Without a worker there is no beat: a look at the lobby pairs the queues."""
    return queue_pair_all() if settings.CELERY_TASK_ALWAYS_EAGER else 0
