"""Time failed logins for known and unknown accounts through the real login view.

    .venv/bin/python scripts/bench_login_timing.py [--attempts 50]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/arena \\
        .venv/bin/python scripts/bench_login_timing.py

Runs on the configured stack (the embedded default, or DATABASE_URL / REDIS_URL) with
the settings of DJANGO_SETTINGS_MODULE, `config.settings.local` unless set, so with the
production password hasher; it refuses the fast test hasher. The database must be
migrated (`manage.py migrate`). It creates a throwaway player with a verified e-mail
address and posts `/accounts/login/`, alternating, --attempts times each:

- the player's e-mail address with a wrong password, and an e-mail address nobody has;
- the player's username with a wrong password, and a username nobody has.

The failed-login throttle is switched off for the run (it would stop the same login
after five failures, and its work is the same on both paths), and each attempt comes
from its own address so that allauth's per-address limit of 30 logins a minute never
cuts in either: an attempt that is not answered "not correct" stops the run. It prints
the median and the interquartile range of each path, the difference of the medians and
the median of the rounds' differences (each round times every path back to back), then
deletes the player. Not a test: tests/accounts/test_login_timing.py counts the
hashes instead.
"""

import argparse
import os
import re
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NOT_CORRECT = "you specified are not correct"


def refuse(message: str) -> None:
    print(f"bench_login_timing: {message}", file=sys.stderr)
    raise SystemExit(2)


def quartiles(values: list[float]) -> tuple[float, float, float]:
    first, median, third = statistics.quantiles(values, n=4, method="inclusive")
    return first, median, third


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=50, help="per path (default 50)")
    arguments = parser.parse_args()
    if arguments.attempts < 2:
        refuse("--attempts must be at least 2")

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()

    from allauth.account.models import EmailAddress
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import get_hashers
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.test import Client

    hasher = get_hashers()[0]
    if hasher.algorithm in {"md5", "unsalted_md5", "unsalted_sha1", "sha1"}:
        refuse(f"the {hasher.algorithm} hasher is a test hasher; use the production settings")
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        refuse("the database has unapplied migrations: run `manage.py migrate` first")

    # The failed-login throttle would stop the same login after a few failures; its
    # work is the same on both paths, so it is switched off for the run.
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": ""}

    tag = uuid.uuid4().hex[:10]
    username = f"bench-{tag}"
    email = f"bench-{tag}@example.com"
    password = f"the right one {tag}"
    user = get_user_model().objects.create_user(username=username, email=email, password=password)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)

    paths = {
        "known e-mail, wrong password": email,
        "unknown e-mail": f"nobody-{tag}@example.com",
        "known username, wrong password": username,
        "unknown username": f"nobody-{tag}",
    }
    times: dict[str, list[float]] = {name: [] for name in paths}
    client = Client()
    attempt = 0

    def post(login: str) -> float:
        nonlocal attempt
        attempt += 1
        # One address per attempt (10.x.y.z): no per-address limit answers instead.
        address = f"10.{attempt // 65536 % 256}.{attempt // 256 % 256}.{attempt % 256}"
        started = time.perf_counter()
        response = client.post(
            "/accounts/login/",
            {"login": login, "password": "not the password"},
            REMOTE_ADDR=address,
        )
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200 or NOT_CORRECT not in response.content.decode():
            errors = re.findall(r"<li>(.*?)</li>", response.content.decode())
            refuse(f"{login!r} got {response.status_code} {errors[:3]}, not 'not correct'")
        return elapsed

    try:
        for login in paths.values():
            post(login)  # warm-up: templates, imports, connections
        for _round in range(arguments.attempts):
            for name, login in paths.items():
                times[name].append(post(login))
    finally:
        user.delete()

    print(
        f"failed logins through /accounts/login/, {arguments.attempts} of each, alternating; "
        f"hasher {hasher.algorithm}"
        + (f" ({hasher.iterations:,} iterations)" if hasattr(hasher, "iterations") else "")
        + f"; database {connection.vendor}; cache {settings.CACHES['default']['BACKEND']}"
    )
    medians: dict[str, float] = {}
    for name, values in times.items():
        first, median, third = quartiles(values)
        medians[name] = median
        print(f"  {name:32} median {median:8.1f} ms   interquartile {first:.1f}-{third:.1f} ms")
    for known, unknown in [
        ("known e-mail, wrong password", "unknown e-mail"),
        ("known username, wrong password", "unknown username"),
    ]:
        difference = medians[known] - medians[unknown]
        share = difference / medians[unknown] * 100
        # Each round times both paths back to back, so the median of the rounds'
        # differences is less swayed by the load of the machine drifting.
        paired = statistics.median(a - b for a, b in zip(times[known], times[unknown], strict=True))
        print(
            f"  difference {known.split(',')[0]:>14}: {difference:+.1f} ms ({share:+.1f}%) "
            f"of the medians, {paired:+.1f} ms median of the rounds' differences"
        )


if __name__ == "__main__":
    main()
