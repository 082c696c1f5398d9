import logging
import os

from celery import Celery

import core.metrics  # noqa: F401  # connects the task metrics to Celery's signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


def broker_warm_up(*, celery: Celery = app) -> None:
    """Open this server process's broker connection and set up what its first publish
    would (the queues declared, the task sender, the result backend), so the first task
    a request sends (the tasks after a game closes) costs what every other does, about
    a millisecond, not the 60 ms or more of a cold start. Called where a server process
    starts (config.asgi, config/gunicorn.conf.py). Nothing to do when tasks run in
    process; a broker that is down is left to the first publish, which retries."""
    if celery.conf.task_always_eager:
        return
    try:
        with celery.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=1)
            for queue in celery.amqp.queues.values():
                producer.maybe_declare(queue)
        # Both are built on first use, with imports and entry-point scans.
        _ = celery.backend, celery.amqp.send_task_message
    except Exception:
        logger.warning("could not warm the broker connection up", exc_info=True)
