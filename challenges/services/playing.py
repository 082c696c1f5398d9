"""Playing a challenge and recording its completion.

A challenge's games are on its own track, with its goal: the move that first meets the
goal sets the game's ``goal_met_at`` (games.services.actions) and, in the same
transaction, the action hook here records the completion, once per player and
challenge whatever races it (the database's unique constraint, ON CONFLICT DO NOTHING).
Stars count in the challenge's month: a goal met after that month is over is a
practice game (docs/challenges.md). A game the review holds (under review, voided)
completes nothing: the completion is worked out again from the player's games of the
challenge whenever a hold changes (`completion_rebuild`)."""

import logging
from datetime import date, datetime
from functools import partial
from types import MappingProxyType
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.module_loading import import_string

from challenges.errors import ChallengeRefused
from challenges.models import Challenge, Completion
from challenges.selectors import counts_for_stars, day_open, month_of
from games.models import Game
from games.services import game_resume_or_start
from games.tracks import Track

logger = logging.getLogger(__name__)


def challenge_track(*, challenge: Challenge) -> Track:
    return Track(
        kind=Game.Track.CHALLENGE,
        ref=challenge.track_ref,
        seed=challenge.seed,
        options=MappingProxyType(dict(challenge.options)),
        goal=MappingProxyType(dict(challenge.goal)),
    )


def challenge_play(*, player: User, challenge_id: int, today: date) -> Game:
    """The player's game of the challenge: the one in progress, or a new deal of it.
    A challenge of a later day is not open yet (ChallengeRefused)."""
    challenge = Challenge.objects.filter(id=challenge_id).first()
    if challenge is None:
        raise Challenge.DoesNotExist("No such challenge")
    if not day_open(day=challenge.date, today=today):
        raise ChallengeRefused(f"This challenge opens on {challenge.date:%d %B %Y} (UTC).")
    return game_resume_or_start(
        player=player, variant=challenge.variant, track=challenge_track(challenge=challenge)
    )


def challenge_game_acted(*, game: Game, state: Any = None, state_before: Any = None) -> None:
    """GAME_ACTION_HOOKS: record the completion of the challenge whose goal this action
    met (judged as the action saved the game: the positions are not needed). Returns at
    once for every other action."""
    if game.track != Game.Track.CHALLENGE or not game.goal_met_now or game.goal_met_at is None:
        return
    completion_record(game=game, met_at=game.goal_met_at)


def completion_record(*, game: Game, met_at: datetime) -> None:
    """Record that the game met its challenge's goal at `met_at`, once per player and
    challenge; the tasks that follow a completion (the month's badges) are enqueued on
    commit. A goal met after the challenge's month earns nothing."""
    challenge = Challenge.objects.only("id", "date", "difficulty").get(id=int(game.track_ref))
    if not counts_for_stars(challenge=challenge, day=met_at.date()):
        return
    Completion.objects.bulk_create(
        [
            Completion(
                challenge=challenge,
                player_id=game.player_id,
                game=game,
                stars=challenge.stars,
                month=month_of(challenge.date),
                completed_at=met_at,
            )
        ],
        ignore_conflicts=True,
    )
    transaction.on_commit(
        partial(_completed_dispatch, player_id=game.player_id, month=month_of(challenge.date))
    )


def challenge_game_hold_changed(*, game: Game) -> None:
    """settings.GAME_REVIEW_HOLD_HOOKS: the review held a challenge's game, or cleared
    it: the player's completion of the challenge is worked out again."""
    if game.track != Game.Track.CHALLENGE:
        return
    challenge = Challenge.objects.only("id", "date", "difficulty").get(id=int(game.track_ref))
    completion_rebuild(player_id=game.player_id, challenge=challenge)


def completion_rebuild(*, player_id: int, challenge: Challenge) -> Completion | None:
    """The player's completion of the challenge, from their games of it: the first
    that met the goal on a day that earns its stars, of those the review does not hold
    (Game.review_hold); none, and there is no completion. A completion written (back)
    has the month's badges judged again once it commits; one that goes takes its stars
    off the month, its leaderboard and every badge not awarded yet."""
    attempts = (
        Game.objects.counted()
        .filter(
            player_id=player_id,
            track=Game.Track.CHALLENGE,
            track_ref=challenge.track_ref,
            goal_met_at__isnull=False,
        )
        .order_by("goal_met_at", "id")
        .values_list("id", "goal_met_at")
    )
    first = next(
        (
            (game_id, met_at)
            for game_id, met_at in attempts
            if met_at is not None and counts_for_stars(challenge=challenge, day=met_at.date())
        ),
        None,
    )
    mine = Completion.objects.filter(challenge=challenge, player_id=player_id)
    if first is None:
        # An attempt that meets the goal meanwhile (its own move records it) stays.
        mine.exclude(game__review_hold="").delete()
        return None
    game_id, met_at = first
    (completion,) = Completion.objects.bulk_create(
        [
            Completion(
                challenge=challenge,
                player_id=player_id,
                game_id=game_id,
                stars=challenge.stars,
                month=month_of(challenge.date),
                completed_at=met_at,
            )
        ],
        update_conflicts=True,
        unique_fields=["challenge", "player"],
        update_fields=["game", "stars", "month", "completed_at"],
    )
    transaction.on_commit(
        partial(_completed_dispatch, player_id=player_id, month=month_of(challenge.date))
    )
    return completion


def _completed_dispatch(*, player_id: int, month: date) -> None:
    for task_path in settings.CHALLENGE_COMPLETED_TASKS:
        try:
            import_string(task_path).delay(player_id, month.isoformat())
        except Exception:
            # A broker that is down never fails the move: the catch-up task evaluates
            # the month's badges again.
            logger.warning("could not enqueue %s for player %s", task_path, player_id)
