"""A match's socket for its web page: a seated player receives the match's live
fragments (matches.live), HTML that htmx swaps in. Thin: who may listen is the
selectors' rule, what is sent is rendered where the change happens. Asynchronous:
forwarding a fragment takes no thread and no database read; only the seat check at
connect, and the sign-in's when the account changes, read the database."""

from typing import Any

from channels.db import database_sync_to_async

from accounts.sockets import SignedInConsumer, session_user
from core.sockets import NOT_YOURS, SIGN_IN_FIRST
from matches import selectors
from matches.live import match_group

__all__ = ["NOT_YOURS", "SIGN_IN_FIRST", "MatchConsumer"]


class MatchConsumer(SignedInConsumer):
    """Lives as long as its web session: closed with SIGN_IN_FIRST once the session
    ends (signed out, a new password, the account disabled: accounts.sockets). Its
    user is the session's as Django's get_user reads it, SECRET_KEY_FALLBACKS too
    (accounts.sockets.session_auth_middleware_stack)."""

    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        match_id = self.scope["url_route"]["kwargs"]["match_id"]
        if user is None or not user.is_authenticated:
            await self.refuse(SIGN_IN_FIRST)
            return
        seated = await database_sync_to_async(selectors.match_is_seated)(
            match_id=match_id, player=user
        )
        if not seated:
            await self.refuse(NOT_YOURS)
            return
        self.group = match_group(match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.watch_sign_in(user_id=user.pk, session_key=self.scope["session"].session_key)
        await self.accept()

    def signed_in(self) -> bool:
        user = session_user(self.scope["session"].session_key)
        return bool(user.pk == self.scope["user"].pk)

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing the match needs: every action is a real request."""

    async def match_seat(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])

    async def match_update(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])
