"""gunicorn's settings for the WSGI server: `gunicorn -c config/gunicorn.conf.py
config.wsgi`. Each worker opens its broker connection once it has loaded the site,
before its first request (config.celery.broker_warm_up)."""

from typing import Any

wsgi_app = "config.wsgi:application"


def post_worker_init(worker: Any) -> None:
    from config.celery import broker_warm_up

    broker_warm_up()
