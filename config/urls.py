from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from games import views as game_views

# Staff log in on the players' login page, and so through the same throttle: the
# admin's own login form is never shown (allauth's recommendation).
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("", game_views.home, name="home"),
    path("accounts/", include("allauth.urls")),
    path("api/v1/", include("api.urls")),
    path("", include("accounts.urls")),
    path("", include("players.urls")),
    # The player's badges: the finish toast (namespace "achievements").
    path("achievements/", include("achievements.urls")),
    path("", include("games.urls")),
    path("", include("leaderboards.urls")),
    path("challenges/", include("challenges.urls")),
    path("codex/", include("codex.urls")),
    path("", include("matches.urls")),
    path("", include("core.urls")),
    path("admin/", admin.site.urls),
]
