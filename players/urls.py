from django.urls import path

from players import views

app_name = "players"

urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
]
