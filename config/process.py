"""What a server process does once it has loaded the site, before its first request:
config.asgi at its import, gunicorn's workers in post_worker_init."""

import gc

from config.celery import broker_warm_up


def server_process_ready() -> None:
    """The broker connection opened (config.celery.broker_warm_up), and everything
    loaded so far (modules, settings, URL patterns, the registry of games) frozen out of
    the garbage collector's scans: a full collection walked all of it now and then, a
    pause of 100 to 250 ms that was the p99 of a match move (docs/matches.md, "Speed").
    The collector still frees what requests make."""
    broker_warm_up()
    gc.freeze()
