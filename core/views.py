"""The probes and the metrics scrape (docs/metrics.md). None of them reads the session or
writes anything: an orchestrator or Prometheus calling every few seconds costs a query
and a PING at most."""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client.exposition import choose_encoder

from core.health import health_checks
from core.metrics import scrape_allowed, scrape_registry


@never_cache
@require_safe
def live(request: HttpRequest) -> HttpResponse:
    """Liveness: the process answers requests. Touches nothing, so a database or Redis
    outage never gets healthy processes restarted."""
    return JsonResponse({"status": "ok"})


@never_cache
@require_safe
def health(request: HttpRequest) -> HttpResponse:
    """Readiness: 200 when the database and Redis answer, else 503 naming what failed."""
    checks = health_checks(redis_url=getattr(settings, "REDIS_URL", ""))
    ok = all(check.passed for check in checks.values())
    return JsonResponse(
        {
            "status": "ok" if ok else "error",
            "checks": {name: check.as_dict() for name, check in checks.items()},
        },
        status=200 if ok else 503,
    )


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    """The Prometheus text format (or OpenMetrics, when the scraper asks for it), for an
    allowed address or the bearer token; anyone else is told there is no such page."""
    if not scrape_allowed(request):
        raise Http404
    encode, content_type = choose_encoder(request.headers.get("Accept", ""))
    return HttpResponse(encode(scrape_registry()), content_type=content_type)
