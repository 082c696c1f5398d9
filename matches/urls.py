from django.urls import path

from matches import views, views_duel

app_name = "matches"

urlpatterns = [
    path("matches/", views.lobby, name="lobby"),
    path("matches/new/", views.create, name="create"),
    path("matches/queue/<slug:mode>/join/", views.queue_join, name="queue_join"),
    path("matches/queue/<slug:mode>/leave/", views.queue_leave, name="queue_leave"),
    path("matches/ratings/<slug:mode>/", views.ratings, name="ratings"),
    path("matches/rules/<slug:mode>/", views_duel.rules, name="rules"),
    path("matches/<uuid:match_id>/", views.detail, name="detail"),
    path("matches/<uuid:match_id>/live/", views.live, name="live"),
    path("matches/<uuid:match_id>/duel/", views_duel.duel, name="duel"),
    path("matches/<uuid:match_id>/duel/move/", views_duel.move, name="duel_move"),
    path("matches/<uuid:match_id>/join/", views.join, name="join"),
    path("matches/<uuid:match_id>/leave/", views.leave, name="leave"),
    path("matches/<uuid:match_id>/start/", views.start, name="start"),
    path("matches/<uuid:match_id>/rematch/", views.rematch, name="rematch"),
]
