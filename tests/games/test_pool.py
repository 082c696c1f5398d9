"""The pool of certified winnable deals (games.services.pool, docs/pool.md): taking a
seed, the refill task, the winnable-only deal and what it leaves alone.

Spike's solver decides a deal in milliseconds, so the tests that solve use Spike;
the same tests for the other games run once their solver is registered.
"""

import threading
from datetime import date

import pytest
from django.conf import settings as django_settings
from django.db import connection, connections, transaction
from django.urls import reverse

from accounts.models import Profile
from games import services
from games.engine import get_variant, new_seed
from games.engine.replay import replay
from games.engine.solvers import WON, Budget, solver_for
from games.engine.solvers.certify import Certificate
from games.models import CertifiedSeed, Game
from games.services import pool as pools
from games.specs import game_specs
from games.tasks import pool_refill_task, pools_refill_task
from games.tracks import casual_track
from leaderboards.services import daily_deal_play, daily_deals_ensure

pytestmark = pytest.mark.django_db

TARGET = 3
CHUNK = 2


def requires_solver(variant: str):
    return pytest.mark.skipif(
        not pools.solver_available(variant=variant),
        reason=f"the {variant} solver is not registered yet",
    )


# The games whose pools can be filled in a test's time: those whose solver decides
# a deal within a second or so (docs/solvers.md).
QUICK_GAMES = [
    pytest.param(variant, marks=requires_solver(variant))
    for variant in ("spike", "klondike", "steps")
]


@pytest.fixture(autouse=True)
def _small_pools(settings):
    settings.POOL_TARGET_SIZE = TARGET
    settings.POOL_CHUNK_SIZE = CHUNK
    settings.POOL_SEED_BUDGET_MS = 5000
    settings.POOL_SEED_BUDGET_MS_BY_GAME = {}
    settings.POOL_INLINE_BUDGET_MS = 20000
    settings.POOL_BACKGROUND_REFILL = False


def winnable_player(player, *games: str):
    Profile.objects.update_or_create(user=player, defaults={"winnable_only": list(games)})
    return player


def waiting_row(pool: pools.Pool, *, seed: str | None = None) -> CertifiedSeed:
    """A row of the pool as the refill stores it (for the tests of taking: whether the
    seed is winnable does not matter there)."""
    return CertifiedSeed.objects.create(
        variant=pool.variant,
        rules_version=pool.rules_version,
        options=pool.options,
        options_key=pool.options_key,
        seed=seed or new_seed(),
        par=1,
        solve_ms=1,
        nodes=1,
    )


def assert_won_by_the_solver(row: CertifiedSeed) -> None:
    """The seed is won: the solver's line from its deal replays to a win, and the
    pool's par is the length of a winning line the solver finds."""
    variant = get_variant(row.variant)
    from games.engine import shuffled_deck

    state = variant.deal(shuffled_deck(row.seed), variant.normalize_options(row.options))
    solution = solver_for(row.variant).solve(variant, state, budget=Budget(ms=20000))
    assert solution.verdict == WON
    case = {"variant": row.variant, "options": row.options, "seed": row.seed}
    assert replay({**case, "moves": list(solution.moves)})["status"] == "won"
    assert row.par >= 1
    assert row.nodes >= 1


def spike_pool(mode: str = "classic") -> pools.Pool:
    return pools.pool_of(variant="spike", options={"mode": mode})


# -- pools and keys -----------------------------------------------------------------


def test_options_are_keyed_as_the_engine_normalizes_them():
    defaults = pools.pool_of(variant="steps", options={})
    spelled_out = pools.pool_of(
        variant="steps", options={"retrieval": False, "recycles": 3, "draw": 1, "buffers": 4}
    )
    assert defaults == spelled_out
    assert defaults.options_key == pools.options_key_of(defaults.options)
    assert " " not in defaults.options_key
    assert pools.pool_of(variant="steps", options={"draw": 3}) != defaults
    modes = {spike_pool(mode).options_key for mode in ("classic", "time_attack", "relaxed")}
    assert len(modes) == 3


def test_the_pools_are_the_specs_pooled_options_of_games_with_a_solver():
    expected = [
        pools.pool_of(variant=spec.key, options=options)
        for spec in game_specs()
        if pools.solver_available(variant=spec.key)
        for options in spec.pooled_options
    ]
    assert list(pools.pools()) == expected
    assert len({(pool.variant, pool.options_key) for pool in expected}) == len(expected)
    for pool in expected:
        assert pools.pool_by_key(variant=pool.variant, options_key=pool.options_key) == pool
    assert pools.pool_by_key(variant="spike", options_key='{"mode":"nonsense"}') is None


def test_every_game_pools_its_default_options_and_spike_each_mode():
    by_key = {spec.key: spec for spec in game_specs()}
    for spec in game_specs():
        assert any(dict(options) == {} or spec.key == "spike" for options in spec.pooled_options)
    assert {dict(options)["mode"] for options in by_key["spike"].pooled_options} == {
        "classic",
        "time_attack",
        "relaxed",
    }
    assert {} in [dict(options) for options in by_key["steps"].pooled_options]


# -- taking a seed ------------------------------------------------------------------


def test_a_take_hands_out_each_waiting_seed_once_and_marks_it_dealt():
    pool = spike_pool()
    rows = [waiting_row(pool) for _ in range(3)]
    other_mode = waiting_row(spike_pool("relaxed"))
    old_rules = waiting_row(pool)
    CertifiedSeed.objects.filter(pk=old_rules.pk).update(rules_version=pool.rules_version + 1)
    already_dealt = waiting_row(pool)
    CertifiedSeed.objects.filter(pk=already_dealt.pk).update(dealt_at="2026-01-01T00:00Z")

    taken = [pools.pool_take(pool=pool) for _ in range(4)]

    assert sorted(row.seed for row in taken[:3]) == sorted(row.seed for row in rows)
    assert taken[3] is None
    for row in rows:
        row.refresh_from_db()
        assert row.dealt_at is not None
    for untouched in (other_mode, old_rules):
        untouched.refresh_from_db()
        assert untouched.dealt_at is None
    assert pools.pool_waiting_count(pool=pool) == 0


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only")
@pytest.mark.django_db(transaction=True)
def test_concurrent_takes_skip_each_others_locked_rows_and_never_share_a_seed():
    """Each of four threads takes a seed and holds its transaction open until all four
    have taken: with FOR UPDATE SKIP LOCKED none waits for another, and no seed is
    handed out twice."""
    pool = spike_pool()
    rows = {waiting_row(pool).seed for _ in range(6)}
    workers = 4
    barrier = threading.Barrier(workers, timeout=20)
    taken: list[str | None] = []
    errors: list[BaseException] = []
    guard = threading.Lock()

    def take() -> None:
        try:
            with transaction.atomic():
                row = pools.pool_take(pool=pool)
                barrier.wait()  # every take is done while the others still hold their locks
            with guard:
                taken.append(row.seed if row else None)
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=take) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert errors == []
    assert len(taken) == workers
    assert None not in taken
    assert len(set(taken)) == workers
    assert set(taken) <= rows
    assert pools.pool_waiting_count(pool=pool) == len(rows) - workers
    assert CertifiedSeed.objects.filter(seed__in=taken, dealt_at__isnull=False).count() == workers


# -- refilling ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", QUICK_GAMES)
def test_the_refill_task_fills_a_pool_to_its_target_with_won_seeds_and_is_idempotent(variant):
    pool = pools.pool_of(variant=variant, options={})

    added = pool_refill_task(pool.variant, pool.options_key)

    rows = list(CertifiedSeed.objects.filter(variant=variant))
    # The first chunk added CHUNK seeds and re-queued itself (in-process here) for the rest.
    assert added == CHUNK
    assert len(rows) == TARGET
    assert pools.pool_waiting_count(pool=pool) == TARGET
    for row in rows:
        assert row.options_key == pool.options_key
        assert row.rules_version == pool.rules_version
        assert row.dealt_at is None
        assert_won_by_the_solver(row)

    assert pool_refill_task(pool.variant, pool.options_key) == 0
    assert CertifiedSeed.objects.filter(variant=variant).count() == TARGET


@requires_solver("spike")
def test_one_chunk_adds_at_most_the_chunk_size_and_only_what_the_pool_lacks():
    pool = spike_pool()
    first = pools.pool_refill(pool=pool)
    assert (first.added, first.waiting, first.below_target) == (CHUNK, CHUNK, True)
    second = pools.pool_refill(pool=pool)
    assert (second.added, second.waiting, second.below_target) == (TARGET - CHUNK, TARGET, False)
    assert pools.pool_refill(pool=pool).added == 0
    assert pools.pool_waiting_count(pool=pool) == TARGET


@requires_solver("spike")
def test_a_refill_beside_another_of_the_same_pool_does_nothing():
    """Another refill of the pool holds its lock (from another thread: on PostgreSQL its
    own connection, as another worker's would be)."""
    pool = spike_pool()
    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        lock = pools._RefillLock(pool)
        try:
            if lock.acquire():
                held.set()
                done.wait(30)
            lock.release()
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        refill = pools.pool_refill(pool=pool)
        other = pools.pool_refill(pool=spike_pool("relaxed"))
    finally:
        done.set()
        holder.join(10)
    assert refill.busy
    assert refill.added == 0
    assert pools.pool_waiting_count(pool=pool) == 0
    assert other.added == CHUNK
    assert pools.pool_refill(pool=pool).added == CHUNK


@requires_solver("spike")
def test_the_beat_task_refills_every_pool_below_target(monkeypatch):
    kept = tuple(spike_pool(mode) for mode in ("classic", "time_attack", "relaxed"))
    monkeypatch.setattr(pools, "pools", lambda: kept)
    for _ in range(TARGET):
        waiting_row(kept[0])

    assert pools_refill_task() == 2

    for pool in kept:
        assert pools.pool_waiting_count(pool=pool) == TARGET
    assert pools_refill_task() == 0


def test_one_beat_entry_keeps_the_pools_full():
    from config.celery import app

    entries = [
        entry
        for entry in django_settings.CELERY_BEAT_SCHEDULE.values()
        if entry["task"] == "games.tasks.pools_refill_task"
    ]
    assert len(entries) == 1
    assert entries[0]["schedule"] == 300.0
    assert "games.tasks.pools_refill_task" in app.tasks
    assert "games.tasks.pool_refill_task" in app.tasks


def test_a_refill_of_a_pool_no_longer_kept_does_nothing():
    assert pool_refill_task("spike", '{"mode":"nonsense"}') == 0
    assert pool_refill_task("chess", "{}") == 0
    assert not CertifiedSeed.objects.exists()


# -- winnable deals -----------------------------------------------------------------


@pytest.mark.parametrize("variant", QUICK_GAMES)
def test_a_winnable_deal_with_an_empty_pool_is_certified_at_once_and_the_pool_filled_after(
    variant, player, django_capture_on_commit_callbacks
):
    """The embedded default's first need: no seed waits, so the deal's seed is certified
    in the request; the refill runs after the commit (here in the caller: in a server
    process a thread, with a worker a task) and fills the pool."""
    winnable_player(player, variant)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        game = services.game_start(player=player, variant=variant)

    certificate = CertifiedSeed.objects.get(seed=game.seed)
    assert game.certified_seed_id == certificate.pk
    assert certificate.dealt_at is not None
    assert_won_by_the_solver(certificate)
    assert len(callbacks) == 1
    pool = pools.pool_of(variant=variant, options={})
    assert pools.pool_waiting_count(pool=pool) == TARGET


@pytest.mark.parametrize("variant", QUICK_GAMES)
def test_a_winnable_deal_takes_a_waiting_seed_without_running_the_solver(
    variant, player, monkeypatch
):
    pool = pools.pool_of(variant=variant, options={})
    pool_refill_task(pool.variant, pool.options_key)
    waiting = {row.seed: row.pk for row in CertifiedSeed.objects.filter(variant=variant)}
    winnable_player(player, variant)

    def no_solving(*args, **kwargs):
        raise AssertionError("a deal from a pool with seeds ran the solver")

    monkeypatch.setattr(pools, "certify_new_seed", no_solving)
    game = services.game_start(player=player, variant=variant)

    assert game.certified_seed_id == waiting[game.seed]
    assert CertifiedSeed.objects.get(seed=game.seed).dealt_at is not None
    assert pools.pool_waiting_count(pool=pool) == TARGET - 1


@requires_solver("spike")
def test_new_deal_restart_and_the_board_of_a_winnable_game(player, player_client):
    winnable_player(player, "spike")
    pool = spike_pool("time_attack")
    pool_refill_task(pool.variant, pool.options_key)
    seeds = set(CertifiedSeed.objects.values_list("seed", flat=True))

    response = player_client.post(
        reverse("games:new_deal", args=["spike"]), {"mode": "time_attack"}
    )
    game = Game.objects.get(player=player, status=Game.Status.ACTIVE)
    assert game.seed in seeds
    assert game.options == {"mode": "time_attack"}
    board = player_client.get(response["Location"]).content.decode()
    assert 'id="certified-label"' in board
    assert "Certified winnable deal" in board
    assert game.seed not in board

    restarted = services.game_restart(game_id=game.id, player=player)
    assert restarted.seed == game.seed
    assert restarted.certified_seed_id == game.certified_seed_id
    assert pools.pool_waiting_count(pool=pool) == TARGET - 1  # a restart takes nothing

    again = player_client.post(
        reverse("games:new_deal", args=["spike"]), {"mode": "time_attack", "confirm": "on"}
    )
    newest = Game.objects.get(player=player, status=Game.Status.ACTIVE)
    assert newest.seed in seeds
    assert newest.seed != game.seed
    assert newest.certified_seed_id != game.certified_seed_id
    assert newest.seed not in player_client.get(again["Location"]).content.decode()


@requires_solver("spike")
def test_a_player_who_did_not_ask_gets_an_ordinary_deal(player, player_client):
    winnable_player(player, "klondike")
    pool = spike_pool()
    waiting_row(pool)

    game = services.game_start(player=player, variant="spike")
    board = player_client.get(reverse("games:detail", args=[game.id])).content.decode()

    assert game.certified_seed_id is None
    assert not CertifiedSeed.objects.filter(seed=game.seed).exists()
    assert pools.pool_waiting_count(pool=pool) == 1
    assert "Certified winnable deal" not in board


@requires_solver("spike")
def test_a_given_seed_is_dealt_as_it_is(player):
    winnable_player(player, "spike")
    game = services.game_start(
        player=player, variant="spike", track=casual_track(seed="chosen-seed")
    )
    assert game.seed == "chosen-seed"
    assert game.certified_seed_id is None
    assert not CertifiedSeed.objects.exists()


@requires_solver("spike")
def test_daily_deals_are_unaffected(player):
    everything = [spec.key for spec in game_specs()]
    winnable_player(player, *everything)
    waiting_row(spike_pool())
    deals = daily_deals_ensure(day=date.today())
    deal = next(deal for deal in deals if deal.variant == "spike")

    game = daily_deal_play(player=player, deal=deal)

    assert game.track == Game.Track.DAILY
    assert game.seed == deal.seed
    assert game.certified_seed_id is None
    assert pools.pool_waiting_count(pool=spike_pool()) == 1


@requires_solver("steps")
def test_options_without_a_pool_are_certified_while_the_player_waits(
    player, django_capture_on_commit_callbacks
):
    winnable_player(player, "steps")
    options = {"draw": 3, "buffers": 2, "recycles": 5, "retrieval": False}
    pool = pools.pool_of(variant="steps", options=options)
    assert pool not in pools.pools()

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        game = services.game_start(
            player=player, variant="steps", track=casual_track(options=options)
        )

    certificate = CertifiedSeed.objects.get(seed=game.seed)
    assert game.certified_seed_id == certificate.pk
    assert certificate.options_key == pool.options_key
    assert certificate.dealt_at is not None
    assert_won_by_the_solver(certificate)
    assert callbacks == []  # no pool is kept for these options
    assert CertifiedSeed.objects.count() == 1


@requires_solver("kingsley")
def test_when_no_seed_is_won_in_time_the_deal_is_an_ordinary_one(
    player, settings, player_client, monkeypatch
):
    from games.engine.solvers import UNKNOWN, Solution, solver_for

    # A search that runs out of time on every seed (a short real budget is no such
    # promise: the compiled core wins some deals before it first reads the clock).
    def out_of_time(*args: object, **kwargs: object) -> Solution:
        return Solution(verdict=UNKNOWN, nodes=1, ms=1)

    monkeypatch.setattr(solver_for("kingsley"), "solve", out_of_time)
    settings.POOL_INLINE_BUDGET_MS = 1
    winnable_player(player, "kingsley")

    game = services.game_start(player=player, variant="kingsley")
    board = player_client.get(reverse("games:detail", args=[game.id])).content.decode()

    assert game.certified_seed_id is None
    assert not CertifiedSeed.objects.filter(seed=game.seed).exists()
    assert "Certified winnable deal" not in board


def test_an_uncertified_certificate_is_never_stored():
    pool = spike_pool()
    from games.engine.solvers import UNKNOWN, Solution

    lost = Certificate(
        seed="s", solution=Solution(verdict=UNKNOWN, nodes=1, ms=1), difficulty=None, seeds_tried=1
    )
    assert pools._store(pool=pool, certificate=lost, dealt=False) is None
    assert not CertifiedSeed.objects.exists()


@requires_solver("spike")
@pytest.mark.django_db(transaction=True)
def test_the_embedded_refill_runs_in_a_thread_after_the_deal(player, settings, monkeypatch):
    """Without a broker and with POOL_BACKGROUND_REFILL on (the embedded default), the
    refill after a winnable deal runs in a thread of the process: the deal returns
    first."""
    if connection.vendor == "sqlite":
        pytest.skip("the SQLite test database is in memory: a thread cannot share it")
    settings.POOL_BACKGROUND_REFILL = True
    winnable_player(player, "spike")
    started: list[threading.Thread] = []
    real_start = threading.Thread.start

    def remember(thread):
        started.append(thread)
        real_start(thread)

    monkeypatch.setattr(threading.Thread, "start", remember)
    game = services.game_start(player=player, variant="spike")
    monkeypatch.undo()
    assert [thread.name for thread in started] == ["pool-refill"]
    started[0].join(60)
    assert game.certified_seed_id is not None
    assert pools.pool_waiting_count(pool=spike_pool()) == TARGET


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's transaction mode")
def test_sqlite_transactions_take_the_write_lock_when_they_begin():
    """The embedded refill's thread writes beside the requests: with BEGIN IMMEDIATE a
    writer waits for the other (busy timeout) instead of failing with "database is
    locked" when its read turns into a write."""
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
