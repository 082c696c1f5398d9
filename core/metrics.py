"""Prometheus metrics (prometheus_client; docs/metrics.md): each request's latency by
view, the moves and finished games by game, the Celery tasks' latency and failures,
and on each scrape the length of the broker's queues.

Under a server of several processes (gunicorn's workers, Celery's pool) the metrics
live in files under PROMETHEUS_MULTIPROC_DIR, one set per process, and a scrape of
any one process adds them all up (prometheus_client's multiprocess mode). The
variable must be set before prometheus_client is first imported: it is read once.
"""

import hmac
import ipaddress
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from functools import cache, partial
from typing import Any, Protocol

import redis
from celery.signals import task_failure, task_postrun, task_prerun, task_retry
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponseBase
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from core.health import REDIS_TIMEOUT_SECONDS

logger = logging.getLogger(__name__)

MULTIPROCESS = "PROMETHEUS_MULTIPROC_DIR" in os.environ
"""As prometheus_client decides it (values.get_value_class), so both agree."""

REQUEST_SECONDS = Histogram(
    "arena_request_seconds",
    "Time from the request reaching the middleware to its response, by URL name.",
    ["view", "method", "status"],
    # Dense around the move's aim (p99 under 150 ms) so its quantile is read closely.
    buckets=(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 2.5, 5.0, 10.0),
)
MOVES = Counter("arena_moves", "Actions that moved cards (move, tap, auto-complete).", ["game"])
GAMES_FINISHED = Counter(
    "arena_games_finished", "Games closed, by game and final status.", ["game", "status"]
)
TASK_SECONDS = Histogram(
    "arena_task_seconds",
    "Celery task run time, from prerun to postrun, by task name.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 120.0, 300.0, 660.0),
)
TASK_FAILURES = Counter("arena_task_failures", "Celery task runs that raised.", ["task"])
TASK_RETRIES = Counter("arena_task_retries", "Celery task runs that asked for a retry.", ["task"])

UNRESOLVED = "unresolved"
"""The view label of a request no URL pattern matched, or answered by a middleware
before the URL was resolved (a redirect to HTTPS, a missing slash)."""
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
STATUS_CLASSES = ("other", "1xx", "2xx", "3xx", "4xx", "5xx")


class RequestMetricsMiddleware:
    """Observe each request's latency in REQUEST_SECONDS. It runs on every move, so the
    work per request is two clock reads, a dict lookup and one observe: each label set's
    series is looked up once per process and kept (a method outside METHODS counts as
    "other", so no client can grow the dict)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.series: dict[tuple[str, str, int], Any] = {}

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = self.get_response(request)
        match = request.resolver_match
        view = match.view_name if match is not None else UNRESOLVED
        method = request.method if request.method in METHODS else "other"
        status = response.status_code // 100
        key = (view, method, status)
        series = self.series.get(key)
        if series is None:
            status_class = STATUS_CLASSES[status] if 0 < status < 6 else STATUS_CLASSES[0]
            series = self.series[key] = REQUEST_SECONDS.labels(view, method, status_class)
        series.observe(time.perf_counter() - started)
        return response


def move_counted(*, variant: str) -> None:
    """One action that moved cards on a game of ``variant`` (its one write done)."""
    MOVES.labels(variant).inc()


def game_finished_counted(*, variant: str, status: str) -> None:
    GAMES_FINISHED.labels(variant, status).inc()


class ClosedGame(Protocol):
    variant: str
    status: str


def game_closed_hook(*, game: ClosedGame) -> None:
    """A settings.GAME_CLOSE_HOOKS entry: the game is counted once the transaction that
    closes it commits (a close rolled back is no finish)."""
    transaction.on_commit(partial(game_finished_counted, variant=game.variant, status=game.status))


# Celery's signals: connected wherever this module is imported (config.celery imports
# it), in the worker for queued tasks and in the web process for tasks run in process.
_task_started: dict[str, float] = {}


@task_prerun.connect
def _task_prerun(*, task_id: str, **_: Any) -> None:
    _task_started[task_id] = time.perf_counter()


@task_postrun.connect
def _task_postrun(*, task_id: str, task: Any, **_: Any) -> None:
    started = _task_started.pop(task_id, None)
    if started is not None:
        TASK_SECONDS.labels(task.name).observe(time.perf_counter() - started)


@task_failure.connect
def _task_failure(*, sender: Any, **_: Any) -> None:
    TASK_FAILURES.labels(sender.name).inc()


@task_retry.connect
def _task_retry(*, sender: Any, **_: Any) -> None:
    TASK_RETRIES.labels(sender.name).inc()


KOMBU_PRIORITY_SEPARATOR = "\x06\x16"
"""kombu's Redis transport keeps a queue's messages of priority p > 0 in the list
"<queue>\\x06\\x16<p>" (one per priority step) beside the list "<queue>"."""
KOMBU_PRIORITY_STEPS = (0, 3, 6, 9)


def celery_queue_names() -> list[str]:
    """The queues tasks are sent to: the default queue, and any declared or routed to."""
    names = [getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery")]
    for queue in getattr(settings, "CELERY_TASK_QUEUES", None) or ():
        names.append(getattr(queue, "name", queue))
    routes = getattr(settings, "CELERY_TASK_ROUTES", None)
    if isinstance(routes, dict):
        names.extend(route["queue"] for route in routes.values() if "queue" in route)
    return list(dict.fromkeys(names))


class QueueLengthCollector(Collector):
    """On each scrape, the number of messages waiting in each Celery queue (LLEN of its
    lists on the Redis broker), and whether the broker answered. Nothing when the broker
    is not Redis (the embedded default runs tasks in process)."""

    def describe(self) -> Iterable[Metric]:
        # Described without samples: registering must not reach the broker.
        return self._families()

    def _families(self) -> tuple[GaugeMetricFamily, GaugeMetricFamily]:
        return (
            GaugeMetricFamily(
                "arena_queue_length", "Messages waiting in a Celery queue.", labels=["queue"]
            ),
            GaugeMetricFamily("arena_broker_up", "1 if the broker answered the scrape."),
        )

    def collect(self) -> Iterable[Metric]:
        url: str = getattr(settings, "CELERY_BROKER_URL", "") or ""
        if not url.startswith(("redis://", "rediss://")):
            return []
        options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
        prefix = options.get("global_keyprefix", "")
        steps = options.get("priority_steps", KOMBU_PRIORITY_STEPS)
        queues = celery_queue_names()
        lengths, up = self._families()
        try:
            with redis.Redis.from_url(
                url,
                socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
                socket_timeout=REDIS_TIMEOUT_SECONDS,
            ) as client:
                pipeline = client.pipeline(transaction=False)
                for queue in queues:
                    for step in steps:
                        key = f"{queue}{KOMBU_PRIORITY_SEPARATOR}{step}" if step else queue
                        pipeline.llen(prefix + key)
                counts = pipeline.execute()
        except redis.RedisError:
            logger.warning("could not read the broker's queue lengths", exc_info=True)
            up.add_metric([], 0)
            return [up]
        for index, queue in enumerate(queues):
            lengths.add_metric([queue], sum(counts[index * len(steps) : (index + 1) * len(steps)]))
        up.add_metric([], 1)
        return [lengths, up]


QUEUE_LENGTHS = QueueLengthCollector()
if not MULTIPROCESS:
    REGISTRY.register(QUEUE_LENGTHS)


def scrape_registry() -> CollectorRegistry:
    """What a scrape exposes: this process's registry, or under multiprocess mode every
    process's files added up; the queue lengths either way."""
    if not MULTIPROCESS:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    registry.register(QUEUE_LENGTHS)
    return registry


@cache
def _networks(
    addresses: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(address, strict=False) for address in addresses)


def metrics_allowed_ips() -> Sequence[str]:
    """settings.METRICS_ALLOWED_IPS, else the environment's (comma-separated addresses or
    networks), else loopback only."""
    configured = getattr(settings, "METRICS_ALLOWED_IPS", None)
    if configured is not None:
        return list(configured)
    value = os.environ.get("METRICS_ALLOWED_IPS", "")
    return [item.strip() for item in value.split(",") if item.strip()] or ["127.0.0.1", "::1"]


def scrape_allowed(request: HttpRequest) -> bool:
    """Whether this request may read the metrics: it carries the bearer token
    (settings.METRICS_TOKEN or the environment's), or it comes straight from an allowed
    address. A request that passed through a proxy is never let in by its address: the
    proxy's own address (often loopback) is all REMOTE_ADDR says of it."""
    token: str = getattr(settings, "METRICS_TOKEN", None) or os.environ.get("METRICS_TOKEN", "")
    if token:
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(
            given.strip().encode(), token.encode()
        ):
            return True
    if "X-Forwarded-For" in request.headers or "Forwarded" in request.headers:
        return False
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(address in network for network in _networks(tuple(metrics_allowed_ips())))
