from django.urls import path

from achievements import views

app_name = "achievements"

urlpatterns = [
    path("games/<uuid:game_id>/toast/", views.finish_toast, name="finish_toast"),
]
