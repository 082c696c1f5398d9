"""The declarations: one place, well-formed, every icon drawn."""

import re
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string

from achievements.declarations import ACHIEVEMENTS, BY_CODE, GAMES

ICONS = (Path(settings.BASE_DIR) / "templates/achievements/_icon.html").read_text()


def test_codes_are_unique_and_stable_slugs():
    assert len(BY_CODE) == len(ACHIEVEMENTS)
    for achievement in ACHIEVEMENTS:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", achievement.code)
        assert len(achievement.code) <= 64


def test_every_achievement_has_a_title_a_description_and_a_known_game():
    for achievement in ACHIEVEMENTS:
        assert achievement.title
        assert achievement.description.endswith(".")
        assert achievement.game is None or achievement.game in GAMES


def test_every_icon_is_drawn():
    for achievement in ACHIEVEMENTS:
        assert f'"{achievement.icon}"' in ICONS, achievement.icon
        svg = render_to_string("achievements/_icon.html", {"icon": achievement.icon})
        assert 'aria-hidden="true"' in svg
        assert "<path" in svg or svg.count("<circle") > 1


def test_the_repeatable_badges():
    assert {a.code for a in ACHIEVEMENTS if a.repeatable} == {
        "spike-summit-gold",
        "spike-summit-silver",
        "spike-summit-bronze",
        "steps-master-architect",
        "sprint-clear",
    }


def test_the_first_set_is_declared():
    expected = {
        "spike-summit-bronze",
        "spike-summit-silver",
        "spike-summit-gold",
        "steps-flawless-ascension",
        "steps-master-architect",
        "wins-10",
        "wins-100",
        "daily-streak-3",
        "daily-streak-7",
        "daily-streak-30",
        "klondike-under-3-minutes",
        "spiderette-all-four-runs",
        "first-match-win",
        "sprint-clear",
        "duel-won-by-100",
        *(f"first-win-{key}" for key in ("klondike", "kingsley", "spiderette", "spike", "steps")),
        *(f"no-undo-win-{key}" for key in ("klondike", "kingsley", "spiderette", "spike", "steps")),
    }
    assert set(BY_CODE) == expected
