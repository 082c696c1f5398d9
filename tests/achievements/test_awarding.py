"""Awarding is idempotent: the task run twice, after a simulated crash, alongside
another; the constraints themselves; the backfill and the catch-up task."""

import dataclasses
import threading
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import override_settings
from django.utils import timezone

from achievements import declarations, services
from achievements.declarations import BY_CODE, Achievement
from achievements.models import Award, Backfill, Evaluation
from achievements.tasks import (
    achievements_backfill_task,
    achievements_catch_up_task,
    achievements_evaluate_task,
)
from games import services as game_services
from games.models import Game
from games.services.closing import game_closed_dispatch
from games.tracks import casual_track
from tests.achievements.helpers import (
    awarded,
    closed_game,
    codes_of,
    committed,
    spike_state,
)

pytestmark = pytest.mark.django_db


def award_rows(player) -> list[tuple[str, object]]:
    return sorted(Award.objects.filter(player=player).values_list("code", "game_id"))


def spike_gold(player, **extra) -> Game:
    return closed_game(
        player,
        "spike",
        Game.Status.WON,
        state=spike_state(cleared=5, stock_left=12),
        options={"mode": "classic"},
        **extra,
    )


# Idempotence -------------------------------------------------------------------


def test_running_the_evaluation_twice_awards_once(player):
    game = spike_gold(player, undo_count=0)

    first = achievements_evaluate_task.delay(str(game.id)).get()
    rows = award_rows(player)
    second = achievements_evaluate_task.delay(str(game.id)).get()

    assert first == second
    assert {"spike-summit-gold", "first-win-spike", "no-undo-win-spike"} <= set(first)
    assert award_rows(player) == rows
    assert len(rows) == len(first)
    assert Evaluation.objects.filter(game=game).count() == 1


def test_a_crash_halfway_leaves_nothing_and_the_rerun_awards_exactly_once(player, monkeypatch):
    """A worker dying in the middle of a game's evaluation: some awards were
    already inserted in its transaction when it failed. Nothing commits; the
    task, delivered again (acks late), awards everything exactly once."""
    game = spike_gold(player)
    crashing = [
        dataclasses.replace(achievement, rule=_explode)
        if achievement.code == "no-undo-win-spike"
        else achievement
        for achievement in declarations.ACHIEVEMENTS
    ]
    monkeypatch.setattr(services, "ACHIEVEMENTS", tuple(crashing))
    inserts = []
    real_award = services._award
    monkeypatch.setattr(services, "_award", lambda a, f: (inserts.append(a.code), real_award(a, f)))

    with pytest.raises(WorkerLost):
        achievements_evaluate_task.delay(str(game.id))

    assert "spike-summit-gold" in inserts  # awards were made before the crash ...
    assert award_rows(player) == []  # ... and rolled back with it
    assert not Evaluation.objects.filter(game=game).exists()

    monkeypatch.undo()
    earned = achievements_evaluate_task.delay(str(game.id)).get()
    achievements_evaluate_task.delay(str(game.id)).get()

    assert "no-undo-win-spike" in earned
    assert award_rows(player) == sorted((code, game.id) for code in earned)


def test_a_crash_after_an_earlier_commit_neither_duplicates_nor_loses(player, monkeypatch):
    """The task committed, then the worker died before acknowledging it: it runs
    again, and this time dies halfway. The first run's awards all stand."""
    game = spike_gold(player)
    earned = achievements_evaluate_task.delay(str(game.id)).get()
    before = award_rows(player)
    monkeypatch.setattr(
        services,
        "ACHIEVEMENTS",
        tuple(
            dataclasses.replace(a, rule=_explode) if a.code == "wins-10" else a
            for a in declarations.ACHIEVEMENTS
        ),
    )

    with pytest.raises(WorkerLost):
        achievements_evaluate_task.delay(str(game.id))

    assert award_rows(player) == before == sorted((code, game.id) for code in earned)


class WorkerLost(Exception):
    pass


def _explode(*args, **kwargs):
    raise WorkerLost("the worker was killed")


@pytest.mark.django_db(transaction=True)
def test_simultaneous_evaluations_award_exactly_once(make_user):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the race is exercised on PostgreSQL")
    player = make_user("racer")
    game = spike_gold(player)
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def evaluate() -> None:
        start.wait()
        try:
            services.achievements_evaluate(game_id=game.id)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=evaluate) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    codes = [code for code, _game in award_rows(player)]
    assert len(codes) == len(set(codes))
    assert "spike-summit-gold" in codes


# The constraints themselves ------------------------------------------------------


def test_a_one_off_award_is_unique_per_player_even_without_a_game(player):
    """The one-off constraint has no nullable column: a second row is refused
    even when neither has a game (PostgreSQL would let NULLs through otherwise)."""
    now = timezone.now()
    Award.objects.create(player=player, code="wins-10", game=None, earned_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Award.objects.create(player=player, code="wins-10", game=None, earned_at=now)
    game = closed_game(player)
    with pytest.raises(IntegrityError), transaction.atomic():
        Award.objects.create(player=player, code="wins-10", game=game, earned_at=now)


def test_a_repeatable_award_is_unique_per_game_and_counts_each_game(player):
    now = timezone.now()
    first, second = spike_gold(player), spike_gold(player)
    Award.objects.create(
        player=player, code="spike-summit-gold", repeatable=True, game=first, earned_at=now
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Award.objects.create(
            player=player, code="spike-summit-gold", repeatable=True, game=first, earned_at=now
        )
    Award.objects.create(
        player=player, code="spike-summit-gold", repeatable=True, game=second, earned_at=now
    )
    assert Award.objects.filter(player=player, code="spike-summit-gold").count() == 2


def test_every_spike_game_adds_to_its_badge_count(player):
    games = [spike_gold(player) for _ in range(3)]
    for game in games:
        achievements_evaluate_task.delay(str(game.id))
        achievements_evaluate_task.delay(str(game.id))

    gold = awarded(player, "spike-summit-gold")
    assert sorted(award.game_id for award in gold) == sorted(game.id for game in games)
    assert len(awarded(player, "first-win-spike")) == 1


def test_a_one_off_achievement_goes_to_the_first_game_that_earns_it(player):
    first = closed_game(player, "klondike", finished_at=timezone.now() - timedelta(hours=2))
    second = closed_game(player, "klondike")
    for game in (first, second):
        achievements_evaluate_task.delay(str(game.id))

    assert [award.game_id for award in awarded(player, "first-win-klondike")] == [first.id]


# Wiring: a game that closes enqueues the task on commit ---------------------------


def test_closing_a_game_enqueues_the_evaluation_on_commit(player):
    game = game_services.game_start(player=player, variant="klondike")
    with committed():
        game_services.game_finish(game_id=game.id, player=player, revision=game.revision)

    assert Evaluation.objects.filter(game=game).exists()
    assert codes_of(player) == set()  # a Klondike game finished without a win


def test_nothing_is_awarded_before_the_commit(player):
    game = game_services.game_start(
        player=player, variant="spike", track=casual_track(options={"mode": "classic"})
    )
    with TestCaseCallbacks() as callbacks:
        game_services.game_finish(game_id=game.id, player=player, revision=game.revision)
        assert not Evaluation.objects.filter(game=game).exists()
    # The evaluation is dispatched once, after the commit (the other callback counts
    # the finish for the metrics).
    assert [getattr(c, "func", None) for c in callbacks].count(game_closed_dispatch) == 1


class TestCaseCallbacks:
    """Capture the on-commit hooks without running them."""

    def __enter__(self):
        from django.test import TestCase

        self._context = TestCase.captureOnCommitCallbacks(execute=False)
        self.callbacks = self._context.__enter__()
        return self.callbacks

    def __exit__(self, *exc):
        return self._context.__exit__(*exc)


@override_settings(GAME_CLOSED_TASKS=["achievements.tasks.achievements_evaluate_task"])
def test_a_failing_evaluation_never_fails_the_finished_game(player, monkeypatch):
    monkeypatch.setattr(services, "game_facts", _explode)
    game = game_services.game_start(player=player, variant="klondike")
    with committed():
        game_services.game_finish(game_id=game.id, player=player, revision=game.revision)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not Evaluation.objects.filter(game=game).exists()  # the catch-up will judge it


# Backfill and catch-up -------------------------------------------------------------


def past_games(player):
    """Games closed before the achievements existed: no task ever judged them."""
    base = timezone.now() - timedelta(days=40)
    return [
        closed_game(player, "klondike", Game.Status.LOST, finished_at=base),
        closed_game(player, "klondike", finished_at=base + timedelta(days=1), undo_count=2),
        closed_game(player, "klondike", finished_at=base + timedelta(days=2), elapsed_ms=90_000),
        spike_gold(player, finished_at=base + timedelta(days=3)),
        spike_gold(player, finished_at=base + timedelta(days=3)),  # the same instant
    ]


def test_backfill_judges_every_past_game_oldest_first(player):
    _lost, first_win, fast_win, gold_a, gold_b = past_games(player)

    judged = achievements_backfill_task.delay().get()

    assert judged == 5
    assert [a.game_id for a in awarded(player, "first-win-klondike")] == [first_win.id]
    assert [a.game_id for a in awarded(player, "no-undo-win-klondike")] == [fast_win.id]
    assert [a.game_id for a in awarded(player, "klondike-under-3-minutes")] == [fast_win.id]
    assert sorted(a.game_id for a in awarded(player, "spike-summit-gold")) == sorted(
        [gold_a.id, gold_b.id]
    )
    assert awarded(player, "first-win-klondike")[0].earned_at == first_win.finished_at
    assert Evaluation.objects.count() == 5
    assert set(completed_backfills()) == set(BY_CODE)


def completed_backfills() -> list[str]:
    return list(Backfill.objects.filter(completed_at__isnull=False).values_list("code", flat=True))


def expected_awards(player, games) -> list[tuple[str, object]]:
    """The awards of the past games, each judged once, oldest first, by its own
    evaluation (in a savepoint that is rolled back)."""
    sid = transaction.savepoint()
    for game in sorted(games, key=lambda game: (game.finished_at, game.id)):
        services.achievements_evaluate(game_id=game.id)
    rows = award_rows(player)
    transaction.savepoint_rollback(sid)
    return rows


def run_queued(monkeypatch, settings, *args) -> list[tuple[str, ...]]:
    """Run the backfill task as a worker would: each run that re-queues itself
    puts its arguments on a queue, and the next message is run after it."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queue = [tuple(args)]
    monkeypatch.setattr(
        achievements_backfill_task, "apply_async", lambda codes: queue.append(tuple(codes))
    )
    runs = []
    while queue:
        codes = queue.pop(0)
        runs.append(codes)
        achievements_backfill_task.apply(args=codes)
    return runs


def test_a_backfill_over_several_chunks_re_queues_itself_and_awards_exactly_once(
    player, monkeypatch, settings
):
    games = past_games(player)
    expected = expected_awards(player, games)
    monkeypatch.setattr(services, "BACKFILL_CHUNK", 2)

    runs = run_queued(monkeypatch, settings)

    assert runs == [(), (), ()]  # 2 + 2 + 1 games, the same arguments each time
    assert award_rows(player) == expected
    assert len(expected) >= 6
    assert Evaluation.objects.count() == 5
    assert set(completed_backfills()) == set(BY_CODE)


def test_one_achievement_s_backfill_re_queues_with_its_code(player, monkeypatch, settings):
    past_games(player)
    monkeypatch.setattr(services, "BACKFILL_CHUNK", 3)

    runs = run_queued(monkeypatch, settings, "spike-summit-gold")

    assert runs == [("spike-summit-gold",)] * 2
    assert codes_of(player) == {"spike-summit-gold"}
    assert completed_backfills() == ["spike-summit-gold"]


def test_in_process_the_chunks_run_in_a_loop_not_by_recursion(player, monkeypatch):
    """With tasks run in-process, a task applying itself would nest one call per
    chunk: a long history would exhaust the stack."""
    games = past_games(player)
    expected = expected_awards(player, games)
    monkeypatch.setattr(services, "BACKFILL_CHUNK", 1)
    monkeypatch.setattr(achievements_backfill_task, "apply_async", _explode)
    chunks = []
    real_chunk = services.achievements_backfill_chunk
    monkeypatch.setattr(
        services,
        "achievements_backfill_chunk",
        lambda **kw: chunks.append(real_chunk(**kw)) or chunks[-1],
    )

    assert achievements_backfill_task.apply().get() == 5

    assert [step.judged for step in chunks] == [1, 1, 1, 1, 1, 0]
    assert award_rows(player) == expected


def test_a_chunk_killed_halfway_resumes_from_the_cursor(player, monkeypatch, settings):
    games = past_games(player)
    order = sorted(games, key=lambda game: (game.finished_at, game.id))
    expected = expected_awards(player, games)
    monkeypatch.setattr(services, "BACKFILL_CHUNK", 2)
    judged = []
    real_evaluate = services._evaluate

    def evaluate(game, achievements, *, mark):
        if game.id == order[3].id and len(judged) == 3:
            raise WorkerLost("killed in the middle of the second chunk")
        judged.append(game.id)
        return real_evaluate(game, achievements, mark=mark)

    monkeypatch.setattr(services, "_evaluate", evaluate)

    with pytest.raises(WorkerLost):
        run_queued(monkeypatch, settings)
    assert judged == [game.id for game in order[:3]]
    cursor = Backfill.objects.values_list("after_game_id", flat=True).distinct()
    assert list(cursor) == [order[1].id]  # where the first chunk ended
    assert completed_backfills() == []

    judged.clear()
    run_queued(monkeypatch, settings)  # the message delivered again

    assert judged == [game.id for game in order[2:]]  # from the cursor, not from the oldest
    assert award_rows(player) == expected
    assert set(completed_backfills()) == set(BY_CODE)


def test_a_chunk_stops_when_its_time_is_spent_and_the_next_goes_on(player, monkeypatch):
    past_games(player)

    first = services.achievements_backfill_chunk(budget_seconds=0)
    second = services.achievements_backfill_chunk(budget_seconds=0)
    rest = services.achievements_backfill_chunk()

    assert (first.judged, first.done, second.judged, second.done) == (1, False, 1, False)
    assert (rest.judged, rest.done) == (3, True)
    assert Evaluation.objects.count() == 5


def test_running_a_finished_backfill_again_does_nothing(player, monkeypatch):
    past_games(player)
    assert services.achievements_backfill(chunk=2) == 5
    rows = award_rows(player)
    monkeypatch.setattr(services, "_evaluate", _explode)

    assert services.achievements_backfill(chunk=1) == 0
    assert achievements_backfill_task.delay().get() == 0
    assert achievements_backfill_task.delay("wins-10").get() == 0
    assert award_rows(player) == rows


def test_backfill_of_one_achievement_awards_only_it(player):
    past_games(player)

    achievements_backfill_task.delay("spike-summit-gold")

    assert codes_of(player) == {"spike-summit-gold"}
    assert completed_backfills() == ["spike-summit-gold"]
    assert not Evaluation.objects.exists()  # the games still need their full evaluation


def test_backfill_refuses_an_unknown_code_or_an_empty_chunk():
    with pytest.raises(ValueError, match="Unknown achievements"):
        services.achievements_backfill(codes=["no-such-badge"])
    with pytest.raises(ValueError, match="at least one game"):
        services.achievements_backfill_chunk(chunk=0)
    assert not Backfill.objects.exists()


LOST_ONE = Achievement(
    code="klondike-lost-one",
    title="Lost one",
    description="Lose a game of Klondike.",
    game="klondike",
    icon="star",
    rule=lambda facts: facts.variant == "klondike" and facts.status == "lost",
)


def declare_lost_one(monkeypatch) -> None:
    monkeypatch.setattr(services, "ACHIEVEMENTS", (*declarations.ACHIEVEMENTS, LOST_ONE))
    monkeypatch.setitem(services.BY_CODE, LOST_ONE.code, LOST_ONE)


def test_a_newly_declared_achievement_is_backfilled_by_the_catch_up(player, monkeypatch):
    games = past_games(player)
    with committed():
        services.achievements_catch_up()  # everything is new on a fresh database
    assert services.achievements_pending_backfill() == []
    before = award_rows(player)
    declare_lost_one(monkeypatch)
    assert services.achievements_pending_backfill() == ["klondike-lost-one"]

    with committed() as callbacks:
        done = achievements_catch_up_task.delay().get()

    assert done == {"backfills_started": 1, "swept_games": 0, "swept_months": 0}
    assert len(callbacks) == 1  # the backfill task, enqueued on commit
    assert award_rows(player) == sorted([*before, ("klondike-lost-one", games[0].id)])
    assert services.achievements_pending_backfill() == []
    with committed() as callbacks:
        assert achievements_catch_up_task.delay().get() == {
            "backfills_started": 0,
            "swept_games": 0,
            "swept_months": 0,
        }
    assert callbacks == []


def test_the_catch_up_continues_a_stalled_backfill_and_leaves_a_moving_one(
    player, monkeypatch, settings
):
    """A backfill whose chain of tasks died (a chunk killed by its hard time
    limit) continues from its cursor; one that moved recently is left to its
    chain."""
    with committed():
        services.achievements_catch_up()
    games = sorted(past_games(player), key=lambda game: (game.finished_at, game.id))
    declare_lost_one(monkeypatch)
    now = timezone.now()
    Backfill.objects.create(
        code=LOST_ONE.code,
        updated_at=now - timedelta(minutes=3),
        after_finished_at=games[1].finished_at,
        after_game_id=games[1].id,
    )
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    monkeypatch.setattr(achievements_backfill_task, "apply_async", lambda *a, **kw: sent.append(a))

    with committed():
        assert services.achievements_backfill_start(now=now) == []
    with committed():
        later = now + services.BACKFILL_STALE_AFTER
        assert services.achievements_backfill_start(now=later) == [LOST_ONE.code]

    assert sent == [((LOST_ONE.code,),)]
    settings.CELERY_TASK_ALWAYS_EAGER = True
    monkeypatch.undo()
    declare_lost_one(monkeypatch)
    achievements_backfill_task.delay(LOST_ONE.code)
    assert not awarded(player, LOST_ONE.code)  # the lost game lies before the cursor
    assert completed_backfills().count(LOST_ONE.code) == 1


def test_the_catch_up_judges_closed_games_a_lost_task_missed(player):
    with committed():
        services.achievements_catch_up()  # nothing to backfill from now on
    missed = closed_game(player, "kingsley", finished_at=timezone.now() - timedelta(minutes=5))
    fresh = closed_game(player, "klondike")  # its own task may still be on its way

    done = achievements_catch_up_task.delay().get()

    assert done == {"backfills_started": 0, "swept_games": 1, "swept_months": 0}
    assert Evaluation.objects.filter(game=missed).exists()
    assert not Evaluation.objects.filter(game=fresh).exists()
    assert "first-win-kingsley" in codes_of(player)


def test_the_catch_up_skips_while_another_run_holds_the_lock(player):
    from django.core.cache import cache

    from achievements.tasks import CATCH_UP_LOCK

    cache.add(CATCH_UP_LOCK, "1", 60)
    past_games(player)
    with committed():
        assert achievements_catch_up_task.delay().get() == {
            "backfills_started": 0,
            "swept_games": 0,
            "swept_months": 0,
        }
    assert not Award.objects.exists()
    assert not Backfill.objects.exists()
