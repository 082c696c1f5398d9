"""Benchmark a daily deal's leaderboard with 1,000,000 results, on PostgreSQL and Redis.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/arena \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python scripts/bench_leaderboard.py [--results 1000000] [--samples 1000] [--keep]

Creates a throwaway database of its own on the server of DATABASE_URL, named
`arena_bench_lb_<random>` (it refuses to run if that name exists, and at the end drops
only the database it created, unless --keep), fills it with one daily deal and its
players, ranked games and results, rebuilds the deal's histogram of scores, runs VACUUM
ANALYZE, then times what the leaderboard pages do, through the real selector and
service functions:

- a top-100 page: the rows and the first row's rank, from PostgreSQL (the
  database path) and from Redis (the live ranks);
- one player's rank near the bottom of the board (the last 1%), p50 and p99 over
  --samples players, from both;
- the full rebuild of the deal's live ranks from PostgreSQL into Redis.

Redis keys go under a prefix of the run, `arena-bench-<random>:lb`, deleted at the end.
`--reuse NAME` measures a database an earlier `--keep` left (and never drops it). Not a test.
"""

import argparse
import os
import random
import secrets
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# A database and a Redis prefix of this run's own, so that the benchmark never drops
# or empties anything that another run (or anyone) made.
RUN = secrets.token_hex(4)
DATABASE_PREFIX = "arena_bench_lb_"
KEY_PREFIX = f"arena-bench-{RUN}:lb"
VARIANT = "klondike"


def refuse(message: str) -> None:
    print(f"bench_leaderboard: {message}", file=sys.stderr)
    raise SystemExit(2)


def bench_url(database_url: str, name: str) -> str:
    parts = urlsplit(database_url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def database_exists(database_url: str, name: str) -> bool:
    import psycopg

    with psycopg.connect(bench_url(database_url, "postgres"), autocommit=True) as admin:
        found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return found.fetchone() is not None


def create_database(database_url: str, name: str) -> None:
    """Create the run's database; refuse, touching nothing, if the name is taken."""
    import psycopg

    if database_exists(database_url, name):
        refuse(f"database {name!r} exists already; it is not ours, so it is left alone")
    with psycopg.connect(bench_url(database_url, "postgres"), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')


def drop_database(database_url: str, name: str) -> None:
    """Drop the database this run created (create_database), and no other."""
    import psycopg

    with psycopg.connect(bench_url(database_url, "postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def timed(function: Callable[[], Any], repeat: int) -> list[float]:
    """Milliseconds of each of `repeat` calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _copy_columns(model: Any, values: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """Every concrete column of a model with a constant value for this fill: the
    given ones, else the field's default (JSON as text), so new fields need no edit."""
    import json

    columns, constants = [], []
    for field in model._meta.concrete_fields:
        if field.primary_key and field.attname not in values:
            continue
        columns.append(field.column)
        if field.attname in values:
            value = values[field.attname]
        elif field.has_default():
            value = field.get_default()
        else:
            value = None
        if field.get_internal_type() == "JSONField" and value is not None:
            value = json.dumps(value)
        constants.append(value)
    return columns, constants


def fill(total: int, seed: int) -> tuple[Any, float]:
    """One deal and `total` players, each with a ranked game and its result."""
    from django.contrib.auth.models import User
    from django.db import connection

    from games.engine import get_variant, new_seed
    from games.models import Game
    from leaderboards import services
    from leaderboards.models import DailyDeal, Result, ScoreCount

    started = time.perf_counter()
    today = datetime.now(UTC).date()
    options = get_variant(VARIANT).normalize_options({})
    deal = DailyDeal.objects.create(date=today, variant=VARIANT, options=options, seed=new_seed())
    rule = services.ranking_rule_for(VARIANT)
    now = datetime.now(UTC)
    chooser = random.Random(seed)

    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name,"
            " email, is_staff, is_active, date_joined)"
            " SELECT '!', false, 'bench' || n, '', '', '', false, true, now()"
            " FROM generate_series(1, %s) AS n",
            [total],
        )
        cursor.execute("SELECT id FROM auth_user WHERE username LIKE 'bench%%' ORDER BY id")
        player_ids = [row[0] for row in cursor.fetchall()]
    print(f"  players:  {time.perf_counter() - started:7.1f} s", flush=True)

    # Figures of a day's board: a third won; scores, times and moves spread so
    # that there are ties as well as distinct ranks.
    figures = []
    for _ in player_ids:
        won = chooser.random() < 0.33
        score = chooser.randint(400, 1_200) if won else chooser.randint(-200, 600)
        elapsed_ms = chooser.randint(90, 3_600) * 1000 + chooser.randint(0, 999)
        moves = chooser.randint(90, 400)
        figures.append((won, score, elapsed_ms, moves))

    game_columns, game_constants = _copy_columns(
        Game,
        {
            "id": None,
            "variant": VARIANT,
            "options": options,
            "seed": deal.seed,
            "track": "daily",
            "track_ref": str(deal.id),
            "is_ranked": True,
            "state": {},
            "status": "finished",
            "started_at": now,
            "last_action_at": now,
            "finished_at": now,
        },
    )
    varying = ["id", "player_id", "score", "final_score", "elapsed_ms", "move_count", "status"]
    index = {name: game_columns.index(name) for name in varying}
    game_ids = []
    cursor_started = time.perf_counter()
    with connection.cursor() as cursor:
        copy_sql = f"COPY {Game._meta.db_table} ({', '.join(game_columns)}) FROM STDIN"
        with cursor.cursor.copy(copy_sql) as copy:
            row = list(game_constants)
            for player_id, (won, score, elapsed_ms, moves) in zip(player_ids, figures, strict=True):
                game_id = uuid.uuid4()
                game_ids.append(game_id)
                row[index["id"]] = game_id
                row[index["player_id"]] = player_id
                row[index["score"]] = score
                row[index["final_score"]] = score
                row[index["elapsed_ms"]] = elapsed_ms
                row[index["move_count"]] = moves
                row[index["status"]] = "won" if won else "finished"
                copy.write_row(row)
    print(f"  games:    {time.perf_counter() - cursor_started:7.1f} s", flush=True)

    result_columns = [
        "game_id",
        "daily_deal_id",
        "player_id",
        "variant",
        "won",
        "score",
        "elapsed_ms",
        "move_count",
        "rank_key",
        "finished_at",
    ]
    cursor_started = time.perf_counter()
    probe = Result(variant=VARIANT)
    with connection.cursor() as cursor:
        copy_sql = f"COPY {Result._meta.db_table} ({', '.join(result_columns)}) FROM STDIN"
        with cursor.cursor.copy(copy_sql) as copy:
            for game_id, player_id, (won, score, elapsed_ms, moves) in zip(
                game_ids, player_ids, figures, strict=True
            ):
                probe.won, probe.score, probe.elapsed_ms, probe.move_count = (
                    won,
                    score,
                    elapsed_ms,
                    moves,
                )
                copy.write_row(
                    (
                        game_id,
                        deal.id,
                        player_id,
                        VARIANT,
                        won,
                        score,
                        elapsed_ms,
                        moves,
                        rule.rank_key(probe),
                        now - timedelta(milliseconds=elapsed_ms),
                    )
                )
    print(f"  results:  {time.perf_counter() - cursor_started:7.1f} s", flush=True)

    # COPY wrote no histogram: the deal's is rebuilt from its results, as the task does.
    histogram_started = time.perf_counter()
    counted = services.score_counts_rebuild(deal_id=deal.id)
    assert counted == total, (counted, total)
    print(f"  histogram: {time.perf_counter() - histogram_started:6.1f} s", flush=True)

    vacuum_started = time.perf_counter()
    with connection.cursor() as cursor:
        for model in (User, Game, Result, ScoreCount):
            table = model._meta.db_table
            cursor.execute(f"VACUUM ANALYZE {table}")
    print(f"  vacuum:   {time.perf_counter() - vacuum_started:7.1f} s", flush=True)
    return deal, time.perf_counter() - started


def measure(deal: Any, samples: int, repeat: int, seed: int) -> list[tuple[str, str, str]]:
    from django.contrib.auth.models import User

    from leaderboards import redis_ranks, selectors, services
    from leaderboards.models import Result

    results = Result.objects.listed().filter(daily_deal=deal)
    total = results.count()
    assert selectors._total(deal) == total
    chooser = random.Random(seed)
    # Players near the bottom of the board: among the worst 1%.
    bottom = list(
        results.order_by("rank_key", "player_id").values_list("player_id", flat=True)[
            : max(samples, total // 100)
        ]
    )
    sampled = [
        User(pk=player_id) for player_id in chooser.sample(bottom, min(samples, len(bottom)))
    ]
    rows: list[tuple[str, str, str]] = []

    def line(what: str, times: list[float], aim: str) -> None:
        figures = f"p50 {percentile(times, 0.5):8.3f}   p99 {percentile(times, 0.99):8.3f}"
        rows.append((what, figures, aim))
        print(f"  {what:<46} {figures}   (aim {aim})", flush=True)

    # PostgreSQL: the database path of the selectors.
    def pg_page(offset: int) -> Callable[[], None]:
        def read() -> None:
            entries = selectors._page_entries(results, offset, 100, total)
            selectors._count_better(deal, entries[0].rank_key)

        return read

    line("PostgreSQL top-100 page (ms)", timed(pg_page(0), repeat), "< 5 ms")
    line("PostgreSQL last 100 (ms)", timed(pg_page(total - 100), repeat), "-")
    line(
        "PostgreSQL whole page 1 with count and own row (ms)",
        timed(lambda: selectors._from_database(deal, 1, sampled[0]), max(20, repeat // 10)),
        "-",
    )
    rank_times = []
    for viewer in sampled:
        started = time.perf_counter()
        selectors._ranks_from_database([deal], viewer)
        rank_times.append((time.perf_counter() - started) * 1000)
    line("PostgreSQL rank of a player near the bottom (ms)", rank_times, "< 100 ms")

    # Redis: the live ranks, rebuilt whole from PostgreSQL first.
    started = time.perf_counter()
    ranked = services.leaderboard_rebuild(deal_id=deal.id)
    rebuild_seconds = time.perf_counter() - started
    assert ranked == total, (ranked, total)
    assert redis_ranks.size(deal.id) == total

    line(
        "Redis top-100 page (ms)",
        timed(lambda: redis_ranks.page(deal.id, 0, 100), repeat),
        "< 5 ms",
    )
    line(
        "Redis whole page 1 with own row (ms)",
        timed(lambda: selectors._from_redis(deal, 1, sampled[0]), repeat),
        "-",
    )
    rank_times = []
    for viewer in sampled:
        started = time.perf_counter()
        redis_ranks.rank_of(deal.id, viewer.pk)
        rank_times.append((time.perf_counter() - started) * 1000)
    line("Redis rank of a player near the bottom (ms)", rank_times, "< 1 ms")
    figure = f"{rebuild_seconds:8.1f} s for {ranked:,} results"
    rows.append(("Full Redis rebuild from PostgreSQL", figure, "< 60 s"))
    print(f"  {'Full Redis rebuild from PostgreSQL':<46} {figure}   (aim < 60 s)", flush=True)

    # Check the two paths, and a plain count, agree on sampled ranks, near the
    # bottom and anywhere on the board.
    anywhere = chooser.sample(range(total), 20)
    others = results.order_by("-rank_key", "-player_id").values_list("player_id", flat=True)
    checked = sampled[:30] + [User(pk=others[place]) for place in anywhere]
    for viewer in checked:
        from_redis = redis_ranks.rank_of(deal.id, viewer.pk)
        key = results.filter(player=viewer).values_list("rank_key", flat=True).get()
        assert from_redis is not None
        assert from_redis[0] == selectors._count_better(deal, key) + 1
        assert from_redis[0] == results.filter(rank_key__gt=key).count() + 1
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=200, help="timings of each page query")
    parser.add_argument("--seed", type=int, default=20_260_301)
    parser.add_argument("--keep", action="store_true", help="keep the database and Redis keys")
    parser.add_argument(
        "--reuse",
        metavar="NAME",
        help=f"measure a database {DATABASE_PREFIX}... kept by an earlier --keep (never dropped)",
    )
    arguments = parser.parse_args()

    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not database_url or not redis_url:
        refuse(
            "needs both DATABASE_URL (PostgreSQL) and REDIS_URL, e.g.\n"
            "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/arena "
            "REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python scripts/bench_leaderboard.py\n"
            f"It creates (and then drops) its own database {DATABASE_PREFIX}<random> there."
        )
    if urlsplit(database_url).scheme not in {"postgres", "postgresql", "pgsql"}:
        refuse("DATABASE_URL must point at PostgreSQL: the benchmark measures PostgreSQL")

    if arguments.reuse:
        name = arguments.reuse
        if not name.startswith(DATABASE_PREFIX) or not database_exists(database_url, name):
            refuse(f"--reuse takes the name of a kept database {DATABASE_PREFIX}...")
    else:
        name = f"{DATABASE_PREFIX}{RUN}"
        create_database(database_url, name)
    os.environ["DATABASE_URL"] = bench_url(database_url, name)
    os.environ["LEADERBOARD_KEY_PREFIX"] = KEY_PREFIX
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("LOG_LEVEL", "WARNING")

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from leaderboards import redis_ranks
    from leaderboards.models import DailyDeal

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        server = cursor.fetchone()[0]
    redis_version = redis_ranks.client().info("server").get("redis_version", "?")
    try:
        if arguments.reuse:
            deal = DailyDeal.objects.get(variant=VARIANT)
            fill_seconds = 0.0
        else:
            call_command("migrate", verbosity=0)
            print(f"Filling {arguments.results:,} results into {name} ...", flush=True)
            deal, fill_seconds = fill(arguments.results, arguments.seed)
            print(f"  total:    {fill_seconds:7.1f} s", flush=True)
        print("Measuring ...", flush=True)
        rows = measure(deal, arguments.samples, arguments.repeat, arguments.seed)
    finally:
        if arguments.keep:
            print(f"Kept database {name} and Redis keys {KEY_PREFIX}:*", flush=True)
        else:
            connection_client = redis_ranks.client()
            for key in connection_client.scan_iter(f"{KEY_PREFIX}:*"):
                connection_client.unlink(key)
            if not arguments.reuse:
                from django.db import connections

                connections.close_all()
                drop_database(database_url, name)

    print()
    print(f"{arguments.results:,} results of one daily deal; {arguments.samples:,} rank samples")
    print(f"PostgreSQL {server}; Redis {redis_version}; python {sys.version.split()[0]}")
    width = max(len(what) for what, _, _ in rows)
    print(f"| {'measure':<{width}} | {'figure':<36} | aim |")
    print(f"|{'-' * (width + 2)}|{'-' * 38}|-----|")
    for what, figure, aim in rows:
        print(f"| {what:<{width}} | {figure:<36} | {aim} |")
    if fill_seconds:
        print(f"(filling took {fill_seconds:.0f} s)")


if __name__ == "__main__":
    main()
