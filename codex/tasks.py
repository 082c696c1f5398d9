"""Celery tasks of the Codex: thin and idempotent."""

from celery import shared_task
from django.db import DatabaseError


@shared_task(
    name="codex.tasks.master_architect_update_task",
    acks_late=True,
    soft_time_limit=50,
    time_limit=60,
    autoretry_for=(DatabaseError,),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=5,
)
def master_architect_update_task() -> int | None:
    """On the beat, and enqueued on commit when a scenario game is judged: the Master
    Architect's title conferred on the campaign's ledger leader (their id)."""
    from codex import services

    return services.master_architect_update()
