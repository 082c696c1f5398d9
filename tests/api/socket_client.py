"""A WebSocket client over the standard library's sockets (RFC 6455), for the tests that
talk to a real server (daphne): the handshake as any client sends it, masked text
frames out, text and close frames in. autobahn, which daphne brings, is bound to the
Twisted reactor the in-process server runs on."""

import base64
import json
import secrets
import socket
import struct
from typing import Any

TEXT, CLOSE, PING = 0x1, 0x8, 0x9
SECONDS = 10.0


class SocketClosed(Exception):
    def __init__(self, code: int | None) -> None:
        super().__init__(f"closed by the server with code {code}")
        self.code = code


class SocketClient:
    """One socket: `status` is the handshake's HTTP status (101 when it was accepted)."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None) -> None:
        self.connection = socket.create_connection(("127.0.0.1", port), timeout=SECONDS)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *(f"{name}: {value}" for name, value in (headers or {}).items()),
        ]
        self.connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n").decode("latin-1")
        self.status = int(head.split(" ", 2)[1])

    def _received(self) -> bytes:
        data = self.connection.recv(65536)
        if not data:
            raise SocketClosed(None)
        return data

    def _until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            self.buffer += self._received()
        head, self.buffer = self.buffer.split(end, 1)
        return head

    def _exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self.buffer += self._received()
        head, self.buffer = self.buffer[:size], self.buffer[size:]
        return head

    def _frame(self) -> tuple[int, bytes]:
        first, second = self._exactly(2)
        size = second & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", self._exactly(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", self._exactly(8))
        return first & 0x0F, self._exactly(size)

    def receive(self) -> dict[str, Any]:
        """The next text message; SocketClosed with the server's close code instead."""
        while True:
            opcode, payload = self._frame()
            if opcode == CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise SocketClosed(code)
            if opcode == TEXT:
                return dict(json.loads(payload))

    def close_code(self) -> int | None:
        """The code the server closes the socket with, after any messages before it."""
        try:
            while True:
                self.receive()
        except SocketClosed as closed:
            return closed.code

    def send(self, message: dict[str, Any]) -> None:
        payload = json.dumps(message).encode()
        mask = secrets.token_bytes(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", 0x80 | TEXT, 0x80 | size)
        else:
            head = struct.pack("!BBH", 0x80 | TEXT, 0x80 | 126, size)
        self.connection.sendall(head + mask + masked)

    def close(self) -> None:
        self.connection.close()
