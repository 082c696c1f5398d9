"""Time a match's live push: from a seat's move to the opponent's socket hearing it.

    .venv/bin/python scripts/bench_matches.py [--matches 50 200] [--seconds 30]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
    REDIS_URL=redis://127.0.0.1:6379/11 .venv/bin/python scripts/bench_matches.py

Starts one daphne process per core (the project's install) on 127.0.0.1 serving
config.asgi (config.settings.local, DEBUG off, static files collected) against a
throwaway database: a SQLite file in a temporary folder and the in-memory channel
layer (one process) by default; with DATABASE_URL and REDIS_URL, a database of the
run's own with a random name on that PostgreSQL server (made and dropped by the run;
the database the URL names is never touched) and the channel layer on that Redis
database (a key prefix of the run's own).

For each number N of matches: N Klondike head-to-head matches (a test points table
published), two simulated players each, every player signed in by a session cookie,
its match's socket open, and making a move (the stock: draw or recycle) every second
through the board's endpoint (POST /games/<id>/move/, htmx header, CSRF token) for
--seconds. Per move: the time from sending it to the opponent's socket receiving the
push that shows it (the seat's move count). Prints p50 and p99 latency, moves per
second served, and errors (refused or failed requests, sockets lost, moves the
opponent never heard). Not a test: it prints figures and asserts nothing.

The clients run in this process on Twisted (autobahn for the sockets, Twisted's
Agent for HTTP): both come with daphne, so nothing more is installed.
"""

import argparse
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchlib import (  # noqa: E402  (the path above first)
    cpu_seconds,
    cpu_spent,
    free_port,
    own_postgres_database,
    percentile,
    points_table_published,
    site_prepared,
    started,
    stopped,
)

MOVES = re.compile(r'id="match-seat-([0-9a-f-]{36})">.*?<dd class="seat-moves">(\d+)</dd>', re.S)
STOCK = re.compile(r'name="move" value="(draw|recycle)"')
REVISION = re.compile(r'name="revision" value="(\d+)"')
CPU_USERS = ("daphne", "postgres", "redis-server")
"""The processes whose CPU the run reports, with this one's (the simulated players)."""
HANDSHAKE_TIMEOUT = 60.0
"""Seconds a player's socket waits for the server to accept it."""
CONNECT_SPREAD = 5.0
"""Seconds over which the players open their sockets."""
WARM_UP = 3.0
"""Seconds over which every seat opens its board before the timed moves."""
BOARD_MOVES = re.compile(r'id="moves"[^>]*>(\d+)<')


def environment(folder: str, database_url: str) -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        # As served: DEBUG would keep every query's text and time in memory.
        "DEBUG": "0",
        "STATIC_ROOT": f"{folder}/static",
        "DATABASE_URL": database_url,
        "CHANNEL_LAYER_PREFIX": f"arena-bench-{secrets.token_hex(4)}:ws",
        # Each server process keeps a pool of connections for its request threads.
        "DATABASE_POOL_SIZE": os.environ.get("DATABASE_POOL_SIZE", "20"),
    }


@dataclass
class Seat:
    server: int
    """Which server the seat's requests and socket go to (modulo their number)."""
    number: int
    game_id: str
    cookie: str
    csrf: str
    revision: int = 0
    next_move: str = "draw"
    waiting: bool = False
    """A move sent and not answered yet: a player waits for the board before the next."""
    sent: list[tuple[float, int | None]] = field(default_factory=list)
    """(when sent, the seat's move count once played) per move."""
    heard: dict[tuple[str, int], float] = field(default_factory=dict)
    """(a seat's game id, its move count) -> when this seat's socket first showed it."""


@dataclass
class Pair:
    match_id: str
    seats: list[Seat]


def prepare(count: int, env: dict[str, str], start: int) -> list[Pair]:
    """N Klondike matches of two signed-in players each (made through the services)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from matches import services

    users = get_user_model()
    points_table_published()
    pairs = []
    for index in range(start, start + count):
        players = [users.objects.create_user(username=f"bench-{index}-{n}") for n in (0, 1)]
        match = services.match_create(player=players[0], mode="klondike")
        services.match_join(player=players[1], match_id=match.id)
        seats = []
        for seat in match.seats.order_by("number"):
            client = Client()
            client.force_login(seat.player)
            seats.append(
                Seat(
                    server=2 * (index - start) + seat.number,
                    number=seat.number,
                    game_id=str(seat.game_id),
                    cookie=client.cookies[settings.SESSION_COOKIE_NAME].value,
                    csrf=secrets.token_hex(16),
                )
            )
        pairs.append(Pair(match_id=str(match.id), seats=seats))
    return pairs


def start_server(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [str(ROOT / ".venv/bin/daphne"), "-b", "127.0.0.1", "-p", str(port)]
    return started([*command, "-v", "0", "config.asgi:application"], env=env, port=port, log=log)


@dataclass
class Run:
    errors: dict[str, int] = field(default_factory=dict)
    served: int = 0
    late: int = 0
    """Seconds at which a player could not move: its last move was still unanswered."""
    cpu: dict[str, float] = field(default_factory=dict)
    """CPU seconds each kind of process used while the moves were timed."""

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def answer_of(text: str) -> tuple[str, int, int] | None:
    """The API's answer (or refusal, which carries the game): the next stock move, the
    revision and the move count."""
    try:
        return next_of(json.loads(text)["game"])
    except (ValueError, KeyError):
        return None


def next_of(game: dict[str, Any]) -> tuple[str, int, int]:
    stock = "draw" if "draw" in game["legal_moves"] else "recycle"
    return stock, int(game["revision"]), int(game["move_count"])


def board_of(html: str) -> tuple[str, int, int] | None:
    """The board partial's next stock move, revision and move count."""
    stock, revision, moves = STOCK.search(html), REVISION.search(html), BOARD_MOVES.search(html)
    if stock and revision and moves:
        return stock.group(1), int(revision.group(1)), int(moves.group(1))
    return None


def race(pairs: list[Pair], ports: list[int], seconds: float, via: str) -> Run:
    """Open every socket, then every seat moves once a second for `seconds`. The seats
    are spread over the servers as a load balancer would: the two seats of a match on
    different servers where there are two, so a push crosses processes (Redis)."""
    from autobahn.twisted.websocket import WebSocketClientFactory, WebSocketClientProtocol
    from twisted.internet import reactor, task
    from twisted.web.client import Agent, FileBodyProducer, HTTPConnectionPool, readBody
    from twisted.web.http_headers import Headers

    run = Run()
    stopping = False
    pool = HTTPConnectionPool(reactor, persistent=True)
    pool.maxPersistentPerHost = 2 * len(pairs)
    agent = Agent(reactor, pool=pool)
    opened: list[Seat] = []

    class Listener(WebSocketClientProtocol):  # type: ignore[misc]
        seat: Seat

        def onOpen(self) -> None:
            opened.append(self.seat)
            sockets[id(self.seat)] = self

        def onMessage(self, payload: bytes, isBinary: bool) -> None:
            now = time.perf_counter()
            if via != "socket":
                for game_id, moves in MOVES.findall(payload.decode()):
                    self.seat.heard.setdefault((game_id, int(moves)), now)
                return
            message = json.loads(payload)
            if message["type"] == "seat":
                seat = message["seat"]
                self.seat.heard.setdefault((seat["game_id"], seat["move_count"]), now)
            elif message["type"] in ("answer", "refusal"):
                socket_answered(self.seat, message["type"] == "answer", message)

        def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:
            sockets.pop(id(self.seat), None)
            if not stopping:
                run.error(f"socket closed ({code})")

    sockets: dict[int, Listener] = {}
    """id(seat) -> its open socket (--via socket)."""

    def port_of(seat: Seat) -> int:
        return ports[seat.server % len(ports)]

    def listen(pair: Pair, seat: Seat) -> None:
        port = port_of(seat)
        if via == "socket":
            # An app's socket: its session token, no cookie and no origin.
            url = f"ws://127.0.0.1:{port}/api/v1/matches/{pair.match_id}/socket"
            factory = WebSocketClientFactory(url, headers={"X-Session-Token": seat.cookie})
        else:
            origin = f"http://127.0.0.1:{port}"
            url = f"ws://127.0.0.1:{port}/ws/matches/{pair.match_id}/"
            factory = WebSocketClientFactory(
                url, origin=origin, headers={"Cookie": f"sessionid={seat.cookie}"}
            )

        def build(addr: object) -> Listener:
            protocol = Listener()
            protocol.factory = factory
            protocol.seat = seat
            return protocol

        # An app waits for a busy server's handshake longer than autobahn's 5 s.
        factory.setProtocolOptions(openHandshakeTimeout=HANDSHAKE_TIMEOUT)
        factory.buildProtocol = build
        reactor.connectTCP("127.0.0.1", port, factory)

    def socket_answered(seat: Seat, ok: bool, message: dict[str, Any]) -> None:
        """The answer to the seat's last move over its socket (a refusal carries the game
        too, unless the message itself was refused)."""
        seat.waiting = False
        if ok:
            run.served += 1
        else:
            run.error(f"refused {','.join(error['code'] for error in message['errors'])}")
        if "game" in message:
            after = next_of(message["game"])
            seat.next_move, seat.revision, moves = after
            if ok:
                seat.sent[-1] = (seat.sent[-1][0], moves)

    def move(seat: Seat) -> None:
        if seat.waiting:
            run.late += 1
            return
        seat.waiting = True
        origin = f"http://127.0.0.1:{port_of(seat)}"
        if via == "socket":
            listener = sockets.get(id(seat))
            if listener is None:
                seat.waiting = False
                run.error("no socket to move on")
                return
            seat.sent.append((time.perf_counter(), None))
            message = {"action": "move", "move": seat.next_move, "revision": seat.revision}
            listener.sendMessage(json.dumps(message).encode())
            return
        if via == "api":
            # An app: JSON through the API, its session token in X-Session-Token.
            url = f"{origin}/api/v1/games/{seat.game_id}/moves"
            body = json.dumps({"move": seat.next_move, "revision": seat.revision}).encode()
            headers = Headers(
                {"X-Session-Token": [seat.cookie], "Content-Type": ["application/json"]}
            )
        else:
            # The web board: its form, posted by htmx with the CSRF token.
            url = f"{origin}/games/{seat.game_id}/move/"
            body = urlencode({"move": seat.next_move, "revision": seat.revision}).encode()
            headers = Headers(
                {
                    "Cookie": [f"sessionid={seat.cookie}; csrftoken={seat.csrf}"],
                    "X-CSRFToken": [seat.csrf],
                    "HX-Request": ["true"],
                    "Origin": [origin],
                    "Content-Type": ["application/x-www-form-urlencoded"],
                }
            )
        index = len(seat.sent)
        seat.sent.append((time.perf_counter(), None))
        answer = agent.request(b"POST", url.encode(), headers, FileBodyProducer(BytesIO(body)))

        def answered(response: object) -> object:
            code = response.code  # type: ignore[attr-defined]
            return readBody(response).addCallback(lambda text: read(code, text.decode()))

        def read(code: int, text: str) -> None:
            seat.waiting = False
            if code != 200:
                run.error(f"HTTP {code}")
            else:
                run.served += 1
            after = answer_of(text) if via == "api" else board_of(text)
            if after is not None:
                seat.next_move, seat.revision, moves = after
                if code == 200:
                    seat.sent[index] = (seat.sent[index][0], moves)

        def failed(failure: Any) -> None:
            seat.waiting = False
            run.error(type(failure.value).__name__)

        answer.addCallback(answered).addErrback(failed)

    seats = [seat for pair in pairs for seat in pair.seats]
    # Players open their sockets over a few seconds, as they arrive, not all in one
    # instant (400 handshakes at once, each signing in, timed out on two cores).
    placed = [(pair, seat) for pair in pairs for seat in pair.seats]
    for offset, (pair, seat) in enumerate(placed):
        reactor.callLater(CONNECT_SPREAD * offset / len(placed), listen, pair, seat)
    loops: list[task.LoopingCall] = []
    started_cpu: dict[tuple[str, int], float] = {}

    def begin() -> None:
        started_cpu.update(cpu_seconds(CPU_USERS))
        for offset, seat in enumerate(seats):
            loop = task.LoopingCall(move, seat)
            loops.append(loop)
            # Spread the seats over the second, as players are.
            reactor.callLater(offset / len(seats), loop.start, 1.0)

    def end() -> None:
        run.cpu = cpu_spent(started_cpu, cpu_seconds(CPU_USERS))
        for loop in loops:
            if loop.running:
                loop.stop()
        reactor.callLater(2.0, finish)

    def finish() -> None:
        nonlocal stopping
        stopping = True
        pool.closeCachedConnections()
        reactor.stop()

    def look(seat: Seat) -> None:
        """A seat opens its board, as a player does before the first move."""
        page = f"http://127.0.0.1:{port_of(seat)}/games/{seat.game_id}/"
        headers = Headers({"Cookie": [f"sessionid={seat.cookie}"]})
        agent.request(b"GET", page.encode(), headers).addCallback(readBody).addErrback(
            lambda failure: run.error(f"warm-up {type(failure.value).__name__}")
        )

    def warm_up() -> None:
        """Every board opened once, spread over WARM_UP seconds, before any move is
        timed: the servers' first requests (connections, templates) are not a move's."""
        for offset, seat in enumerate(seats):
            reactor.callLater(WARM_UP * offset / len(seats), look, seat)

    def when_open(deadline: float) -> None:
        if len(opened) == len(seats) or time.monotonic() > deadline:
            warm_up()
            reactor.callLater(WARM_UP + 1, begin)
            reactor.callLater(WARM_UP + 1 + seconds, end)
        else:
            reactor.callLater(0.1, when_open, deadline)

    reactor.callLater(0.1, when_open, time.monotonic() + 30)
    reactor.run(installSignalHandlers=False)
    missing = len(seats) - len(opened)
    if missing:
        run.errors["sockets not opened"] = missing
    return run


def latencies(pairs: list[Pair], run: Run) -> list[float]:
    found = []
    for pair in pairs:
        for seat in pair.seats:
            opponent = pair.seats[1 - seat.number]
            for sent, moves in seat.sent:
                if moves is None:
                    continue
                heard = opponent.heard.get((seat.game_id, moves))
                if heard is None:
                    run.error("move never heard by the opponent")
                else:
                    found.append((sent, (heard - sent) * 1000))
    if os.environ.get("BENCH_TIMELINE"):
        first = min(sent for sent, _ in found)
        for second in range(int(max(sent for sent, _ in found) - first) + 1):
            window = [ms for sent, ms in found if int(sent - first) == second]
            if window:
                print(f"  t={second:3d}s  n={len(window):4d}  max {max(window):7.1f} ms")
    return [ms for _, ms in found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--via",
        choices=["socket", "api", "web"],
        default="socket",
        help=(
            "how the players move: an app over the API's match socket (the default), "
            "an app through the API's HTTP endpoints, or the web board's htmx form"
        ),
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=os.cpu_count() or 1,
        help="daphne processes behind the clients (one per core by default; one without Redis)",
    )
    args = parser.parse_args()
    if len(args.matches) > 1:
        # Twisted's reactor runs once per process: one process per N.
        for count in args.matches:
            subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--matches",
                    str(count),
                    "--seconds",
                    str(args.seconds),
                    "--servers",
                    str(args.servers),
                    "--via",
                    args.via,
                ],
                check=False,
            )
        return
    count = args.matches[0]
    with tempfile.TemporaryDirectory() as scratch:
        # BENCH_KEEP=<folder> keeps the run's files (the servers' logs) there.
        folder = os.environ.get("BENCH_KEEP") or scratch
        Path(folder).mkdir(parents=True, exist_ok=True)
        with ExitStack() as stack:
            url = os.environ.get("DATABASE_URL")
            database_url = (
                stack.enter_context(own_postgres_database(url, prefix="arena_bench_matches"))
                if url
                else f"sqlite:///{folder}/bench.sqlite3"
            )
            bench(count, args, folder, environment(folder, database_url))


def bench(count: int, args: argparse.Namespace, folder: str, env: dict[str, str]) -> None:
    site_prepared(env)
    os.environ.update(env)
    import django

    django.setup()
    pairs = prepare(count, env, start=0)
    # The in-memory channel layer reaches one process's sockets only.
    servers = args.servers if os.environ.get("REDIS_URL") else 1
    ports = [free_port() for _ in range(servers)]
    processes = [start_server(env, port, Path(folder) / f"daphne-{port}.log") for port in ports]
    try:
        began = time.perf_counter()
        run = race(pairs, ports, args.seconds, args.via)
        elapsed = time.perf_counter() - began
    finally:
        stopped(processes)
    found = latencies(pairs, run)
    stack = "PostgreSQL + Redis" if os.environ.get("REDIS_URL") else "SQLite + in-memory layer"
    print(
        f"N={count} matches ({2 * count} players), {args.seconds:.0f} s, {stack}, "
        f"{servers} daphne process{'es' if servers > 1 else ''}, moves through the {args.via}:"
    )
    if found:
        print(
            f"  move -> opponent's socket: p50 {statistics.median(found):.1f} ms, "
            f"p99 {percentile(found, 0.99):.1f} ms, max {max(found):.1f} ms "
            f"({len(found)} moves)"
        )
    asked = 2 * count
    print(
        f"  moves served: {run.served / args.seconds:.1f}/s of {asked}/s asked "
        f"({run.late} times a player's last move was still unanswered a second later; "
        f"wall {elapsed:.1f} s)"
    )
    print(f"  errors: {sum(run.errors.values())} {run.errors or ''}")
    if run.served:
        shares = ", ".join(
            f"{name} {1000 * seconds / run.served:.2f} ms" for name, seconds in run.cpu.items()
        )
        print(f"  CPU per move served: {shares}")


if __name__ == "__main__":
    main()
