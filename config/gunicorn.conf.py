"""gunicorn's settings for the WSGI server: `gunicorn -c config/gunicorn.conf.py
config.wsgi`. Each worker, once it has loaded the site and before its first request,
opens its broker connection and freezes what it loaded out of the garbage collector's
scans (config.process.server_process_ready)."""

from typing import Any

wsgi_app = "config.wsgi:application"


def post_worker_init(worker: Any) -> None:
    from config.process import server_process_ready

    server_process_ready()


def child_exit(server: Any, worker: Any) -> None:
    # Under prometheus_client's multiprocess mode a dead worker's live gauges must go
    # (its counters and histograms stay in the sum: docs/metrics.md).
    import os

    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
