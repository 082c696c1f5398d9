"""What the benchmarks that start the site share: a database of their own, free ports,
servers started and stopped, the CPU the local processes used, percentiles."""

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def own_postgres_database(url: str, *, prefix: str) -> Iterator[str]:
    """A database of the run's own, with a random name, on the server `url` names:
    made here and dropped at the end, so no database the run did not make is touched."""
    import psycopg

    parts = urlsplit(url)
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield parts._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def site_prepared(env: dict[str, str]) -> None:
    """The run's database migrated and the static files collected (DEBUG off serves
    the collected, hashed files)."""
    for command in (["migrate"], ["collectstatic", "--no-input"]):
        subprocess.run(
            [sys.executable, "manage.py", *command, "-v", "0"],
            cwd=ROOT,
            env={**os.environ, **env},
            check=True,
        )


def launched(command: list[str], *, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A process of the site started from the project's folder, its output in `log`."""
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
    )


def started(
    command: list[str], *, env: dict[str, str], port: int, log: Path
) -> subprocess.Popen[bytes]:
    """A server started and listening on `port` (or an error after 30 s)."""
    server = launched(command, env=env, log=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return server
        if server.poll() is not None:
            break
        time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"{command[0]} did not start: see {log}")


def stopped(processes: Iterable[subprocess.Popen[bytes]]) -> None:
    processes = list(processes)
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def points_table_published() -> None:
    """A points table published for Klondike's head-to-head (closed until staff publish
    one), made through the services; once per database."""
    from django.contrib.auth import get_user_model

    from matches import services
    from matches.models import PointsTable

    if PointsTable.objects.filter(published_at__isnull=False).exists():
        return
    staff = get_user_model().objects.create_user(username="bench-staff", is_staff=True)
    table = PointsTable.objects.create(
        version=1, points={"waste_to_tableau": 5, "flip": 5}, note="Bench table."
    )
    services.points_table_publish(table_id=table.id, staff=staff)


def redis_keys_deleted(url: str, prefix: str) -> int:
    """Every key under `prefix` deleted from the Redis database `url` names (what a run
    wrote there); how many."""
    import redis

    client = redis.Redis.from_url(url)
    deleted = 0
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        deleted += client.delete(key)
    client.close()
    return deleted


def cpu_seconds(commands: Iterable[str]) -> dict[tuple[str, int], float]:
    """CPU seconds used so far by each local process whose command starts with one of
    `commands`, and by this process ("clients"), by (command, pid), read from /proc:
    what a request costs beside its latency (cpu_spent gives the difference)."""
    commands = tuple(commands)
    used: dict[tuple[str, int], float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, tail = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        command, numbers = head.split("(", 1)[1], tail.split()
        seconds = (int(numbers[11]) + int(numbers[12])) / tick
        pid = int(stat.parent.name)
        if pid == os.getpid():
            used["clients", pid] = seconds
        for name in commands:
            if command.startswith(name):
                used[name, pid] = seconds
    return used


def cpu_spent(
    before: dict[tuple[str, int], float], after: dict[tuple[str, int], float]
) -> dict[str, float]:
    """CPU seconds each kind of process used between two readings: a process started
    meanwhile counts whole; one that ended meanwhile (a database backend) is left out,
    rather than taking its earlier CPU off the sum."""
    spent: dict[str, float] = {}
    for (name, pid), seconds in after.items():
        spent[name] = spent.get(name, 0.0) + seconds - before.get((name, pid), 0.0)
    return spent


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
