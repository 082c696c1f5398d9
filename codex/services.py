"""Playing a Codex scenario: the player's game of it, resumed or dealt, once its tier
is open to them."""

from django.contrib.auth.models import User

from codex.selectors import scenario_lock_reason
from games.codex import codex_scenario, scenario_track
from games.models import Game
from games.services import game_resume_or_start


class ScenarioUnknown(Exception):
    """No scenario of the Codex has this key."""


class ScenarioRefused(Exception):
    """The scenario may not be played yet, and why (the message says it)."""


def scenario_play(*, player: User, key: str) -> Game:
    """The player's game of the scenario: the one in progress, or a new deal of it.
    A scenario of a tier still locked to the player is refused (ScenarioRefused)."""
    scenario = codex_scenario(key)
    if scenario is None:
        raise ScenarioUnknown(f"No scenario {key!r} in the Codex")
    reason = scenario_lock_reason(player=player, scenario=scenario)
    if reason:
        raise ScenarioRefused(f"{reason}.")
    return game_resume_or_start(player=player, variant="steps", track=scenario_track(scenario))
