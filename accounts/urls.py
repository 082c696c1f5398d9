from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
    path("settings/", views.settings_page, name="settings"),
]
