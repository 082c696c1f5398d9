"""Every task has a name, a soft and a hard time limit, and fits inside the
broker's visibility timeout; a killed sweep blocks the next one for minutes."""

import ast
from datetime import timedelta
from pathlib import Path
from uuid import uuid4

import pytest
from django.conf import settings
from django.utils import timezone

from achievements import tasks as achievement_tasks
from config.celery import app
from games import tasks as game_tasks
from reviews import tasks as review_tasks

ROOT = Path(__file__).resolve().parents[2]
TASK_MODULES = [
    "games",
    "leaderboards",
    "matches",
    "challenges",
    "codex",
    "achievements",
    "reviews",
]


def project_tasks():
    app.loader.import_default_modules()
    return {
        name: task
        for name, task in app.tasks.items()
        if name.split(".", 1)[0] in TASK_MODULES and not name.startswith("celery.")
    }


def declared_tasks():
    """(module, function, keywords of its @shared_task) for every task in the code."""
    for module in TASK_MODULES:
        tree = ast.parse((ROOT / module / "tasks.py").read_text())
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                call = decorator if isinstance(decorator, ast.Call) else None
                target = call.func if call else decorator
                if isinstance(target, ast.Name) and target.id == "shared_task":
                    keywords = {k.arg: k.value for k in call.keywords} if call else {}
                    yield module, node.name, keywords


def test_every_task_is_declared_with_its_dotted_name_and_both_time_limits():
    declared = list(declared_tasks())
    assert len(declared) == len(project_tasks()) >= 13
    for module, function, keywords in declared:
        where = f"{module}.tasks.{function}"
        assert "name" in keywords, f"{where} has no explicit name"
        assert ast.literal_eval(keywords["name"]) == where
        assert "soft_time_limit" in keywords, f"{where} has no soft time limit"
        assert "time_limit" in keywords, f"{where} has no hard time limit"


@pytest.mark.parametrize("name", sorted(project_tasks()))
def test_a_task_is_stopped_softly_before_it_is_killed_and_acknowledges_late(name):
    task = project_tasks()[name]
    assert task.acks_late is True
    assert 0 < task.soft_time_limit < task.time_limit


def test_the_scheduled_and_the_on_close_tasks_are_registered_under_their_names():
    names = set(project_tasks())
    assert {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} <= names
    assert set(settings.GAME_CLOSED_TASKS) <= names
    assert set(settings.MATCH_SETTLED_TASKS) <= names
    assert set(settings.CHALLENGE_COMPLETED_TASKS) <= names


def test_the_visibility_timeout_is_minutes_and_exceeds_every_hard_time_limit():
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    longest = max(task.time_limit for task in project_tasks().values())
    assert longest + 60 <= timeout <= 30 * 60


def test_a_retry_waits_and_runs_within_the_visibility_timeout():
    """A retry is a message with a countdown that the worker holds unacknowledged."""
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    for task in project_tasks().values():
        if getattr(task, "autoretry_for", ()):
            assert task.retry_backoff_max + task.time_limit < timeout, task.name


@pytest.mark.parametrize(
    ("lock", "task"),
    [
        (review_tasks.SWEEP_LOCK_SECONDS, review_tasks.reviews_sweep_task),
        (achievement_tasks.CATCH_UP_LOCK_SECONDS, achievement_tasks.achievements_catch_up_task),
    ],
    ids=["reviews-sweep", "achievements-catch-up"],
)
def test_a_sweep_lock_lapses_soon_after_the_sweep_could_still_be_running(lock, task):
    assert task.time_limit < lock <= task.time_limit + 120


@pytest.mark.parametrize(
    ("ahead", "expected"),
    [(timedelta(minutes=3), "deadline"), (timedelta(hours=2), "hop")],
    ids=["near-deadline", "far-deadline"],
)
def test_the_clock_task_never_waits_beyond_half_the_visibility_timeout(
    settings, monkeypatch, ahead, expected
):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    monkeypatch.setattr(
        game_tasks.game_time_up_task, "apply_async", lambda args, eta: sent.append(eta)
    )
    before = timezone.now()
    deadline = before + ahead
    game_tasks.schedule_time_up(game_id=uuid4(), deadline=deadline)
    half = timedelta(seconds=settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] / 2)
    [eta] = sent
    if expected == "deadline":
        assert eta == deadline
    else:
        assert before + half <= eta <= timezone.now() + half
