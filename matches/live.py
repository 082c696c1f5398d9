"""Pushing a match's progress to its players' sockets.

What is pushed is built once, where the change happens, and every socket of the match
forwards its own form of the same event: the web page's socket (matches.consumers)
the HTML that htmx's WebSocket extension swaps in by its id (hx-swap-oob), the API's
(api.consumers) JSON. Two events: a seat's figures after each of its actions (score,
cards on the foundations as a count, moves, status: never a card, for the seats play one
deal and a card face up on one table may be hidden on another), and "the match changed"
(it settled, or a move on the Duel's shared board), after which each socket shows the
match as its player may see it (the tables, once it is over).

A push is sent once the action that caused it commits. From a synchronous request
that is at once; an asynchronous caller (the API's match socket, whose actions run in
a database thread) collects them with `pushes_deferred` and sends them from its own
event loop with `pushes_send`, sparing each push a hop from the thread to the loop."""

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from uuid import UUID

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.template import engines
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from matches import selectors

logger = logging.getLogger(__name__)

SEAT_EVENT = "match.seat"
MATCH_EVENT = "match.update"


def match_group(match_id: UUID | str) -> str:
    return f"match-{match_id}"


def seat_data(seat: selectors.SeatView) -> dict[str, Any]:
    """A seat's figures as the API's socket sends them, in the names of the API's seat
    (GET /matches/{id}): `public` is null, for a seat's progress is pushed while the
    match runs, when no table is shown."""
    return {
        "game_id": str(seat.game_id),
        "username": seat.username,
        "score": seat.score,
        "cards_on_foundations": seat.foundation_cards,
        "move_count": seat.move_count,
        "game_state": seat.game_status or None,
        "public": seat.public,
    }


Push = tuple[str, dict[str, Any]]
"""A group of sockets and the event for them."""

_deferred: ContextVar[list[Push] | None] = ContextVar("match_pushes_deferred", default=None)


@contextmanager
def pushes_deferred() -> Iterator[list[Push]]:
    """The pushes made inside, collected instead of sent, for `pushes_send`."""
    pending: list[Push] = []
    token = _deferred.set(pending)
    try:
        yield pending
    finally:
        _deferred.reset(token)


async def pushes_send(pushes: list[Push]) -> None:
    """Send pushes from the caller's event loop. A channel layer that is down never
    fails the action that caused them: the page's poll and the next action bring the
    state back."""
    layer = get_channel_layer()
    if layer is None:
        return
    for group, event in pushes:
        try:
            await layer.group_send(group, event)
        except Exception:
            logger.warning("could not push to the sockets of %s", group)


def _send(match_id: UUID, event: dict[str, Any]) -> None:
    """Push now, or collect the push where `pushes_deferred` asks for it."""
    push = (match_group(match_id), event)
    pending = _deferred.get()
    if pending is None:
        async_to_sync(pushes_send)([push])
    else:
        pending.append(push)


def seat_html(seat: selectors.SeatView) -> SafeString:
    """A seat's row of the live panel. Jinja2: it is rendered after every move of a
    match (Django's templates took a tenth of a socket move's server time)."""
    return mark_safe(  # nosec B308 B703: Jinja2 escapes what it renders (autoescape)
        engines["jinja2"].get_template("matches/live_seat.jinja").render({"seat": seat})
    )


def match_seat_push(*, match_id: UUID, seat: selectors.SeatView) -> None:
    """One seat's figures after its action, to every socket of the match: built
    from the game the action holds, so the push reads nothing from the database."""
    _send(match_id, {"type": SEAT_EVENT, "html": seat_html(seat), "seat": seat_data(seat)})


def match_progress_push(*, match_id: UUID) -> None:
    """The match as its players now see it, to every socket of the match."""
    view = selectors.match_live_view(match_id=match_id)
    if view is None:
        return
    html = render_to_string("matches/_live_body.html", {"view": view})
    _send(match_id, {"type": MATCH_EVENT, "html": html})
