"""Time the board's move request against the floor, on gunicorn, side by side in one run.

    .venv/bin/python scripts/bench_http.py [--connections 2 10] [--seconds 15]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
    REDIS_URL=redis://127.0.0.1:6379/11 .venv/bin/python scripts/bench_http.py [--nodes 2]

Starts the site on gunicorn (config/gunicorn.conf.py, 2 sync workers per node) on
127.0.0.1, with DEBUG off and the static files collected, against a throwaway database:
a SQLite file in a temporary folder by default; with DATABASE_URL, a database of the
run's own with a random name on that PostgreSQL server (made and dropped by the run; the
database the URL names is never touched), with REDIS_URL the cache, sessions, ranks and
broker on that Redis database under key prefixes of the run's own.

The servers' settings module (scripts/bench_http_settings.py) is the site's with one URL
more: the floor (scripts/bench_http_urls.py), a signed-in POST that locks and updates one
row and renders a 1.6 KB template, what any write on this stack costs at least.

Players are made and signed in through the site's own code (one session each); each
opens its five boards (one game of every kind) with a GET that brings its CSRF token,
then plays legal moves read from the board it was last sent (the move map and the
boards' move forms), each with its revision and token, as the board's htmx form posts
them. A finished, lost or long game is followed by a new deal (not timed). For each
number of connections (closed loop: a connection sends its next request when the last
is answered), the floor then the moves are timed for --seconds each, and the run prints
requests a second, p50 and p99, the move's share of the floor, and the CPU a request
cost each kind of local process.

With --nodes 2, two gunicorn nodes on two ports share the database and Redis, with a
Celery worker and beat, and each player's requests go to the nodes in turn: the run
then checks that no move was lost or applied twice (every game's move count is the
moves its player had accepted, and every game replays to its stored position), that the
worker ran the tasks the moves enqueued, and that ranks agree with the database.

Not a test: it prints figures and asserts nothing. Bounded: each phase stops itself.
"""

import argparse
import gzip
import http.client
import json
import os
import random
import re
import secrets
import statistics
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchlib import (
    ROOT,
    cpu_seconds,
    free_port,
    own_postgres_database,
    percentile,
    site_prepared,
    started,
    stopped,
)

GAMES = ("klondike", "kingsley", "spiderette", "steps", "spike")
MOVE_MAP = re.compile(r"data-moves='([^']*)'")
MOVE_FORM = re.compile(r"<form([^>]*)>(.*?)</form>", re.S)
MOVE_VALUE = re.compile(r'name="move" value="([^"]+)"')
REVISION = re.compile(r'data-revision="(\d+)"')
STATUS = re.compile(r'data-status="(\w+)"')
CSRF_HEADER = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')
MOVES_SHOWN = re.compile(r'id="moves">(\d+)<')
LONGEST_GAME = 300
"""Moves after which a player deals a new game, as a player gives up a long one."""
CPU_USERS = ("gunicorn", "postgres", "redis-server", "celery")


@dataclass
class Board:
    variant: str
    game_id: str
    revision: int = 0
    status: str = "active"
    moves: list[str] = field(default_factory=list)
    accepted: int = 0
    """Moves of this game the server accepted (answered with the new board)."""


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


@dataclass
class Phase:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    deals: list[float] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Connections:
    """One keep-alive connection per node for one load thread (gunicorn's sync
    workers close each one after an answer; http.client opens it again)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.open = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for port in ports]

    def send(
        self, player: Player, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], str]:
        node = player.sent % len(self.ports)
        player.sent += 1
        connection = self.open[node]
        headers = {
            "Cookie": f"sessionid={player.cookie}; csrftoken={player.csrf}",
            "Accept-Encoding": "gzip",
            "Host": f"127.0.0.1:{self.ports[node]}",
        }
        body = None
        if method == "POST":
            body = urlencode(form or {})
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": player.csrf,
                "Origin": f"http://127.0.0.1:{self.ports[node]}",
                "HX-Request": "true",
                "HX-Target": "board",
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
        return response.status, dict(response.getheaders()), raw.decode()


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


def move_chosen(player: Player, board: Board) -> str | None:
    """A legal move, to a foundation when there is one, as a player plays."""
    if not board.moves or board.status != "active" or board.accepted >= LONGEST_GAME:
        return None
    upward = [move for move in board.moves if "-f" in move or move.endswith("f")]
    if upward and player.chooser.random() < 0.8:
        return player.chooser.choice(upward)
    return player.chooser.choice(board.moves)


def deal_again(connections: Connections, player: Player, index: int) -> None:
    """A new game of the same kind in place of a finished or long one."""
    old = player.boards[index]
    status, headers, _ = connections.send(
        player, "POST", f"/play/{old.variant}/new/", {"confirm": "on"}
    )
    location = headers.get("HX-Location", "")
    if status != 204 or not location:
        raise RuntimeError(f"a new deal of {old.variant} was answered {status}")
    board = Board(variant=old.variant, game_id=location.rstrip("/").rsplit("/", 1)[1])
    status, _, html = connections.send(player, "GET", location)
    board_read(board, html)
    player.finished.append(old)
    player.boards[index] = board


def moved(connections: Connections, player: Player, phase: Phase) -> None:
    """One timed move of the player's next game (or an untimed new deal first)."""
    index = player.turn % len(player.boards)
    player.turn += 1
    board = player.boards[index]
    move = move_chosen(player, board)
    if move is None:
        began = time.perf_counter()
        deal_again(connections, player, index)
        phase.deals.append((time.perf_counter() - began) * 1000)
        board = player.boards[index]
        move = move_chosen(player, board)
        if move is None:
            return
    began = time.perf_counter()
    status, _, html = connections.send(
        player,
        "POST",
        f"/games/{board.game_id}/move/",
        {"move": move, "revision": str(board.revision)},
    )
    elapsed = (time.perf_counter() - began) * 1000
    if status == 200:
        board.accepted += 1
        phase.latencies.append(elapsed)
    else:
        phase.error(f"{board.variant} {status}")
    board_read(board, html)


def floored(connections: Connections, player: Player, phase: Phase) -> None:
    began = time.perf_counter()
    status, _, html = connections.send(player, "POST", "/bench/floor/", {"revision": "1"})
    elapsed = (time.perf_counter() - began) * 1000
    if status == 200 and 'id="floor"' in html:
        phase.latencies.append(elapsed)
    else:
        phase.error(f"floor {status}")


def timed(
    players: list[Player], ports: list[int], connections: int, seconds: float, action: Any
) -> tuple[Phase, dict[str, float]]:
    """`connections` threads, each sending its players' requests one after another
    for `seconds`; what they measured and the CPU the local processes used."""
    phase = Phase()
    deadline = time.perf_counter() + seconds

    def load(mine: list[Player]) -> None:
        open_connections = Connections(ports)
        turn = 0
        while time.perf_counter() < deadline:
            player = mine[turn % len(mine)]
            turn += 1
            try:
                action(open_connections, player, phase)
            except (OSError, http.client.HTTPException, ValueError, RuntimeError) as failure:
                phase.error(type(failure).__name__)

    before = cpu_seconds(CPU_USERS)
    threads = [
        threading.Thread(target=load, args=(players[number::connections],))
        for number in range(connections)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = cpu_seconds(CPU_USERS)
    return phase, {name: after[name] - before[name] for name in after}


def players_made(count: int) -> list[Player]:
    """Players signed in (a session each) with one game of every kind dealt."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from accounts.services import profile_update
    from games import services

    users = get_user_model()
    players = []
    for number in range(count):
        user = users.objects.create_user(username=f"bench-http-{number}")
        profile_update(user=user, public=True, highlight_moves=True, reduced_motion=False)
        client = Client()
        client.force_login(user)
        player = Player(
            number=number,
            username=user.username,
            cookie=client.cookies[settings.SESSION_COOKIE_NAME].value,
            chooser=random.Random(number),
        )
        for variant in GAMES:
            game = services.game_start(player=user, variant=variant)
            player.boards.append(Board(variant=variant, game_id=str(game.id)))
        players.append(player)
    return players


def boards_opened(players: list[Player], ports: list[int]) -> None:
    """Each player's boards as its browser opens them: the page brings the CSRF token."""
    connections = Connections(ports)
    for player in players:
        for board in player.boards:
            status, headers, html = connections.send(player, "GET", f"/games/{board.game_id}/")
            if status != 200:
                raise RuntimeError(f"{board.variant}'s board answered {status}")
            token = CSRF_HEADER.search(html)
            cookie = re.search(r"csrftoken=([^;]+)", headers.get("Set-Cookie", ""))
            if token is None:
                raise RuntimeError("the board page carries no CSRF token")
            if cookie:
                player.csrf = cookie.group(1)
            board_read(board, html)


def report(name: str, phase: Phase, cpu: dict[str, float], seconds: float) -> float:
    served = len(phase.latencies) / seconds
    figures = (
        f"p50 {statistics.median(phase.latencies):.1f} ms, "
        f"p99 {percentile(phase.latencies, 0.99):.1f} ms"
        if phase.latencies
        else "nothing served"
    )
    errors = sum(phase.errors.values())
    print(f"  {name:6s} {served:6.1f}/s, {figures}, errors {errors} {phase.errors or ''}")
    if phase.latencies:
        shares = ", ".join(
            f"{process} {1000 * used / len(phase.latencies):.2f}"
            for process, used in cpu.items()
            if used
        )
        print(f"         CPU ms per request: {shares}")
    if phase.deals:
        print(
            f"         {len(phase.deals)} new deals (untimed), "
            f"median {statistics.median(phase.deals):.0f} ms"
        )
    return served


def environment(folder: str, database_url: str, nodes: int) -> dict[str, str]:
    run = secrets.token_hex(4)
    return {
        "DJANGO_SETTINGS_MODULE": "bench_http_settings",
        "PYTHONPATH": f"{ROOT / 'scripts'}:{ROOT}",
        # As served: DEBUG would keep every query's text and time in memory.
        "DEBUG": "0",
        "STATIC_ROOT": f"{folder}/static",
        "DATABASE_URL": database_url,
        "CACHE_KEY_PREFIX": f"arena-bench-{run}",
        "LEADERBOARD_KEY_PREFIX": f"arena-bench-{run}:lb",
        "CHANNEL_LAYER_PREFIX": f"arena-bench-{run}:ws",
    }


def gunicorn(port: int) -> list[str]:
    return [
        str(ROOT / ".venv/bin/gunicorn"),
        "-c",
        str(ROOT / "config/gunicorn.conf.py"),
        "--workers",
        "2",
        "--bind",
        f"127.0.0.1:{port}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, nargs="+", default=[2, 10])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--nodes", type=int, choices=[1, 2], default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, ExitStack() as stack:
        # BENCH_KEEP=<folder> keeps the run's files (the servers' logs) there.
        folder = os.environ.get("BENCH_KEEP") or scratch
        Path(folder).mkdir(parents=True, exist_ok=True)
        url = os.environ.get("DATABASE_URL")
        database_url = (
            stack.enter_context(own_postgres_database(url, prefix="arena_bench_http"))
            if url
            else f"sqlite:///{folder}/bench.sqlite3"
        )
        env = environment(folder, database_url, args.nodes)
        site_prepared(env)
        os.environ.update(env)
        import django

        django.setup()
        bench(args, folder, env)


def bench(args: argparse.Namespace, folder: str, env: dict[str, str]) -> None:
    players = players_made(max(args.players, max(args.connections)))
    ports = [free_port() for _ in range(args.nodes)]
    servers = [
        started(gunicorn(port), env=env, port=port, log=Path(folder) / f"gunicorn-{port}.log")
        for port in ports
    ]
    try:
        boards_opened(players, ports)
        stack = "PostgreSQL + Redis" if os.environ.get("REDIS_URL") else "SQLite, embedded"
        print(
            f"{len(players)} players, {args.nodes} node(s) of gunicorn with 2 sync workers, "
            f"{stack}, {args.seconds:.0f} s a phase:"
        )
        for connections in args.connections:
            print(f" {connections} connections:")
            timed(players, ports, connections, 2.0, floored)
            floor = report(
                "floor", *timed(players, ports, connections, args.seconds, floored), args.seconds
            )
            timed(players, ports, connections, 2.0, moved)
            move = report(
                "move", *timed(players, ports, connections, args.seconds, moved), args.seconds
            )
            if floor:
                print(f"         the move at {move / floor:.2f} of the floor")
    finally:
        stopped(servers)


if __name__ == "__main__":
    main()
