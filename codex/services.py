"""Writes of the Codex: playing a scenario (the player's game of it, resumed or dealt,
once its tier is open to them) and conferring its title on the leader, also at once
when the review holds a scenario's game or clears it."""

import logging
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from codex.models import TitleReign
from codex.selectors import MASTER_ARCHITECT, campaign_ledger_leader, scenario_lock_reason
from codex.tasks import master_architect_update_task
from games.codex import codex_scenario, scenario_track
from games.models import Game
from games.services import game_resume_or_start

logger = logging.getLogger(__name__)


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


def scenario_game_hold_changed(*, game: Game) -> None:
    """settings.GAME_REVIEW_HOLD_HOOKS: a scenario's game held by the review, or cleared,
    changes the campaign ledgers (the campaign and its leaderboards read the games as
    they are): the title is conferred again once that commits."""
    if game.track == Game.Track.SCENARIO:
        transaction.on_commit(_master_architect_update_enqueue)


def _master_architect_update_enqueue() -> None:
    try:
        master_architect_update_task.apply_async(retry=False)
    except Exception:
        logger.warning("the Master Architect's update not enqueued; the beat will run it")


def master_architect_update(*, now: datetime | None = None) -> int | None:
    """Move the Master Architect's open reign to the campaign's ledger leader (or close
    it when nobody leads) and keep the holder's ledger current. Returns the holder's
    id. Derived from the scenario games alone: a lost run only delays the move."""
    moment = now or timezone.now()
    leader = campaign_ledger_leader()
    with transaction.atomic():
        reign = (
            TitleReign.objects.select_for_update()
            .filter(code=MASTER_ARCHITECT, ended_at__isnull=True)
            .first()
        )
        if reign is not None and leader is not None and reign.player_id == leader.player_id:
            if reign.figure != leader.ledger:
                reign.figure = leader.ledger
                reign.save(update_fields=["figure"])
            return leader.player_id
        if reign is not None:
            reign.ended_at = moment
            reign.save(update_fields=["ended_at"])
        if leader is None:
            return None
        # Two runs racing with no reign open: the partial unique constraint keeps one.
        TitleReign.objects.bulk_create(
            [
                TitleReign(
                    code=MASTER_ARCHITECT,
                    player_id=leader.player_id,
                    figure=leader.ledger,
                    started_at=moment,
                )
            ],
            ignore_conflicts=True,
        )
        return leader.player_id
