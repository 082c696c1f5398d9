from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("play/<slug:variant>/", views.play, name="play"),
    path("play/<slug:variant>/new/", views.new_deal, name="new_deal"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
    path("games/", views.history, name="history"),
    path("games/<uuid:game_id>/", views.detail, name="detail"),
    path("games/<uuid:game_id>/move/", views.move, name="move"),
    path("games/<uuid:game_id>/tap/", views.tap, name="tap"),
    path("games/<uuid:game_id>/undo/", views.undo, name="undo"),
    path("games/<uuid:game_id>/hint/", views.hint, name="hint"),
    path("games/<uuid:game_id>/auto-complete/", views.auto_complete, name="auto_complete"),
    path("games/<uuid:game_id>/finish/", views.finish, name="finish"),
    path("games/<uuid:game_id>/accept-loss/", views.accept_loss, name="accept_loss"),
    path("games/<uuid:game_id>/restart/", views.restart, name="restart"),
]
