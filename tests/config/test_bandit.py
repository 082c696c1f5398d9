"""Bandit over the project's own code, as `make lint` runs it (pyproject.toml's
[tool.bandit]): no medium or high finding, and no assert standing in for a check
in the services (python -O strips asserts)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import services as game_services
from games.models import Game
from games.services.actions import _close_for_time as close_for_time

ROOT = Path(__file__).resolve().parents[2]


def bandit_report() -> dict:
    run = subprocess.run(
        [sys.executable, "-m", "bandit", "-q", "-c", "pyproject.toml", "-r", ".", "-f", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report = json.loads(run.stdout)
    assert not report["errors"], report["errors"]
    return report


def test_bandit_scans_the_apps_but_not_tests_migrations_or_the_virtualenv():
    scanned = {Path(name).parts[0] for name in bandit_report()["metrics"] if name != "_totals"}
    assert {"accounts", "achievements", "config", "games", "leaderboards", "reviews"} <= scanned
    assert not scanned & {".venv", ".tools", "tests", "migrations"}


def test_no_medium_or_high_finding_and_no_assert_in_the_services():
    findings = bandit_report()["results"]
    serious = [f for f in findings if f["issue_severity"] in {"MEDIUM", "HIGH"}]
    assert serious == [], [(f["filename"], f["line_number"], f["test_id"]) for f in serious]
    asserts = [
        (f["filename"], f["line_number"])
        for f in findings
        if f["test_id"] == "B101"
        and (
            Path(f["filename"]).as_posix().startswith("games/services/")
            or Path(f["filename"]).as_posix() == "achievements/services.py"
        )
    ]
    assert asserts == []


@pytest.mark.django_db
def test_closing_for_time_a_game_without_a_deadline_is_refused_with_a_reason(player):
    game = game_services.game_start(player=player, variant="klondike")
    assert game.deadline_at is None
    with pytest.raises(ValueError, match="has no deadline: only a timed game closes for time"):
        close_for_time(game, game.started_at)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
