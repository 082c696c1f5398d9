"""The site's URLs and the benchmark's floor: what any signed-in POST on this stack costs
at least (the same middleware, session, CSRF check and user, one row locked and updated
in a transaction, a 1.6 KB template), to which scripts/bench_http.py compares a move."""

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.http import require_POST

FLOOR = engines["django"].from_string(
    '<section id="floor" data-revision="{{ revision }}" aria-label="Floor">'
    "<header><h1>The floor</h1><p>{{ user.username }}, signed in at {{ now }}</p></header>"
    '<ol class="piles">{% for pile in piles %}<li class="pile" data-pile="{{ pile }}">'
    '<span class="card back"></span><span class="card up">{{ pile }}</span>'
    "</li>{% endfor %}</ol>"
    '<form method="post" action="/bench/floor/">'
    '<input type="hidden" name="revision" value="{{ revision }}">'
    '<button type="submit">Again</button></form>'
    "<footer>" + "<p>A line of the floor's page, as long as a board's text.</p>" * 18 + "</footer>"
    "</section>"
)


@login_required
@require_POST
def floor(request: HttpRequest) -> HttpResponse:
    users = get_user_model()
    with transaction.atomic():
        user = users.objects.select_for_update().only("id", "last_login").get(pk=request.user.pk)
        user.last_login = timezone.now()
        user.save(update_fields=["last_login"])
    context = {"user": request.user, "now": user.last_login, "revision": 1, "piles": range(1, 8)}
    return HttpResponse(FLOOR.render(context, request))


urlpatterns = [
    path("bench/floor/", floor, name="bench_floor"),
    path("", include("config.urls")),
]
