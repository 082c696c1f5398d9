"""Celery tasks of games: closing timed games when their clock runs out.

Each task imports its services inside its body (HackSoft's direction): the
services enqueue these tasks on commit, and importing them costs no cycle."""

import logging
from datetime import datetime, timedelta
from uuid import UUID

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games.models import Game

logger = logging.getLogger(__name__)


def schedule_time_up(*, game_id: UUID, deadline: datetime | None) -> None:
    """Ask a worker to close the game at its deadline. Without a worker (tasks
    run in-process) nothing is scheduled: the game is closed the next time it
    is looked at, and the periodic sweep closes any that a lost task missed.

    The broker hands a message out again once it has gone unacknowledged for
    its visibility timeout, and a worker holds a message with an ETA
    unacknowledged until then: so no ETA lies further off than half that
    timeout, and a farther deadline is reached in hops (the task comes back)."""
    if deadline is None or settings.CELERY_TASK_ALWAYS_EAGER:
        return
    hop = timedelta(seconds=settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] / 2)
    try:
        game_time_up_task.apply_async(args=(str(game_id),), eta=min(deadline, timezone.now() + hop))
    except Exception:
        logger.warning("could not schedule the clock of game %s; the sweep will", game_id)


@shared_task(
    name="games.tasks.game_time_up_task", acks_late=True, soft_time_limit=20, time_limit=30
)
def game_time_up_task(game_id: str) -> bool:
    """Close the game if its time is up; if its deadline is still ahead (bonus
    time moved it, or this run was a hop towards it), come back then."""
    from games import services

    if services.game_close_if_time_up(game_id=UUID(game_id)):
        return True
    game = Game.objects.filter(id=game_id, status=Game.Status.ACTIVE).only("deadline_at").first()
    if game is not None and game.deadline_at is not None:
        schedule_time_up(game_id=game.id, deadline=game.deadline_at)
    return False


@shared_task(
    name="games.tasks.games_time_up_sweep_task", acks_late=True, soft_time_limit=50, time_limit=60
)
def games_time_up_sweep_task() -> int:
    from games import services

    return services.games_close_expired()
