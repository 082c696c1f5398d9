from django.urls import path

from leaderboards import views

app_name = "leaderboards"

urlpatterns = [
    path("daily/", views.daily, name="daily"),
    path("daily/<slug:variant>/play/", views.daily_play, name="daily_play"),
    path("daily/<str:day>/<slug:variant>/", views.deal_leaderboard, name="deal"),
    path("daily/<str:day>/<slug:variant>/par/", views.deal_par_replay, name="par"),
    path("leaderboards/<slug:variant>/", views.period_leaderboard, name="period"),
]
