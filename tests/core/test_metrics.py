"""The metrics scrape: who may read it, and what the middleware, the counters, Celery's
signals and the queue collector put in it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.conf import settings as django_settings
from django.test import Client, override_settings
from prometheus_client import REGISTRY

from config.celery import app
from core import metrics

ROOT = Path(__file__).resolve().parents[2]


@app.task(name="tests.core.metrics_probe_task")
def probe_task(*, fail: bool = False) -> str:
    if fail:
        raise ValueError("the probe failed, as asked")
    return "done"


def sample(name, **labels):
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scrape(client=None, **extra):
    return (client or Client()).get("/metrics", **extra)


# Who may scrape


def test_a_scrape_from_loopback_is_answered_in_the_text_format():
    response = scrape()  # the test client's REMOTE_ADDR is 127.0.0.1

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    assert b"# TYPE arena_moves_total counter" in response.content
    openmetrics = scrape(HTTP_ACCEPT="application/openmetrics-text; version=1.0.0")
    assert openmetrics["Content-Type"].startswith("application/openmetrics-text")


def test_a_scrape_from_another_address_is_not_found():
    assert scrape(REMOTE_ADDR="203.0.113.5").status_code == 404


def test_a_scrape_through_a_proxy_is_not_let_in_by_the_proxys_address():
    response = scrape(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.5")

    assert response.status_code == 404


@override_settings(METRICS_ALLOWED_IPS=["10.0.0.0/8"])
def test_allowed_addresses_may_be_networks():
    assert scrape(REMOTE_ADDR="10.1.2.3").status_code == 200
    assert scrape(REMOTE_ADDR="127.0.0.1").status_code == 404


def test_the_allowed_addresses_come_from_the_environment_by_default(settings, monkeypatch):
    if hasattr(django_settings, "METRICS_ALLOWED_IPS"):
        del settings.METRICS_ALLOWED_IPS
    monkeypatch.setenv("METRICS_ALLOWED_IPS", "192.0.2.7, 198.51.100.0/24")

    assert metrics.metrics_allowed_ips() == ["192.0.2.7", "198.51.100.0/24"]
    monkeypatch.delenv("METRICS_ALLOWED_IPS")
    assert metrics.metrics_allowed_ips() == ["127.0.0.1", "::1"]


@override_settings(METRICS_TOKEN="s3cret-token")
def test_the_bearer_token_lets_in_any_address_and_a_wrong_one_does_not():
    allowed = scrape(REMOTE_ADDR="203.0.113.5", HTTP_AUTHORIZATION="Bearer s3cret-token")
    wrong = scrape(REMOTE_ADDR="203.0.113.5", HTTP_AUTHORIZATION="Bearer s3cret-tokex")
    proxied = scrape(
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="203.0.113.5",
        HTTP_AUTHORIZATION="Bearer s3cret-token",
    )

    assert allowed.status_code == 200
    assert wrong.status_code == 404
    assert proxied.status_code == 200


# What the scrape holds

REQUEST_METRICS = "core.metrics.RequestMetricsMiddleware"
MIDDLEWARE_FIRST = [
    REQUEST_METRICS,
    *(m for m in django_settings.MIDDLEWARE if m != REQUEST_METRICS),
]


@override_settings(MIDDLEWARE=MIDDLEWARE_FIRST)
def test_the_middleware_observes_each_request_by_url_name_method_and_status_class():
    live = {"view": "live", "method": "GET", "status": "2xx"}
    missing = {"view": "unresolved", "method": "GET", "status": "4xx"}
    refused = {"view": "live", "method": "POST", "status": "4xx"}
    before = [
        sample("arena_request_seconds_count", **labels) for labels in (live, missing, refused)
    ]

    client = Client()
    client.get("/livez")
    client.get("/livez")
    client.get("/no-such-page-at-all/")
    client.post("/livez")

    after = [sample("arena_request_seconds_count", **labels) for labels in (live, missing, refused)]
    assert [b - a for a, b in zip(before, after, strict=True)] == [2, 1, 1]
    assert sample("arena_request_seconds_sum", **live) > 0
    text = scrape(client).content.decode()
    assert 'arena_request_seconds_bucket{le="0.15",method="GET",status="2xx",view="live"}' in text


@override_settings(MIDDLEWARE=MIDDLEWARE_FIRST)
def test_a_method_no_one_uses_counts_as_other():
    before = sample("arena_request_seconds_count", view="live", method="other", status="4xx")

    Client().generic("BREW", "/livez")

    after = sample("arena_request_seconds_count", view="live", method="other", status="4xx")
    assert after - before == 1


def test_moves_and_finishes_are_counted_by_game_and_status():
    moves = sample("arena_moves_total", game="klondike")
    won = sample("arena_games_finished_total", game="klondike", status="won")

    metrics.move_counted(variant="klondike")
    metrics.move_counted(variant="klondike")
    metrics.game_finished_counted(variant="klondike", status="won")

    assert sample("arena_moves_total", game="klondike") - moves == 2
    assert sample("arena_games_finished_total", game="klondike", status="won") - won == 1


class ClosedGame:
    variant = "spike"
    status = "lost"


@pytest.mark.django_db
def test_the_close_hook_counts_a_finish_once_its_transaction_commits(
    django_capture_on_commit_callbacks,
):
    before = sample("arena_games_finished_total", game="spike", status="lost")

    with django_capture_on_commit_callbacks() as callbacks:
        metrics.game_closed_hook(game=ClosedGame())
        assert sample("arena_games_finished_total", game="spike", status="lost") == before
    for callback in callbacks:
        callback()

    assert sample("arena_games_finished_total", game="spike", status="lost") - before == 1


def test_a_task_run_is_timed_and_a_failing_one_counted():
    name = "tests.core.metrics_probe_task"
    runs = sample("arena_task_seconds_count", task=name)
    failures = sample("arena_task_failures_total", task=name)

    # Its result as an eager run keeps it (.get() refuses where an earlier test of this
    # process ran a worker: Celery then treats every join as one inside a task).
    assert probe_task.delay().result == "done"
    # As a worker runs it: the failure is recorded, not raised into the caller (run in
    # process with eager propagation, a failure is the caller's exception instead).
    failed = probe_task.apply(kwargs={"fail": True}, throw=False)

    assert failed.failed()

    assert sample("arena_task_seconds_count", task=name) - runs == 2
    assert sample("arena_task_failures_total", task=name) - failures == 1
    assert not metrics._task_started


# The queue lengths


def collected(collector=metrics.QUEUE_LENGTHS):
    return {
        (family.name, tuple(sorted(s.labels.items()))): s.value
        for family in collector.collect()
        for s in family.samples
    }


def test_no_queue_lengths_without_a_redis_broker():
    with override_settings(CELERY_BROKER_URL="memory://"):
        assert collected() == {}


def test_a_broker_that_refuses_is_reported_down():
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0"):
        assert collected() == {("arena_broker_up", ()): 0}


@pytest.mark.skipif(not django_settings.REDIS_URL, reason="needs the Redis of REDIS_URL")
def test_the_queue_lengths_are_read_from_the_redis_broker():
    queue = "arena-test-metrics-queue"
    client = redis.Redis.from_url(django_settings.CELERY_BROKER_URL)
    keys = [queue, f"{queue}\x06\x163"]
    client.delete(*keys)
    try:
        client.rpush(queue, "a", "b", "c")
        client.rpush(keys[1], "high")
        with override_settings(
            CELERY_TASK_DEFAULT_QUEUE=queue, CELERY_TASK_ROUTES={"x.y": {"queue": "other"}}
        ):
            values = collected()
            text = scrape().content.decode()
    finally:
        client.delete(*keys)

    assert values[("arena_queue_length", (("queue", queue),))] == 4
    assert values[("arena_queue_length", (("queue", "other"),))] == 0
    assert values[("arena_broker_up", ())] == 1
    assert f'arena_queue_length{{queue="{queue}"}} 4.0' in text


# Several processes


def run_python(code, multiproc_dir):
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(multiproc_dir)}
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


SETUP = "import django; django.setup(); from core import metrics; "


def test_under_multiprocess_mode_a_scrape_adds_up_every_process(tmp_path):
    # A forked child counts a move in its own file, as a gunicorn worker would, and the
    # parent's scrape adds it to its own.
    code = (
        SETUP
        + "import os; metrics.move_counted(variant='steps'); pid = os.fork(); "
        + "pid or (metrics.move_counted(variant='steps'), os._exit(0)); os.waitpid(pid, 0); "
        + "import json; from prometheus_client import generate_latest; "
        + "from prometheus_client.parser import text_string_to_metric_families as parse; "
        + "text = generate_latest(metrics.scrape_registry()).decode(); "
        + "print(json.dumps({s.name: s.value for f in parse(text) for s in f.samples "
        + "if s.labels.get('game') == 'steps' or s.name == 'arena_broker_up'}))"
    )
    values = json.loads(run_python(code, tmp_path))

    assert len(list(tmp_path.glob("counter_*.db"))) == 2
    assert values["arena_moves_total"] == 2
    if django_settings.REDIS_URL:
        assert values["arena_broker_up"] == 1
