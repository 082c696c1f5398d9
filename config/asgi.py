"""The ASGI application: Django's pages and API over HTTP, and the live match sockets
over WebSocket: the web page's (matches.routing), signed in by the session cookie (read
as Django reads a request's: accounts.sockets) and refused from any other origin, and the
API's (api.routing), signed in by the session token alone."""

import os

from django.core.asgi import get_asgi_application
from django.urls import re_path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

# Django is set up before anything imports a model (the consumers do).
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from accounts.sockets import session_auth_middleware_stack  # noqa: E402
from api.routing import websocket_urlpatterns as api_sockets  # noqa: E402
from config.process import server_process_ready  # noqa: E402
from matches.routing import websocket_urlpatterns as page_sockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": URLRouter(
            [
                *api_sockets,
                re_path(
                    "",
                    AllowedHostsOriginValidator(
                        session_auth_middleware_stack(URLRouter(page_sockets))
                    ),
                ),
            ]
        ),
    }
)

server_process_ready()
