"""The API's match socket, /api/v1/matches/{id}/socket (docs/api.md#the-match-socket):
an app signed in by its session token plays its own game of the match over it and
hears the match as it happens, all in JSON. Thin: what a message does is
api.sockets's, the rules the services'; the consumer is asynchronous and only its
database work (the answer to a message, the first message, a changed match) takes
its database thread."""

import json
from typing import Any
from uuid import UUID

from channels.db import database_sync_to_async

from accounts.sockets import SignedInConsumer
from api import sockets
from api.authentication import session_token_of
from core.json_depth import json_too_deep
from core.sockets import NESTED_TOO_DEEP, NOT_YOURS, SIGN_IN_FIRST
from matches.live import match_group, pushes_send

__all__ = ["NOT_YOURS", "SIGN_IN_FIRST", "MatchSocketConsumer"]


class MatchSocketConsumer(SignedInConsumer):
    """Lives as long as its session token: closed with SIGN_IN_FIRST when the token's
    session ends (accounts.sockets), and every action checks the token first."""

    group: str | None = None
    game_id: UUID | None = None

    async def connect(self) -> None:
        player = self.scope.get("user")
        if player is None or not player.is_authenticated:
            await self.refuse(SIGN_IN_FIRST)
            return
        self.token = session_token_of(self.scope)
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        hello = await database_sync_to_async(sockets.socket_hello)(
            match_id=self.match_id, player=player
        )
        if hello is None:
            await self.refuse(NOT_YOURS)
            return
        self.game_id = hello.game_id
        self.shared_board = hello.shared_board
        self.group = match_group(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.watch_sign_in(user_id=player.pk, session_key=self.scope.get("session_key"))
        await self.accept()
        await self._send(hello.message)

    def signed_in(self) -> bool:
        return sockets.socket_signed_in(token=self.token, player=self.scope["user"]) is not None

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is not None and json_too_deep(text_data):
            await self.close(code=NESTED_TOO_DEEP)
            return
        # Not thread-sensitive: a process's sockets act on several threads at once, each
        # action in its own transaction on its own connection, so one's database round
        # trips overlap another's work; on channels' default single thread every move
        # waited for all the others (a third fewer moves served at N=200 in the benchmark).
        answer = await database_sync_to_async(sockets.socket_action, thread_sensitive=False)(
            match_id=self.match_id,
            game_id=self.game_id,
            shared_board=self.shared_board,
            token=self.token,
            player=self.scope["user"],
            text=text_data if text_data is not None else "",
        )
        await pushes_send(answer.pushes)
        await self._send(answer.message)
        if answer.signed_out:
            await self.sign_out()

    async def match_seat(self, event: dict[str, Any]) -> None:
        """Another seat's progress; the player's own is in the answers to their actions.
        Told apart by the player, not the game, which a socket opened before the start
        did not know."""
        if event["seat"]["username"] != self.scope["user"].get_username():
            await self._send({"type": "seat", "seat": event["seat"]})

    async def match_update(self, event: dict[str, Any]) -> None:
        message = await database_sync_to_async(sockets.socket_match)(
            match_id=self.match_id, token=self.token, player=self.scope["user"]
        )
        if message is None:
            await self.sign_out()
            return
        game = message["match"]["your_game_id"]
        self.game_id = UUID(game) if game else None
        await self._send(message)

    async def _send(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(message, default=str))
