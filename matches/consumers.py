"""A match's socket: a seated player receives the match's live fragments
(matches.live). Thin: who may listen is the selectors' rule, what is sent is
rendered where the change happens."""

from typing import Any

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer

from matches import selectors
from matches.live import match_group

NOT_YOURS = 4404
"""The close code for a socket of a match the user has no seat in (or no login)."""


class MatchConsumer(WebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    group: str | None = None

    def connect(self) -> None:
        user = self.scope.get("user")
        match_id = self.scope["url_route"]["kwargs"]["match_id"]
        if user is None or not user.is_authenticated:
            self.close(code=NOT_YOURS)
            return
        if not selectors.match_is_seated(match_id=match_id, player=user):
            self.close(code=NOT_YOURS)
            return
        self.group = match_group(match_id)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()

    def disconnect(self, code: int) -> None:
        if self.group is not None:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing the match needs: every action is a real request."""

    def match_update(self, event: dict[str, Any]) -> None:
        self.send(text_data=event["html"])
