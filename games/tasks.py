"""Celery tasks of games: closing timed games when their clock runs out."""

import logging
from datetime import datetime
from uuid import UUID

from celery import shared_task
from django.conf import settings

from games import services
from games.models import Game

logger = logging.getLogger(__name__)


def schedule_time_up(*, game_id: UUID, deadline: datetime | None) -> None:
    """Ask a worker to close the game at its deadline. Without a worker (tasks
    run in-process) nothing is scheduled: the game is closed the next time it
    is looked at, and the periodic sweep closes any that a lost task missed."""
    if deadline is None or settings.CELERY_TASK_ALWAYS_EAGER:
        return
    try:
        game_time_up_task.apply_async(args=(str(game_id),), eta=deadline)
    except Exception:
        logger.warning("could not schedule the clock of game %s; the sweep will", game_id)


@shared_task(acks_late=True)
def game_time_up_task(game_id: str) -> bool:
    """Close the game if its time is up; if bonus time moved its deadline, come back then."""
    if services.game_close_if_time_up(game_id=UUID(game_id)):
        return True
    game = Game.objects.filter(id=game_id, status=Game.Status.ACTIVE).only("deadline_at").first()
    if game is not None and game.deadline_at is not None:
        schedule_time_up(game_id=game.id, deadline=game.deadline_at)
    return False


@shared_task(acks_late=True)
def games_time_up_sweep_task() -> int:
    return services.games_close_expired()
