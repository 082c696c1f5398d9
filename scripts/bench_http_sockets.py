"""(g) of scripts/bench_http.py's verification, with daphne: a match's push crosses nodes.

One Klondike head-to-head match (a test points table published where none is), each
seat's API match socket open on a node of its own; each seat then draws from the stock
through the board's endpoint on its own node, and the other seat's socket, on the other
node, must hear the seat's new move count (the push goes through Redis's channel layer).

The sockets are a few lines of RFC 6455 over the standard library's sockets: autobahn,
which comes with daphne, is bound to Twisted once the site is imported, and Twisted's
reactor would hold this process."""

import base64
import json
import secrets
import socket
import struct
import time
from dataclasses import dataclass
from typing import Any

from bench_http_checks import Check
from bench_http_client import Board, Connections, Nodes, Player
from benchlib import points_table_published

HEARD_WITHIN = 10.0
"""Seconds a socket has to open, to greet, and to hear the other seat's move."""
TEXT, CLOSE, PING = 0x1, 0x8, 0x9


class MatchSocket:
    """A client of the API's match socket: the upgrade, then the server's text frames
    read one at a time (a client's frames must be masked; this one sends none)."""

    def __init__(self, port: int, path: str, token: str) -> None:
        self.connection = socket.create_connection(("127.0.0.1", port), timeout=HEARD_WITHIN)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        self.connection.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nX-Session-Token: {token}\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        head = self.read_until(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise OSError(f"the socket was refused: {head.splitlines()[0]!r}")

    def read_until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            self.buffer += self.received()
        head, self.buffer = self.buffer.split(end, 1)
        return head

    def read_exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self.buffer += self.received()
        head, self.buffer = self.buffer[:size], self.buffer[size:]
        return head

    def received(self) -> bytes:
        data = self.connection.recv(65536)
        if not data:
            raise OSError("the socket was closed")
        return data

    def message(self) -> dict[str, Any]:
        """The next text message (a ping is left unanswered: the wait is seconds)."""
        while True:
            first, second = self.read_exactly(2)
            size = second & 0x7F
            if size == 126:
                (size,) = struct.unpack("!H", self.read_exactly(2))
            elif size == 127:
                (size,) = struct.unpack("!Q", self.read_exactly(8))
            payload = self.read_exactly(size)
            opcode = first & 0x0F
            if opcode == CLOSE:
                raise OSError(f"the server closed the socket: {payload!r}")
            if opcode == TEXT:
                return dict(json.loads(payload))

    def close(self) -> None:
        self.connection.close()


@dataclass
class Seat:
    player: Player
    board: Board
    node: int


def seats_made(nodes: Nodes) -> tuple[str, list[Seat]]:
    """A started match of two signed-in players, seat n's requests and socket on node n."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from matches import services

    users = get_user_model()
    points_table_published()
    players = [users.objects.create_user(username=f"bench-http-seat-{n}") for n in (0, 1)]
    match = services.match_create(player=players[0], mode="klondike")
    services.match_join(player=players[1], match_id=match.id)
    seats = []
    for seat in match.seats.select_related("game").order_by("number"):
        client = Client()
        client.force_login(seat.player)
        player = Player(
            number=seat.number,
            username=seat.player.username,
            cookie=client.cookies[settings.SESSION_COOKIE_NAME].value,
            csrf=secrets.token_hex(16),
        )
        board = Board(variant="klondike", game_id=str(seat.game_id), revision=seat.game.revision)
        seats.append(Seat(player=player, board=board, node=seat.number % len(nodes.ports)))
    return str(match.id), seats


def socket_opened(nodes: Nodes, match_id: str, seat: Seat) -> MatchSocket:
    """The seat's socket open on its node, signed in by its session token, greeted."""
    path = f"/api/v1/matches/{match_id}/socket"
    opened = MatchSocket(nodes.ports[seat.node], path, seat.player.cookie)
    opened.message()
    return opened


def push_heard(listener: MatchSocket, mover: Seat) -> bool:
    """Whether the listener's socket hears the mover's move count of its last move."""
    deadline = time.monotonic() + HEARD_WITHIN
    while time.monotonic() < deadline:
        message = listener.message()
        seat = message.get("seat", {})
        if (
            message.get("type") == "seat"
            and seat.get("game_id") == mover.board.game_id
            and seat.get("move_count") == mover.board.accepted
        ):
            return True
    return False


def pushes_heard(nodes: Nodes, match_id: str, seats: list[Seat]) -> list[str]:
    """Each seat draws on its node in turn; what went wrong (nothing: an empty list)."""
    sockets = [socket_opened(nodes, match_id, seat) for seat in seats]
    connections = Connections(Nodes(ports=nodes.ports))
    wrong = []
    try:
        for mover, listener, listening in ((*seats, sockets[1]), (*seats[::-1], sockets[0])):
            status = connections.move(mover.player, mover.board, "draw", node=mover.node)
            if status != 200:
                wrong.append(f"seat {mover.player.number}'s draw was answered {status}")
            elif not push_heard(listening, mover):
                wrong.append(
                    f"seat {listener.player.number}'s socket on node {listener.node} never "
                    f"heard seat {mover.player.number}'s move made on node {mover.node}"
                )
    finally:
        for opened in sockets:
            opened.close()
    return wrong


def push_crosses_nodes(nodes: Nodes) -> Check:
    """(g) A move on one node is pushed to the other seat's socket on the other node."""
    match_id, seats = seats_made(nodes)
    try:
        wrong = pushes_heard(nodes, match_id, seats)
    except OSError as failure:
        wrong = [f"a socket failed: {failure!r}"]
    figures = "; ".join(wrong) or (
        f"each seat's draw (on node {seats[0].node}, node {seats[1].node}) was heard by the "
        "other seat's socket on the other node"
    )
    return Check("sockets", not wrong, figures)
