"""The base of the site's WebSocket consumers, and their close codes."""

from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

SIGN_IN_FIRST = 4401
"""The close code for a socket without a live sign-in (or whose sign-in has ended)."""
NOT_YOURS = 4404
"""The close code for a socket of a match the user has no seat in (or no such match)."""
NESTED_TOO_DEEP = 1008
"""The close code (RFC 6455's "policy violation") for a message nested deeper than
core.json_depth.MAX_DEPTH: one a JSON parser's recursion could not read."""


class DatabaseFreeDispatchConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # untyped
    """An asynchronous consumer whose handlers reach the database only through
    channels.db.database_sync_to_async, which closes stale connections itself before
    and after its work in its own thread.

    Channels' dispatch also closes them before every message it hands on, with a hop
    to a thread and back: on a match socket that is every move and every push of the
    opponent's progress, none of which needs the database here. That hop was half of
    what a socket cost the server per move (docs/matches.md, "Speed"), so it is
    left out."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def refuse(self, code: int) -> None:
        """Accept the handshake, then close with the code: a close before the accept
        reaches a client as the handshake's HTTP 403, the same for every reason."""
        await self.accept()
        await self.close(code=code)
