"""Pushing a match's progress to its players' sockets (matches.consumers).

What is pushed is rendered once, where the change happens, and every socket of the
match forwards the same HTML: a seat's public progress after each of its actions
(the engine's public view: face-up cards only), the whole match once it settles.
htmx's WebSocket extension swaps each fragment in by its id (hx-swap-oob)."""

import logging
from uuid import UUID

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.template.loader import render_to_string

from matches import selectors

logger = logging.getLogger(__name__)


def match_group(match_id: UUID | str) -> str:
    return f"match-{match_id}"


def _send(match_id: UUID, html: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            match_group(match_id), {"type": "match.update", "html": html}
        )
    except Exception:
        logger.warning("could not push match %s to its sockets", match_id)


def match_seat_push(*, match_id: UUID, seat: selectors.SeatView) -> None:
    """One seat's public progress after its action, to every socket of the match: built
    from the game the action holds, so the push reads nothing from the database."""
    _send(match_id, render_to_string("matches/_live_seat.html", {"seat": seat}))


def match_progress_push(*, match_id: UUID) -> None:
    """The match as its players now see it, to every socket of the match. A channel
    layer that is down never fails the action that caused it: the page's poll and the
    next action bring the state back."""
    view = selectors.match_live_view(match_id=match_id)
    if view is None:
        return
    html = render_to_string("matches/_live_body.html", {"view": view})
    _send(match_id, html)
