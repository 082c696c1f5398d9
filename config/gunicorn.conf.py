"""gunicorn's settings for the WSGI server: `gunicorn -c config/gunicorn.conf.py
config.wsgi`. Each worker opens its broker connection once it has loaded the site,
before its first request (config.celery.broker_warm_up)."""

from typing import Any

wsgi_app = "config.wsgi:application"


def post_worker_init(worker: Any) -> None:
    from config.celery import broker_warm_up

    broker_warm_up()


def child_exit(server: Any, worker: Any) -> None:
    # Under prometheus_client's multiprocess mode a dead worker's live gauges must go
    # (its counters and histograms stay in the sum: docs/metrics.md).
    import os

    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
