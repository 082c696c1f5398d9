from django.urls import path

from challenges import views

app_name = "challenges"

urlpatterns = [
    path("", views.home, name="home"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("<int:challenge_id>/play/", views.play, name="play"),
    path("<int:challenge_id>/proof/", views.proof, name="proof"),
]
