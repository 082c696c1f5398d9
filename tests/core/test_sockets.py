"""The consumers' base: a message is handed on with no hop to a database thread."""

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from core.sockets import DatabaseFreeDispatchConsumer


class Echo(DatabaseFreeDispatchConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data)


# Closing the socket does close stale connections (channels' websocket_disconnect),
# which may touch the test database.
@pytest.mark.django_db
def test_a_message_reaches_its_handler_without_closing_connections(monkeypatch) -> None:
    closed: list[None] = []

    async def counted() -> None:
        closed.append(None)

    # What channels' own dispatch awaits before every message (its testing harness
    # makes channels.db's close_old_connections a no-op, so that is not counted).
    monkeypatch.setattr("channels.consumer.aclose_old_connections", counted)

    async def talk() -> None:
        communicator = WebsocketCommunicator(Echo.as_asgi(), "/")
        connected, _ = await communicator.connect()
        assert connected
        await communicator.send_to(text_data="a move")
        assert await communicator.receive_from() == "a move"
        assert closed == []  # channels' own dispatch closes them before every message
        await communicator.disconnect()

    async_to_sync(talk)()


def test_a_message_of_no_handler_is_an_error() -> None:
    consumer = Echo()
    with pytest.raises(ValueError, match=r"No handler for message type match\.nothing"):
        async_to_sync(consumer.dispatch)({"type": "match.nothing"})
