"""A live ASGI server for the browser tests that need WebSockets (the match sockets):
config.asgi's application served by daphne, in a thread of the test process, on
127.0.0.1 and a free port, against the test's own database.

pytest-django's `live_server` is Django's WSGI server, which has no WebSockets. A
daphne in another process could not share the embedded stack's test database (SQLite
in this process's memory), so daphne runs here, in a thread. Twisted's reactor runs
once per process: the server starts with the first test that asks for it and serves
until the process ends (each test's rows are its own: `transaction=True` empties the
tables after it).

On the in-memory SQLite database every server thread uses the test's one connection,
as Django's own live server does (a second connection to a shared-cache in-memory
database fails at once, "database table is locked", instead of waiting), and one
HTTP request is served at a time so that two requests never interleave their
transactions on it. PostgreSQL needs neither: each thread has its own connection,
closed after each request so that the test database can be dropped at the end."""

import threading
import time
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connections

STARTUP_SECONDS = 10


@dataclass(frozen=True)
class AsgiLiveServer:
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


class OneRequestAtATime:
    """Serves HTTP requests one after another (sockets go through untouched)."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.lock: Any = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.application(scope, receive, send)
            return
        import asyncio

        if self.lock is None:
            self.lock = asyncio.Lock()
        async with self.lock:
            await self.application(scope, receive, send)


def _in_memory(connection: Any) -> bool:
    return connection.vendor == "sqlite" and bool(connection.is_in_memory_db())


_started: AsgiLiveServer | None = None
_start_lock = threading.Lock()


def _serve_in_a_thread(application: Any) -> AsgiLiveServer:
    # Importing daphne's server installs the asyncio reactor it needs.
    from daphne.server import Server

    server = Server(
        application=application,
        endpoints=["tcp:port=0:interface=127.0.0.1"],
        signal_handlers=False,
        verbosity=0,
    )
    threading.Thread(target=server.run, name="asgi-live-server", daemon=True).start()
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.listening_addresses:
        if time.monotonic() > deadline:
            raise RuntimeError("daphne did not start listening")
        time.sleep(0.05)
    host, port = server.listening_addresses[0]
    return AsgiLiveServer(host=host, port=port)


def asgi_live_server_start() -> AsgiLiveServer:
    """The process's server, started on the first call."""
    global _started
    with _start_lock:
        if _started is None:
            from config.asgi import application

            served = ASGIStaticFilesHandler(application)
            if _in_memory(connections["default"]):
                # For as long as the server runs: a socket may close after its test.
                connections["default"].inc_thread_sharing()
                served = OneRequestAtATime(served)
            _started = _serve_in_a_thread(served)
        return _started


@pytest.fixture
def asgi_live_server(transactional_db, monkeypatch) -> AsgiLiveServer:
    """The ASGI live server, its threads using the test's database (see the module)."""
    default = connections["default"]
    if _in_memory(default):
        create_connection = connections.create_connection
        monkeypatch.setattr(
            connections,
            "create_connection",
            lambda alias: default if alias == "default" else create_connection(alias),
        )
    else:
        monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    return asgi_live_server_start()
