"""Dealing games: a new deal on a track, a restart of the same cards, resuming."""

from datetime import datetime
from uuid import UUID

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.clock import clock_deadline, clock_tick
from games.engine import get_variant, new_seed
from games.engine.goals import goal_of
from games.errors import MoveRefused
from games.models import Game
from games.selectors import game_active_on_track
from games.services.closing import closing_status, game_close, game_save_action
from games.services.pool import pool_deal
from games.tasks import schedule_time_up
from games.tracks import Track, casual_track, track_of
from games.variants import game_variant


def game_start(
    *,
    player: User,
    variant: str,
    track: Track | None = None,
    restart_of: Game | None = None,
    abandon_active: bool = True,
) -> Game:
    """Deal a new game on its track (casual when none is given). The player's active
    game of the same variant and track is abandoned: its result, if ranked, stands
    as it is. With `abandon_active=False` (resuming) an active game is kept and
    returned, and the deal is only made when there is none.

    Two deals on one track at the same moment (a double click on New deal, two
    tabs) give one game: the database keeps the first, and the second request
    gets that game instead of dealing another.
    """
    track = track or casual_track()
    engine_variant = get_variant(variant)
    normalized = engine_variant.normalize_options(track.options)
    goal = goal_of(track.goal, engine_variant).as_json() if track.goal else {}
    # Winnable deals only (games.services.pool): a new casual deal comes from the pool;
    # a restart deals the same seed again and keeps its certificate.
    seed = track.seed
    certified_seed_id = restart_of.certified_seed_id if restart_of is not None else None
    if seed is None and track.kind == Game.Track.CASUAL:
        certified = pool_deal(player=player, variant=variant, options=normalized)
        if certified is not None:
            seed, certified_seed_id = certified.seed, certified.pk
    seed = seed or new_seed()
    state = engine_variant.deal(engine_variant.deck_of_seed(seed), normalized)
    now = track.starts_at or timezone.now()
    abandoned: list[UUID] = []
    try:
        with transaction.atomic():
            if abandon_active:
                abandoned = _abandon_active(player=player, variant=variant, track=track, now=now)
            game = Game(
                player=player,
                variant=variant,
                options=normalized,
                seed=seed,
                track=track.kind,
                track_ref=track.ref,
                rules_version=engine_variant.rules_version,
                restart_of=restart_of,
                certified_seed_id=certified_seed_id,
                is_ranked=track.ranked and engine_variant.is_ranked(normalized),
                state=engine_variant.dump(state),
                score=engine_variant.score(state),
                started_at=now,
                last_action_at=now,
                time_limit_seconds=track.time_limit_seconds,
                undo_limit=track.undo_limit,
                goal=goal,
            )
            game.deadline_at = clock_deadline(
                game, rules_limit=engine_variant.time_limit_seconds(state)
            )
            game.save(force_insert=True)
            if game.deadline_at is not None:
                transaction.on_commit(lambda: _schedule_time_up(game))
    except IntegrityError:
        # Under READ COMMITTED the other request locked and abandoned the old game
        # and inserted its own while this one waited for the lock; this one then
        # found no active game and its insert broke the one-active-game rule (as
        # does any insert beside an active game when nothing is abandoned). The
        # savepoint is rolled back and the other request's game, committed by now,
        # is the one to play. A game this call abandoned is active again after the
        # rollback: then no other request dealt, the insert broke another rule.
        dealt = game_active_on_track(
            player=player, variant=variant, track=track.kind, ref=track.ref
        )
        if dealt is None or dealt.id in abandoned:
            raise
        return dealt
    return game


def _schedule_time_up(game: Game) -> None:
    schedule_time_up(game_id=game.id, deadline=game.deadline_at)


def _abandon_active(*, player: User, variant: str, track: Track, now: datetime) -> list[UUID]:
    """Abandon the player's active game of this variant and track; the ids abandoned.
    A game left in a lost position closes as lost: leaving it records the loss."""
    # FOR NO KEY UPDATE: abandoning changes no key, and a restart's insert checks
    # its restart_of key (FOR KEY SHARE) at commit; FOR UPDATE would block that
    # check and deadlock two restarts of one deal.
    active = Game.objects.select_for_update(no_key=True).filter(
        player=player,
        status=Game.Status.ACTIVE,
        variant=variant,
        track=track.kind,
        track_ref=track.ref,
    )
    abandoned = []
    for game in active:
        engine_variant = game_variant(game)
        state = engine_variant.load(game.state)
        clock_tick(game, now=now)
        status = closing_status(engine_variant, state, otherwise=Game.Status.ABANDONED)
        game_close(game, engine_variant, state, status=status, now=now)
        game_save_action(game)
        abandoned.append(game.id)
    return abandoned


def game_resume_or_start(*, player: User, variant: str, track: Track | None = None) -> Game:
    """The player's active game of this variant on the track (casual when none is
    given: a daily challenge's, a Codex scenario's), or a new deal on it when there is
    none. A deal never abandons anything here: a game another request dealt meanwhile
    is the one resumed."""
    get_variant(variant)
    track = track or casual_track()
    active = game_active_on_track(player=player, variant=variant, track=track.kind, ref=track.ref)
    return active or game_start(player=player, variant=variant, track=track, abandon_active=False)


def game_restart(*, game_id: UUID, player: User) -> Game:
    """Deal the same cards again as a new game on the same track (practice, for a
    daily deal); the old one, if still active, is abandoned."""
    game = Game.objects.get(id=game_id, player=player)
    if game.track == Game.Track.MATCH:
        raise MoveRefused("A match's game is not restarted: every seat plays the deal once.")
    return game_start(
        player=player,
        variant=game.variant,
        track=track_of(game),
        restart_of=game.restart_of or game,
    )
