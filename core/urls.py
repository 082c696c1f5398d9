from django.urls import path

from core import views

urlpatterns = [
    path("livez", views.live, name="live"),
    path("healthz", views.health, name="health"),
    path("metrics", views.metrics, name="metrics"),
]
