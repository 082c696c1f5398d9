"""The simulated players of scripts/bench_http.py: their boards as the server last sent
them, and the HTTP connections that send their requests to the nodes in turn."""

import gzip
import http.client
import json
import random
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlencode

MOVE_MAP = re.compile(r"data-legal-moves='([^']*)'")
MOVE_FORM = re.compile(r"<form([^>]*)>(.*?)</form>", re.S)
MOVE_VALUE = re.compile(r'name="move" value="([^"]+)"')
REVISION = re.compile(r'data-revision="(\d+)"')
STATUS = re.compile(r'data-state="(\w+)"')


@dataclass
class Board:
    variant: str
    game_id: str
    daily: bool = False
    """Today's daily deal (the ranked attempt): played, never dealt again, finished at
    the end."""
    revision: int = 0
    status: str = "active"
    moves: list[str] = field(default_factory=list)
    accepted: int = 0
    """Moves of this game the server accepted (answered with the new board)."""
    refused: int = 0
    """Legal moves with the board's revision that the server refused (stale or illegal)."""


@dataclass
class Player:
    number: int
    username: str
    cookie: str
    csrf: str = ""
    boards: list[Board] = field(default_factory=list)
    sent: int = 0
    """Requests sent, which picks the node of the next one."""
    turn: int = 0
    finished: list[Board] = field(default_factory=list)
    """Games dealt again (their moves are checked at the end too)."""
    chooser: random.Random = field(default_factory=random.Random)

    def every_board(self) -> list[Board]:
        return [*self.boards, *self.finished]


@dataclass
class Nodes:
    """The ports of the nodes, and who sent how many requests to which."""

    ports: list[int]
    requests: Counter[tuple[int, int]] = field(default_factory=Counter)
    """(player number, node index) -> requests answered."""
    signed_out: int = 0
    """Answers that sent a signed-in player to the login page or refused it (403)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answered(self, player: Player, node: int, status: int, location: str) -> None:
        with self.lock:
            self.requests[player.number, node] += 1
            if status == 403 or (status == 302 and "/login" in location):
                self.signed_out += 1

    def per_node(self) -> list[int]:
        return [
            sum(count for (_, node), count in self.requests.items() if node == index)
            for index in range(len(self.ports))
        ]


class Connections:
    """One keep-alive connection per node for one load thread (gunicorn's sync
    workers close each one after an answer; http.client opens it again)."""

    def __init__(self, nodes: Nodes) -> None:
        self.nodes = nodes
        self.open = [
            http.client.HTTPConnection("127.0.0.1", port, timeout=30) for port in nodes.ports
        ]

    def send(
        self,
        player: Player,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        *,
        node: int | None = None,
        htmx: bool = False,
    ) -> tuple[int, dict[str, str], str]:
        """The player's request to `node`, or to the node after its last request's. A
        POST is an htmx request, as the board's forms send it; a GET is one with `htmx`
        (the board htmx fetches after a new deal's HX-Location), else a page."""
        if node is None:
            node = player.sent % len(self.nodes.ports)
            player.sent += 1
        port = self.nodes.ports[node]
        connection = self.open[node]
        headers = {
            "Cookie": f"sessionid={player.cookie}; csrftoken={player.csrf}",
            "Accept-Encoding": "gzip",
            "Host": f"127.0.0.1:{port}",
        }
        body = None
        if htmx or method == "POST":
            headers |= {"HX-Request": "true", "HX-Target": "board"}
        if method == "POST":
            body = urlencode(form or {})
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": player.csrf,
                "Origin": f"http://127.0.0.1:{port}",
            }
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            connection.close()
            raise
        if response.getheader("Connection", "").lower() == "close":
            connection.close()
        if response.getheader("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        self.nodes.answered(player, node, response.status, response.getheader("Location") or "")
        return response.status, dict(response.getheaders()), raw.decode()

    def move(self, player: Player, board: Board, move: str, *, node: int | None = None) -> int:
        """One move with the board's revision; the board as answered. Returns the status."""
        form = {"move": move, "revision": str(board.revision)}
        status, headers, html = self.send(
            player, "POST", f"/games/{board.game_id}/move/", form, node=node
        )
        answered(board, status, headers)
        board_read(board, html)
        return status


def refusal_code(headers: dict[str, str]) -> str | None:
    """The code of the refusal a board's answer carries (its HX-Trigger `refused` event,
    games.views), None when the action was done."""
    trigger = json.loads(headers.get("HX-Trigger") or "{}")
    return trigger["refused"]["code"] if "refused" in trigger else None


def answered(board: Board, status: int, headers: dict[str, str]) -> None:
    if status != 200:
        return
    if refusal_code(headers) is None:
        board.accepted += 1
    else:
        board.refused += 1


def board_read(board: Board, html: str) -> None:
    revision, status = REVISION.search(html), STATUS.search(html)
    if revision is None or status is None:
        raise ValueError("the answer holds no board")
    board.revision, board.status = int(revision.group(1)), status.group(1)
    moves = set()
    for attributes, inside in MOVE_FORM.findall(html):
        value = MOVE_VALUE.search(inside)
        # What a player can press: an enabled button, on Spike a card highlighted as
        # playable (the players keep the highlighting setting on).
        pressable = "<button" in inside and "disabled" not in inside
        if "spike-play" in attributes and "playable" not in inside:
            pressable = False
        if value and pressable:
            moves.add(value.group(1))
    found = MOVE_MAP.search(html)
    if found:
        for targets in json.loads(found.group(1)).values():
            moves.update(targets.values())
    board.moves = sorted(moves)
