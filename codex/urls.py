from django.urls import path

from codex import views

app_name = "codex"

urlpatterns = [
    path("", views.home, name="home"),
    path("<slug:key>/play/", views.play, name="play"),
    path("<slug:key>/leaderboard/", views.leaderboard, name="leaderboard"),
]
