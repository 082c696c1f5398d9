"""Writes on games: each action is one transaction that locks the game row,
checks, applies the move with the engine and saves only the changed fields."""

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from games.engine import (
    EngineError,
    Move,
    Variant,
    format_move,
    get_variant,
    new_seed,
    parse_move,
    shuffled_deck,
)
from games.errors import GameClosed, MoveRefused, StaleAction
from games.models import DailyDeal, Game
from games.selectors import game_active_for_player
from leaderboards.services import result_record


@dataclass(frozen=True)
class ActionOutcome:
    """The game after an action, and what the action made happen on the table
    (engine events such as "run_removed:S") for the board to show."""

    game: Game
    events: tuple[str, ...] = ()


ACTION_FIELDS = [
    "state",
    "move_log",
    "undo_log",
    "revision",
    "move_count",
    "undo_count",
    "score",
    "final_score",
    "status",
    "elapsed_ms",
    "last_action_at",
    "deadline_at",
    "finished_at",
]
logger = logging.getLogger(__name__)
TIME_UP_MESSAGE = "Time is up: the game closed with the score it had."


def _clock_gap_ms(*, since: datetime, now: datetime) -> int:
    """The time a gap between two requests adds: never more than the idle cap."""
    cap = timedelta(seconds=settings.GAME_IDLE_GAP_CAP_SECONDS)
    gap = max(timedelta(0), min(now - since, cap))
    return int(gap.total_seconds() * 1000)


def _tick(game: Game, *, now: datetime) -> None:
    """Count the time up to `now`. A game on a clock counts real time (up to its
    deadline); any other counts each gap between actions up to the idle cap."""
    if game.deadline_at is not None:
        until = min(now, game.deadline_at)
        game.elapsed_ms = max(0, int((until - game.started_at).total_seconds() * 1000))
    else:
        game.elapsed_ms += _clock_gap_ms(since=game.last_action_at, now=now)
    game.last_action_at = now


def _deadline(game: Game, variant: Variant[Any], state: Any) -> datetime | None:
    limit = variant.time_limit_seconds(state)
    return None if limit is None else game.started_at + timedelta(seconds=limit)


def _close(game: Game, variant: Variant[Any], state: Any, *, status: str, now: datetime) -> None:
    """End the game: its final score is fixed and, if ranked, its result recorded.
    The caller saves the game row first thing after (ACTION_FIELDS)."""
    game.status = status
    game.finished_at = now
    game.final_score = variant.final_score(state, game.elapsed_ms // 1000)


def _save_closing(game: Game) -> None:
    game.save(update_fields=ACTION_FIELDS)
    if not game.is_active:
        result_record(game=game)
        transaction.on_commit(partial(game_closed_dispatch, game_id=game.id))


def game_closed_dispatch(*, game_id: UUID) -> None:
    """Hand a closed game to the tasks that follow a finish (settings.GAME_CLOSED_TASKS:
    achievements, result verification, ...). A broker that is down never fails the
    finished game: the periodic sweeps of those apps catch up."""
    for task_path in settings.GAME_CLOSED_TASKS:
        try:
            import_string(task_path).delay(str(game_id))
        except Exception:
            logger.warning("could not enqueue %s for game %s", task_path, game_id)


def game_start(
    *,
    player: User,
    variant: str,
    options: Mapping[str, Any] | None = None,
    seed: str | None = None,
    restart_of: Game | None = None,
    daily_deal: DailyDeal | None = None,
    is_ranked: bool = False,
    abandon_active: bool = True,
) -> Game:
    """Deal a new game. The player's active game of the same kind (this variant,
    or this daily deal) is abandoned: its result, if ranked, stands as it is.
    With `abandon_active=False` (resuming) an active game is kept and returned,
    and the deal is only made when there is none.

    Two deals of one kind at the same moment (a double click on New deal, two
    tabs) give one game: the database keeps the first, and the second request
    gets that game instead of dealing another.
    """
    engine_variant = get_variant(variant)
    normalized = engine_variant.normalize_options(options)
    seed = seed or new_seed()
    state = engine_variant.deal(shuffled_deck(seed), normalized)
    now = timezone.now()
    abandoned: list[UUID] = []
    try:
        with transaction.atomic():
            if abandon_active:
                abandoned = _abandon_active(
                    player=player, variant=variant, daily_deal=daily_deal, now=now
                )
            game = Game(
                player=player,
                variant=variant,
                options=normalized,
                seed=seed,
                restart_of=restart_of,
                daily_deal=daily_deal,
                is_ranked=is_ranked and engine_variant.is_ranked(normalized),
                state=engine_variant.dump(state),
                score=engine_variant.score(state),
                started_at=now,
                last_action_at=now,
            )
            game.deadline_at = _deadline(game, engine_variant, state)
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
        dealt = _active_game(player=player, variant=variant, daily_deal=daily_deal)
        if dealt is None or dealt.id in abandoned:
            raise
        return dealt
    return game


def _active_game(*, player: User, variant: str, daily_deal: DailyDeal | None) -> Game | None:
    """The player's active game of one track: a casual variant or a daily deal."""
    if daily_deal is None:
        return game_active_for_player(player=player, variant=variant)
    return Game.objects.filter(
        player=player, daily_deal=daily_deal, status=Game.Status.ACTIVE
    ).first()


def _schedule_time_up(game: Game) -> None:
    from games.tasks import schedule_time_up  # games.tasks imports this module

    schedule_time_up(game_id=game.id, deadline=game.deadline_at)


def _abandon_active(
    *, player: User, variant: str, daily_deal: DailyDeal | None, now: datetime
) -> list[UUID]:
    """Abandon the player's active game of this track; the ids abandoned."""
    # FOR NO KEY UPDATE: abandoning changes no key, and a restart's insert checks
    # its restart_of key (FOR KEY SHARE) at commit; FOR UPDATE would block that
    # check and deadlock two restarts of one deal.
    active = Game.objects.select_for_update(no_key=True).filter(
        player=player, status=Game.Status.ACTIVE
    )
    if daily_deal is None:
        active = active.filter(variant=variant, daily_deal__isnull=True)
    else:
        active = active.filter(daily_deal=daily_deal)
    abandoned = []
    for game in active:
        engine_variant = get_variant(game.variant)
        state = engine_variant.load(game.state)
        _tick(game, now=now)
        _close(game, engine_variant, state, status=Game.Status.ABANDONED, now=now)
        _save_closing(game)
        abandoned.append(game.id)
    return abandoned


def game_resume_or_start(*, player: User, variant: str) -> Game:
    """The player's active game of this variant, or a new deal when there is none.
    A deal never abandons anything here: a game another request dealt meanwhile
    is the one resumed."""
    get_variant(variant)
    return game_active_for_player(player=player, variant=variant) or game_start(
        player=player, variant=variant, abandon_active=False
    )


def game_start_daily(*, player: User, deal: DailyDeal) -> Game:
    """Resume the player's game of this daily deal, or deal it: the first attempt
    is the ranked one, every later attempt is practice."""
    active = _active_game(player=player, variant=deal.variant, daily_deal=deal)
    if active is not None:
        return active
    first_attempt = not Game.objects.filter(player=player, daily_deal=deal).exists()
    # Two requests that both see no game both deal: game_start keeps the first and
    # hands it to the second, which abandons nothing (not the ranked attempt the
    # first one just dealt).
    return game_start(
        player=player,
        variant=deal.variant,
        options=deal.options,
        seed=deal.seed,
        daily_deal=deal,
        is_ranked=first_attempt,
        abandon_active=False,
    )


def game_restart(*, game_id: UUID, player: User) -> Game:
    """Deal the same cards again as a new game (practice, for a daily deal); the old
    one, if still active, is abandoned."""
    game = Game.objects.select_related("daily_deal").get(id=game_id, player=player)
    return game_start(
        player=player,
        variant=game.variant,
        options=game.options,
        seed=game.seed,
        restart_of=game.restart_of or game,
        daily_deal=game.daily_deal,
    )


def _time_is_up(game: Game, now: datetime) -> bool:
    return game.deadline_at is not None and now >= game.deadline_at


def _close_for_time(game: Game, now: datetime) -> None:
    variant = get_variant(game.variant)
    state = variant.load(game.state)
    deadline = game.deadline_at
    if deadline is None:
        raise ValueError(f"Game {game.id} has no deadline: only a timed game closes for time.")
    _tick(game, now=deadline)
    _close(game, variant, state, status=Game.Status.FINISHED, now=min(now, deadline))
    game.revision += 1
    _save_closing(game)


def _act(
    *,
    game_id: UUID,
    player: User,
    revision: int,
    action: Callable[[Game, Variant[Any], datetime], ActionOutcome],
) -> ActionOutcome:
    """Run one action on the locked game row. A game whose clock has run out is
    closed first (and stays closed: that part commits) and the action refused."""
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(id=game_id, player=player)
        if not game.is_active:
            raise GameClosed(
                f"This game is {game.get_status_display().lower()}: its result is final."
            )
        if not _time_is_up(game, now):
            if revision != game.revision:
                raise StaleAction(
                    "That action was made on an older board (another tab or a repeated "
                    "click); here is the current one."
                )
            return action(game, get_variant(game.variant), now)
        _close_for_time(game, now)
    raise GameClosed(TIME_UP_MESSAGE)


def _apply_moves(
    game: Game, variant: Variant[Any], moves: Iterable[Move], *, now: datetime
) -> ActionOutcome:
    state = variant.load(game.state)
    events: list[str] = []
    for move in moves:
        try:
            step = variant.apply(state, move)
        except EngineError as error:
            raise MoveRefused(str(error)) from error
        state = step.state
        events.extend(step.events)
        game.move_log.append(format_move(step.move))
        game.undo_log.append(step.undo)
    _save_state(game, variant, state, now=now)
    return ActionOutcome(game=game, events=tuple(events))


def _save_state(game: Game, variant: Variant[Any], state: Any, *, now: datetime) -> None:
    _tick(game, now=now)
    game.state = variant.dump(state)
    game.move_count = len(game.move_log)
    game.score = variant.score(state)
    game.revision += 1
    if game.deadline_at is not None:
        game.deadline_at = _deadline(game, variant, state)
    status = variant.status(state)
    if status in (Game.Status.WON, Game.Status.LOST):
        _close(game, variant, state, status=status, now=now)
    _save_closing(game)


def game_move_play(*, game_id: UUID, player: User, move: str, revision: int) -> ActionOutcome:
    def play(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        try:
            parsed = parse_move(move.strip())
        except EngineError as error:
            raise MoveRefused(str(error)) from error
        return _apply_moves(game, variant, [parsed], now=now)

    return _act(game_id=game_id, player=player, revision=revision, action=play)


def game_card_tap(
    *, game_id: UUID, player: User, source: str, count: int, revision: int
) -> ActionOutcome:
    """Tap-to-move: the engine picks where the tapped card (and what it heads) goes."""

    def tap(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        try:
            move = variant.tap(variant.load(game.state), source, count)
        except EngineError as error:
            raise MoveRefused(str(error)) from error
        if move is None:
            raise MoveRefused("That card has nowhere to go.")
        return _apply_moves(game, variant, [move], now=now)

    return _act(game_id=game_id, player=player, revision=revision, action=tap)


def game_auto_complete(*, game_id: UUID, player: User, revision: int) -> ActionOutcome:
    def complete(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        moves = variant.auto_complete(variant.load(game.state))
        if not moves:
            raise MoveRefused(
                "Auto-complete is offered once every card is face up and the stock and "
                "waste are empty."
            )
        return _apply_moves(game, variant, moves, now=now)

    return _act(game_id=game_id, player=player, revision=revision, action=complete)


def game_move_undo(*, game_id: UUID, player: User, revision: int) -> ActionOutcome:
    """Take the last move back exactly, points included."""

    def undo(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        if not game.move_log:
            raise MoveRefused("There is no move to undo.")
        record = game.undo_log.pop()
        game.move_log.pop()
        game.undo_count += 1
        state = variant.undo(variant.load(game.state), record)
        _save_state(game, variant, state, now=now)
        return ActionOutcome(game=game)

    return _act(game_id=game_id, player=player, revision=revision, action=undo)


def game_finish(*, game_id: UUID, player: User, revision: int) -> ActionOutcome:
    """Make the result final: from now on every action on this game is refused."""

    def finish(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        _tick(game, now=now)
        _close(game, variant, variant.load(game.state), status=Game.Status.FINISHED, now=now)
        game.revision += 1
        _save_closing(game)
        return ActionOutcome(game=game)

    return _act(game_id=game_id, player=player, revision=revision, action=finish)


def game_close_if_time_up(*, game_id: UUID) -> bool:
    """Close a game whose clock has run out, whoever is looking (or nobody).
    Returns whether this call closed it; running it again does nothing more."""
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None or not game.is_active or not _time_is_up(game, now):
            return False
        _close_for_time(game, now)
        return True


def games_close_expired(*, player: User | None = None) -> int:
    """Close every game (of one player, if given) whose clock has run out."""
    expired = Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=timezone.now())
    if player is not None:
        expired = expired.filter(player=player)
    return sum(
        game_close_if_time_up(game_id=game_id) for game_id in expired.values_list("id", flat=True)
    )
