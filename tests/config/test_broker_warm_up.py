"""A server process opens its broker connection when it starts
(config.celery.broker_warm_up), so no request pays for it."""

import logging
import os

import pytest
from celery import Celery

from config.celery import broker_warm_up


def celery_for(broker: str, *, eager: bool = False) -> Celery:
    celery = Celery("warm-up-test", broker=broker)
    celery.conf.task_always_eager = eager
    celery.conf.broker_connection_retry = False
    celery.conf.broker_transport_options = {"socket_connect_timeout": 1}
    return celery


def test_tasks_run_in_process_need_no_broker(monkeypatch):
    celery = celery_for("redis://127.0.0.1:1/0", eager=True)

    def refuse() -> None:
        raise AssertionError("no broker connection with tasks run in process")

    monkeypatch.setattr(celery, "producer_or_acquire", refuse)
    broker_warm_up(celery=celery)


def test_a_broker_that_is_down_is_logged_and_left_to_the_first_publish(caplog):
    caplog.set_level(logging.WARNING, logger="config.celery")
    broker_warm_up(celery=celery_for("redis://127.0.0.1:1/0"))
    assert "could not warm the broker connection up" in caplog.text


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis broker")
def test_the_connection_is_open_and_kept_for_the_first_publish(caplog):
    caplog.set_level(logging.WARNING, logger="config.celery")
    celery = celery_for(os.environ["REDIS_URL"])
    broker_warm_up(celery=celery)
    assert caplog.text == ""
    with celery.producer_or_acquire() as producer:
        # The pooled producer the first publish takes has its connection already.
        assert producer.connection.connected
    celery.close()
