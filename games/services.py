"""Writes on games: each action is one transaction that locks the game row,
checks, applies the move with the engine and saves only the changed fields."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

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
from games.models import Game


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
    "score",
    "status",
    "elapsed_ms",
    "last_action_at",
    "finished_at",
]


def _clock_gap_ms(*, since: datetime, now: datetime) -> int:
    """The time a gap between two requests adds: never more than the idle cap."""
    cap = timedelta(seconds=settings.GAME_IDLE_GAP_CAP_SECONDS)
    gap = max(timedelta(0), min(now - since, cap))
    return int(gap.total_seconds() * 1000)


def _tick(game: Game, *, now: datetime) -> None:
    game.elapsed_ms += _clock_gap_ms(since=game.last_action_at, now=now)
    game.last_action_at = now


def game_start(
    *,
    player: User,
    variant: str,
    options: Mapping[str, Any] | None = None,
    seed: str | None = None,
    restart_of: Game | None = None,
) -> Game:
    """Deal a new game; the player's active game of this variant is abandoned."""
    engine_variant = get_variant(variant)
    normalized = engine_variant.normalize_options(options)
    seed = seed or new_seed()
    state = engine_variant.deal(shuffled_deck(seed), normalized)
    now = timezone.now()
    with transaction.atomic():
        Game.objects.select_for_update().filter(
            player=player, variant=variant, status=Game.Status.ACTIVE
        ).update(status=Game.Status.ABANDONED, finished_at=now)
        return Game.objects.create(
            player=player,
            variant=variant,
            options=normalized,
            seed=seed,
            restart_of=restart_of,
            state=engine_variant.dump(state),
            score=engine_variant.score(state),
            started_at=now,
            last_action_at=now,
        )


def game_resume_or_start(*, player: User, variant: str) -> Game:
    """The player's active game of this variant, or a new deal when there is none."""
    get_variant(variant)
    game = Game.objects.filter(player=player, variant=variant, status=Game.Status.ACTIVE).first()
    return game or game_start(player=player, variant=variant)


def game_restart(*, game_id: UUID, player: User) -> Game:
    """Deal the same cards again as a new game; the old one, if still active, is abandoned."""
    game = Game.objects.get(id=game_id, player=player)
    return game_start(
        player=player,
        variant=game.variant,
        options=game.options,
        seed=game.seed,
        restart_of=game.restart_of or game,
    )


def _lock_for_action(*, game_id: UUID, player: User, revision: int) -> Game:
    game = Game.objects.select_for_update().get(id=game_id, player=player)
    if not game.is_active:
        raise GameClosed(f"This game is {game.get_status_display().lower()}: its result is final.")
    if revision != game.revision:
        raise StaleAction(
            "That action was made on an older board (another tab or a repeated click); "
            "here is the current one."
        )
    return game


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
    status = variant.status(state)
    if status in (Game.Status.WON, Game.Status.LOST):
        game.status = status
        game.finished_at = now
    game.save(update_fields=ACTION_FIELDS)


@transaction.atomic
def game_move_play(*, game_id: UUID, player: User, move: str, revision: int) -> ActionOutcome:
    game = _lock_for_action(game_id=game_id, player=player, revision=revision)
    variant = get_variant(game.variant)
    try:
        parsed = parse_move(move.strip())
    except EngineError as error:
        raise MoveRefused(str(error)) from error
    return _apply_moves(game, variant, [parsed], now=timezone.now())


@transaction.atomic
def game_card_tap(
    *, game_id: UUID, player: User, source: str, count: int, revision: int
) -> ActionOutcome:
    """Tap-to-move: the engine picks where the tapped card (and what it heads) goes."""
    game = _lock_for_action(game_id=game_id, player=player, revision=revision)
    variant = get_variant(game.variant)
    try:
        move = variant.tap(variant.load(game.state), source, count)
    except EngineError as error:
        raise MoveRefused(str(error)) from error
    if move is None:
        raise MoveRefused("That card has nowhere to go.")
    return _apply_moves(game, variant, [move], now=timezone.now())


@transaction.atomic
def game_auto_complete(*, game_id: UUID, player: User, revision: int) -> ActionOutcome:
    game = _lock_for_action(game_id=game_id, player=player, revision=revision)
    variant = get_variant(game.variant)
    moves = variant.auto_complete(variant.load(game.state))
    if not moves:
        raise MoveRefused(
            "Auto-complete is offered once every card is face up and the stock and waste are empty."
        )
    return _apply_moves(game, variant, moves, now=timezone.now())


@transaction.atomic
def game_move_undo(*, game_id: UUID, player: User, revision: int) -> ActionOutcome:
    """Take the last move back exactly, points included."""
    game = _lock_for_action(game_id=game_id, player=player, revision=revision)
    if not game.move_log:
        raise MoveRefused("There is no move to undo.")
    variant = get_variant(game.variant)
    record = game.undo_log.pop()
    game.move_log.pop()
    state = variant.undo(variant.load(game.state), record)
    _save_state(game, variant, state, now=timezone.now())
    return ActionOutcome(game=game)


@transaction.atomic
def game_finish(*, game_id: UUID, player: User, revision: int) -> ActionOutcome:
    """Make the result final: from now on every action on this game is refused."""
    game = _lock_for_action(game_id=game_id, player=player, revision=revision)
    now = timezone.now()
    _tick(game, now=now)
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.revision += 1
    game.save(update_fields=["status", "finished_at", "elapsed_ms", "last_action_at", "revision"])
    return ActionOutcome(game=game)
