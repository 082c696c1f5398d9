from django.urls import include, path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
    path("settings/", views.settings_page, name="settings"),
    # The player's badges: the finish toast (namespace "accounts:achievements").
    path("achievements/", include("achievements.urls")),
]
