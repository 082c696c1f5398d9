"""Pushing a match's progress (matches.live): sent at once, collected for a socket's
event loop, and never failing the action when the channel layer is down."""

import logging
import uuid

from matches import live


class DownLayer:
    async def group_send(self, group, event):
        raise ConnectionError("the channel layer is down")


class RecordingLayer:
    def __init__(self):
        self.sent = []

    async def group_send(self, group, event):
        self.sent.append((group, event))


def test_a_push_is_sent_to_the_matchs_group_at_once(monkeypatch) -> None:
    layer = RecordingLayer()
    monkeypatch.setattr(live, "get_channel_layer", lambda: layer)
    match_id = uuid.uuid4()
    live._send(match_id, {"type": live.MATCH_EVENT, "html": "<div></div>"})
    assert layer.sent == [(f"match-{match_id}", {"type": live.MATCH_EVENT, "html": "<div></div>"})]


def test_deferred_pushes_are_collected_then_sent_from_the_loop(monkeypatch) -> None:
    from asgiref.sync import async_to_sync

    layer = RecordingLayer()
    monkeypatch.setattr(live, "get_channel_layer", lambda: layer)
    match_id = uuid.uuid4()
    with live.pushes_deferred() as pushes:
        live._send(match_id, {"type": live.MATCH_EVENT, "html": ""})
    assert layer.sent == []
    assert pushes == [(f"match-{match_id}", {"type": live.MATCH_EVENT, "html": ""})]
    live._send(match_id, {"type": live.MATCH_EVENT, "html": "after"})  # no longer deferred
    async_to_sync(live.pushes_send)(pushes)
    assert [event["html"] for _, event in layer.sent] == ["after", ""]


def test_a_layer_that_is_down_fails_no_action(monkeypatch, caplog) -> None:
    monkeypatch.setattr(live, "get_channel_layer", lambda: DownLayer())
    match_id = uuid.uuid4()
    with caplog.at_level(logging.WARNING, logger="matches.live"):
        live._send(match_id, {"type": live.MATCH_EVENT, "html": ""})
    assert f"could not push to the sockets of match-{match_id}" in caplog.text
