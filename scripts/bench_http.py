"""Time the board's move request against the floor, side by side in one run, and verify.

    .venv/bin/python scripts/bench_http.py [--connections 2 10] [--seconds 15]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
    REDIS_URL=redis://127.0.0.1:6379/11 .venv/bin/python scripts/bench_http.py --nodes 2 \\
        [--server daphne] [--seconds 5]

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
them. A finished, lost or long game is followed by a new deal, between the phases: a
move phase times moves only, and --players (30) holds games enough for a phase. Only
a player none of whose games has a move left deals during a phase (not timed, and the
time spent dealing is left out of the moves' requests a second). Each player
also plays today's daily deals of Klondike and Kingsley (its ranked attempts, opened
through /daily/<game>/play/) and finishes them once the phases are over. For each
number of connections (closed loop: a connection sends its next request when the last
is answered), the floor then the moves are timed for --seconds each, and the run prints
requests a second, p50 and p99, the move's share of the floor, and the CPU a request
cost each kind of local process.

With --server daphne each node is one daphne process serving config.asgi instead.

With --nodes 2 (DATABASE_URL and REDIS_URL needed), two nodes on two ports share the
database and Redis, with a Celery worker and beat, and each player's requests go to the
nodes in turn. The players also play today's daily deals of Klondike and Kingsley (their
ranked attempts), and finish them once the phases are over. REDIS_URL must name a Redis
database the run may use (e.g. /11): every key the run writes there (cache, sessions,
ranks, channel layer, the broker's queues) is under a prefix of the run's own and is
deleted at the end.

After the phases the run verifies (scripts/bench_http_checks.py) and prints each check, PASSED or
FAILED with its figures: no move was lost, refused or applied twice (every game's move
count is the moves its player had accepted, and every game replays to its stored
position), every player's session served on every node, the move lock held across
nodes (one move sent to both nodes at once is played once), the worker ran the tasks
the closed games enqueued, the live ranks agree with the database, and with daphne a
match's push crossed nodes (scripts/bench_http_sockets.py). The exit code is 1 if a
check failed; the figures themselves assert nothing. Bounded: each phase stops itself.
"""

import argparse
import http.client
import json
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_http_checks import verified
from bench_http_client import Board, Connections, Nodes, Player, board_read, refusal_code
from benchlib import (
    ROOT,
    cpu_seconds,
    cpu_spent,
    free_port,
    launched,
    own_postgres_database,
    percentile,
    redis_keys_deleted,
    site_prepared,
    started,
    stopped,
)

GAMES = ("klondike", "kingsley", "spiderette", "steps", "spike")
DAILY_GAMES = ("klondike", "kingsley")
CSRF_HEADER = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')
LONGEST_GAME = 300
"""Moves after which a player deals a new game, as a player gives up a long one."""
CPU_USERS = ("gunicorn", "daphne", "postgres", "redis-server", "celery")


@dataclass
class Phase:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    deals: list[float] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


Action = Callable[[Connections, Player, Phase], None]


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
    # From the board: where htmx is to fetch the new game's board (games.navigation).
    location = json.loads(headers.get("HX-Location") or "{}").get("path", "")
    if status != 200 or not location:
        raise RuntimeError(f"a new deal of {old.variant} was answered {status}")
    board = Board(variant=old.variant, game_id=location.rstrip("/").rsplit("/", 1)[1])
    # As htmx follows HX-Location: the board alone, swapped in place of the old one.
    status, _, html = connections.send(player, "GET", location, htmx=True)
    board_read(board, html)
    player.finished.append(old)
    player.boards[index] = board


def moved(connections: Connections, player: Player, phase: Phase) -> None:
    """One timed move of the player's next game that has one. New deals are made
    between the phases (boards_dealt_again): only a player none of whose games has a
    move left deals one here (untimed, its time left out of the moves' rate)."""
    count = len(player.boards)
    for offset in range(count):
        index = (player.turn + offset) % count
        board = player.boards[index]
        move = move_chosen(player, board)
        if move is not None:
            break
    else:
        index = next((i for i, board in enumerate(player.boards) if not board.daily), None)
        if index is None:
            return
        began = time.perf_counter()
        deal_again(connections, player, index)
        phase.deals.append((time.perf_counter() - began) * 1000)
        board = player.boards[index]
        move = move_chosen(player, board)
        if move is None:
            return
    player.turn = index + 1
    began = time.perf_counter()
    status = connections.move(player, board, move)
    elapsed = (time.perf_counter() - began) * 1000
    if status == 200:
        phase.latencies.append(elapsed)
    else:
        phase.error(f"{board.variant} {status}")


def boards_dealt_again(players: list[Player], nodes: Nodes) -> None:
    """Before a move phase: a new deal in place of every game that has no move left (a
    daily game that is over waits to be finished)."""
    connections = Connections(nodes)
    for player in players:
        for index, board in enumerate(player.boards):
            if not board.daily and move_chosen(player, board) is None:
                deal_again(connections, player, index)


def floored(connections: Connections, player: Player, phase: Phase) -> None:
    began = time.perf_counter()
    status, _, html = connections.send(player, "POST", "/bench/floor/", {"revision": "1"})
    elapsed = (time.perf_counter() - began) * 1000
    if status == 200 and 'id="floor"' in html:
        phase.latencies.append(elapsed)
    else:
        phase.error(f"floor {status}")


def timed(
    players: list[Player], nodes: Nodes, connections: int, seconds: float, action: Action
) -> tuple[Phase, dict[str, float]]:
    """`connections` threads, each sending its players' requests one after another
    for `seconds`; what they measured and the CPU the local processes used."""
    phase = Phase()
    deadline = time.perf_counter() + seconds

    def load(mine: list[Player]) -> None:
        open_connections = Connections(nodes)
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
    return phase, cpu_spent(before, after)


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


def boards_opened(players: list[Player], nodes: Nodes) -> None:
    """Each player's boards as its browser opens them (the first page brings the CSRF
    token), then today's daily deals as the daily page's Play button deals them."""
    connections = Connections(nodes)
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
        for variant in DAILY_GAMES:
            player.boards.append(daily_board_opened(connections, player, variant))


def daily_board_opened(connections: Connections, player: Player, variant: str) -> Board:
    status, headers, _ = connections.send(player, "POST", f"/daily/{variant}/play/")
    location = headers.get("Location", "")
    if status != 302 or not location.startswith("/games/"):
        raise RuntimeError(f"today's {variant} deal was answered {status} {location}")
    board = Board(variant=variant, game_id=location.rstrip("/").rsplit("/", 1)[1], daily=True)
    status, _, html = connections.send(player, "GET", location)
    if status != 200:
        raise RuntimeError(f"today's {variant} board answered {status}")
    board_read(board, html)
    return board


def daily_ranks_built() -> None:
    """Today's deals' live ranks built (empty) in Redis, as the beat's sync does within
    a minute of a new deal: until then a finished game's rank is not published to
    Redis at all, and the ranks check would compare nothing."""
    from leaderboards import redis_ranks, services
    from leaderboards.models import DailyDeal
    from leaderboards.periods import today_utc

    if not redis_ranks.enabled():
        return
    for deal in DailyDeal.objects.filter(date=today_utc(), variant__in=DAILY_GAMES):
        services.leaderboard_rebuild(deal_id=deal.id)


def worker_idle(env: dict[str, str], seconds: float = 60.0) -> None:
    """Wait (bounded) until the broker holds no task, queued or running: the deals the
    first daily play made are certified on the worker, a CPU the phases must not share."""
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    queue, running = f"{env['BENCH_BROKER_PREFIX']}celery", f"{env['BENCH_BROKER_PREFIX']}unacked"
    deadline = time.monotonic() + seconds
    while (client.llen(queue) or client.hlen(running)) and time.monotonic() < deadline:
        time.sleep(0.2)
    client.close()


def daily_games_finished(players: list[Player], nodes: Nodes) -> None:
    """Every daily game still active finished, as its Finish button confirmed does."""
    connections = Connections(nodes)
    for player in players:
        for board in player.boards:
            if not board.daily or board.status != "active":
                continue
            form = {"confirm": "on", "revision": str(board.revision)}
            status, headers, html = connections.send(
                player, "POST", f"/games/{board.game_id}/finish/", form
            )
            if status != 200 or refusal_code(headers) is not None:
                board.refused += 1
            board_read(board, html)


def report(
    name: str, phase: Phase, cpu: dict[str, float], seconds: float, connections: int
) -> float:
    """Print the phase's figures; the requests served a second. A new deal is no move:
    the time the connections spent dealing is not the moves' (their CPU still is,
    in the CPU per request)."""
    dealing = sum(phase.deals) / 1000 / connections
    served = len(phase.latencies) / (seconds - dealing)
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
            f"median {statistics.median(phase.deals):.0f} ms, "
            f"{100 * dealing / seconds:.1f}% of the connections' time"
        )
    return served


def environment(folder: str, database_url: str) -> dict[str, str]:
    prefix = f"arena-bench-{secrets.token_hex(4)}"
    return {
        "DJANGO_SETTINGS_MODULE": "bench_http_settings",
        "PYTHONPATH": f"{ROOT / 'scripts'}:{ROOT}",
        # As served: DEBUG would keep every query's text and time in memory.
        "DEBUG": "0",
        "STATIC_ROOT": f"{folder}/static",
        "DATABASE_URL": database_url,
        # Every key of the run in Redis starts with the prefix: deleted at the end.
        "BENCH_KEY_PREFIX": prefix,
        "CACHE_KEY_PREFIX": prefix,
        "LEADERBOARD_KEY_PREFIX": f"{prefix}:lb",
        "CHANNEL_LAYER_PREFIX": f"{prefix}:ws",
        "BENCH_BROKER_PREFIX": f"{prefix}:celery:",
        # The players move faster than any person: the review would flag every daily
        # result for speed and take it off the leaderboards, leaving no rank to check.
        "REVIEW_MIN_SECONDS_PER_MOVE": "0",
        # Today's new deals are certified on the worker on their own seed with the
        # game's whole time (minutes for a hard seed): half a second will do here, the
        # certificate changes nothing a player sees while the deal is live.
        "DAILY_CERTIFY_TIME_MS": "500",
    }


def server_command(server: str, port: int) -> list[str]:
    if server == "daphne":
        return [
            str(ROOT / ".venv/bin/daphne"),
            *("-b", "127.0.0.1", "-p", str(port), "-v", "0"),
            "config.asgi:application",
        ]
    return [
        str(ROOT / ".venv/bin/gunicorn"),
        *("-c", str(ROOT / "config/gunicorn.conf.py")),
        *("--workers", "2", "--bind", f"127.0.0.1:{port}"),
    ]


def server_env(server: str, env: dict[str, str]) -> dict[str, str]:
    """A daphne node serves each request on a thread of its own, and a connection kept
    per thread would leave one behind per request (PostgreSQL refused new ones after a
    hundred): it keeps a pool (docs/operations.md), as a daphne node in production."""
    if server == "daphne" and env["DATABASE_URL"].startswith("postgres"):
        return {**env, "DATABASE_POOL_SIZE": os.environ.get("DATABASE_POOL_SIZE", "8")}
    return env


def celery_commands(folder: str) -> dict[str, list[str]]:
    """The worker (one process: this machine's cores serve the nodes) and the beat."""
    celery = [str(ROOT / ".venv/bin/celery"), "-A", "config"]
    return {
        "worker": [
            *celery,
            *("worker", "-l", "warning", "--concurrency", "1"),
            *("--without-heartbeat", "--without-gossip", "--without-mingle"),
        ],
        "beat": [*celery, "beat", "-l", "warning", "--schedule", f"{folder}/beat-schedule"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, nargs="+", default=[2, 10])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--nodes", type=int, choices=[1, 2], default=1)
    parser.add_argument("--server", choices=["gunicorn", "daphne"], default="gunicorn")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL")
    if args.nodes == 2 and not (url and os.environ.get("REDIS_URL")):
        parser.error(
            "--nodes 2 needs DATABASE_URL and REDIS_URL: the nodes share one PostgreSQL "
            "and one Redis (a SQLite file and process memory are one node's)"
        )
    with tempfile.TemporaryDirectory() as scratch, ExitStack() as stack:
        # BENCH_KEEP=<folder> keeps the run's files (the servers' logs) there.
        folder = os.environ.get("BENCH_KEEP") or scratch
        Path(folder).mkdir(parents=True, exist_ok=True)
        database_url = (
            stack.enter_context(own_postgres_database(url, prefix="arena_bench_http"))
            if url
            else f"sqlite:///{folder}/bench.sqlite3"
        )
        env = environment(folder, database_url)
        if os.environ.get("REDIS_URL"):
            stack.callback(redis_keys_deleted, os.environ["REDIS_URL"], env["BENCH_KEY_PREFIX"])
        site_prepared(env)
        os.environ.update(env)
        import django

        django.setup()
        passed = bench(args, folder, env)
    sys.exit(0 if passed else 1)


def processes_started(
    args: argparse.Namespace, folder: str, env: dict[str, str], ports: list[int]
) -> list[subprocess.Popen[bytes]]:
    """The nodes' servers listening, and with a broker (Redis) the worker and the beat."""
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            command, log = (
                server_command(args.server, port),
                Path(folder) / f"{args.server}-{port}.log",
            )
            processes.append(started(command, env=server_env(args.server, env), port=port, log=log))
        if os.environ.get("REDIS_URL"):
            for name, command in celery_commands(folder).items():
                processes.append(launched(command, env=env, log=Path(folder) / f"{name}.log"))
    except BaseException:
        stopped(processes)
        raise
    return processes


def nodes_answering(nodes: Nodes, seconds: float = 120.0) -> None:
    """Every node answers its liveness probe: its port is open from the start, but its
    workers, the worker and the beat load the site all at once on few cores, and the
    first request could wait longer than a client's timeout."""
    deadline = time.monotonic() + seconds
    for port in nodes.ports:
        while True:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds)
            try:
                probe.request("GET", "/livez")
                if probe.getresponse().status == 200:
                    break
            except (OSError, http.client.HTTPException):
                if time.monotonic() > deadline:
                    raise
            finally:
                probe.close()
            if time.monotonic() > deadline:
                raise RuntimeError(f"the node on port {port} does not answer its probe")
            time.sleep(0.2)


def bench(args: argparse.Namespace, folder: str, env: dict[str, str]) -> bool:
    """The phases, then the verification; whether every check passed."""
    players = players_made(max(args.players, max(args.connections)))
    nodes = Nodes(ports=[free_port() for _ in range(args.nodes)])
    processes = processes_started(args, folder, env, nodes.ports)
    try:
        nodes_answering(nodes)
        boards_opened(players, nodes)
        daily_ranks_built()
        if os.environ.get("REDIS_URL"):
            worker_idle(env)
        stack = "PostgreSQL + Redis" if os.environ.get("REDIS_URL") else "SQLite, embedded"
        workers = "2 sync workers" if args.server == "gunicorn" else "one process"
        print(
            f"{len(players)} players, {args.nodes} node(s) of {args.server} with {workers}, "
            f"{stack}, {args.seconds:.0f} s a phase:"
        )
        for connections in args.connections:
            print(f" {connections} connections:")
            timed(players, nodes, connections, 2.0, floored)
            floor = report(
                "floor",
                *timed(players, nodes, connections, args.seconds, floored),
                args.seconds,
                connections,
            )
            boards_dealt_again(players, nodes)
            timed(players, nodes, connections, 2.0, moved)
            move = report(
                "move",
                *timed(players, nodes, connections, args.seconds, moved),
                args.seconds,
                connections,
            )
            if floor:
                print(f"         the move at {move / floor:.2f} of the floor")
        daily_games_finished(players, nodes)
        return verified(players, nodes, sockets=args.server == "daphne")
    finally:
        stopped(processes)


if __name__ == "__main__":
    main()
