from django.urls import path

from api.authentication import SessionTokenSocketMiddleware
from api.consumers import MatchSocketConsumer

websocket_urlpatterns = [
    path(
        "api/v1/matches/<uuid:match_id>/socket",
        SessionTokenSocketMiddleware(MatchSocketConsumer.as_asgi()),
    )
]
