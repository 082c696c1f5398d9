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
    game = game_services.game_start(player=player, variant="spike", options={"mode": "classic"})
    with TestCaseCallbacks() as callbacks:
        game_services.game_finish(game_id=game.id, player=player, revision=game.revision)
        assert not Evaluation.objects.filter(game=game).exists()
    assert len(callbacks) == 1


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
    assert set(Backfill.objects.values_list("code", flat=True)) == set(BY_CODE)


def test_backfill_twice_changes_nothing_and_works_in_small_chunks(player):
    past_games(player)
    services.achievements_backfill(chunk=2)
    rows = award_rows(player)

    assert services.achievements_backfill(chunk=1) == 5
    assert award_rows(player) == rows


def test_backfill_of_one_achievement_awards_only_it(player):
    past_games(player)

    achievements_backfill_task.delay("spike-summit-gold")

    assert codes_of(player) == {"spike-summit-gold"}
    assert list(Backfill.objects.values_list("code", flat=True)) == ["spike-summit-gold"]
    assert not Evaluation.objects.exists()  # the games still need their full evaluation


def test_backfill_refuses_an_unknown_code():
    with pytest.raises(ValueError, match="Unknown achievements"):
        services.achievements_backfill(codes=["no-such-badge"])


def test_a_newly_declared_achievement_is_backfilled_by_the_catch_up(player, monkeypatch):
    games = past_games(player)
    services.achievements_catch_up()  # everything is new on a fresh database
    assert services.achievements_pending_backfill() == []
    before = award_rows(player)

    lost_one = Achievement(
        code="klondike-lost-one",
        title="Lost one",
        description="Lose a game of Klondike.",
        game="klondike",
        icon="star",
        rule=lambda facts: facts.variant == "klondike" and facts.status == "lost",
    )
    monkeypatch.setattr(services, "ACHIEVEMENTS", (*declarations.ACHIEVEMENTS, lost_one))
    monkeypatch.setitem(services.BY_CODE, lost_one.code, lost_one)
    assert services.achievements_pending_backfill() == ["klondike-lost-one"]

    done = achievements_catch_up_task.delay().get()

    assert done == {"backfilled_games": 5, "swept_games": 0}
    assert award_rows(player) == sorted([*before, ("klondike-lost-one", games[0].id)])
    assert services.achievements_pending_backfill() == []
    assert achievements_catch_up_task.delay().get() == {"backfilled_games": 0, "swept_games": 0}


def test_the_catch_up_judges_closed_games_a_lost_task_missed(player):
    services.achievements_catch_up()  # nothing to backfill from now on
    missed = closed_game(player, "kingsley", finished_at=timezone.now() - timedelta(minutes=5))
    fresh = closed_game(player, "klondike")  # its own task may still be on its way

    done = achievements_catch_up_task.delay().get()

    assert done == {"backfilled_games": 0, "swept_games": 1}
    assert Evaluation.objects.filter(game=missed).exists()
    assert not Evaluation.objects.filter(game=fresh).exists()
    assert "first-win-kingsley" in codes_of(player)


def test_the_catch_up_skips_while_another_run_holds_the_lock(player):
    from django.core.cache import cache

    from achievements.tasks import CATCH_UP_LOCK

    cache.add(CATCH_UP_LOCK, "1", 60)
    past_games(player)
    assert achievements_catch_up_task.delay().get() == {"backfilled_games": 0, "swept_games": 0}
    assert not Award.objects.exists()
