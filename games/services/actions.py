"""Actions on a game: move, tap, undo, auto-complete, finish, accepting a loss, and
the clock running out. Each is one transaction: lock the game row, check, apply, save
the changed fields (games.services.closing.ACTION_FIELDS) with one UPDATE.

A move into a lost position does not close the game: undo is unlimited, so the loss
is announced (the board says why and offers Undo or Accept the loss) and the game
stays active; every other move is refused with the reason. Accepting the loss, Finish,
the clock running out or leaving the game for a new deal close it as lost."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.session_user import UserClaim
from core.metrics import move_counted
from games.clock import clock_deadline, clock_is_up, clock_tick
from games.engine import EngineError, Move, Step, Variant, format_move, parse_move
from games.errors import GameClosed, MoveRefused, StaleAction
from games.goals import game_goal_progress
from games.models import Game
from games.services.closing import closing_status, game_close, game_save_action
from games.services.locked_read import game_locked_for_action
from games.services.logs import game_log_step
from games.specs import game_spec
from games.variants import game_variant


@dataclass(frozen=True)
class ActionOutcome:
    """The game after an action, and what the action made happen on the table
    (engine events such as "run_removed:S") for the board to show."""

    game: Game
    events: tuple[str, ...] = ()
    state: Any = None
    """The position after the action as the engine holds it, when the action loaded it:
    the board shows it without loading the stored state again."""


TIME_UP_MESSAGE = "Time is up: the game closed with the score it had."


def undo_limit_message(limit: int) -> str:
    if limit == 0:
        return "This game allows no move to be taken back."
    taken = "move" if limit == 1 else "moves"
    return f"This game allows {limit} {taken} taken back, and all are used."


NOT_A_GAME_MESSAGE = "This board is played on its match's page."


def _close_for_time(game: Game, now: datetime) -> None:
    variant = game_variant(game)
    state = variant.load(game.state)
    deadline = game.deadline_at
    if deadline is None:
        raise ValueError(f"Game {game.id} has no deadline: only a timed game closes for time.")
    clock_tick(game, now=deadline)
    status = closing_status(variant, state, otherwise=Game.Status.FINISHED)
    game_close(game, variant, state, status=status, now=min(now, deadline))
    game.revision += 1
    game_save_action(game, state=state, state_before=state)


def game_act(
    *,
    game_id: UUID,
    player: User | UserClaim,
    revision: int,
    action: Callable[[Game, Variant[Any], datetime], ActionOutcome],
    reads_undo_log: bool = False,
) -> ActionOutcome:
    """Run one action on the locked game row. A game whose clock has run out is
    closed first (and stays closed: that part commits) and the action refused.
    `player` is the user, or a session's claim to one, whose row the locked read brings
    and the claim accepts (accounts.session_user); a claim refused raises SignedOut."""
    now = timezone.now()
    with transaction.atomic():
        # The player's preferences come with the locked read (one query): the move
        # needs the automatic-moves setting and the board the highlighting one.
        game = game_locked_for_action(game_id=game_id, player=player, reads_undo_log=reads_undo_log)
        if not game.is_active:
            raise GameClosed(
                f"This game is {game.get_status_display().lower()}: its result is final."
            )
        if game_spec(game.variant) is None:
            # An engine variant the site offers no game of (the Duel's shared board) is
            # played through its own app's rules (its turns), never as a game.
            raise MoveRefused(NOT_A_GAME_MESSAGE)
        if not clock_is_up(game, now=now):
            if revision != game.revision:
                raise StaleAction(
                    "That action was made on an older board (another tab or a repeated "
                    "click); here is the current one."
                )
            return action(game, game_variant(game), now)
        _close_for_time(game, now)
    raise GameClosed(TIME_UP_MESSAGE)


def _apply_moves(
    game: Game,
    variant: Variant[Any],
    state: Any,
    moves: Iterable[Move],
    *,
    now: datetime,
    then_safe_moves: bool = False,
) -> ActionOutcome:
    """Apply the moves to the game's position `state` (loaded once by the action) and
    log each; with ``then_safe_moves`` and the player's automatic-moves setting on,
    then the safe moves to the foundations they allow, each logged as a move of its
    own (so replay, review and undo see them as the player's) and announced as
    "auto_foundation:<card>"."""
    before = state
    events: list[str] = []

    def log(step: Step[Any]) -> None:
        events.extend(step.events)
        game_log_step(game, move=format_move(step.move), undo=step.undo)

    for move in moves:
        try:
            step = variant.apply(state, move)
        except EngineError as error:
            raise MoveRefused(str(error)) from error
        state = step.state
        log(step)
    if then_safe_moves and game.player_auto_foundation:
        for move in variant.safe_foundation_moves(state):
            step = variant.apply(state, move)
            state = step.state
            events.append(f"auto_foundation:{step.undo['cards'][0]}")
            log(step)
    _save_state(game, variant, state, now=now, before=before)
    move_counted(variant=game.variant)
    return ActionOutcome(game=game, events=tuple(events), state=state)


def game_state_record(game: Game, variant: Variant[Any], state: Any, *, now: datetime) -> None:
    """Put the position after an action on the game (its clock, state, move count,
    score, revision and deadline), the moves already logged; the caller closes the
    game if the action ended it and saves it (closing.game_save_action)."""
    clock_tick(game, now=now)
    game.state = variant.dump(state)
    game.move_count = len(game.move_log)
    game.score = variant.score(state)
    game.revision += 1
    # Bonus time moves a deadline the rules give; a track's own limit stays.
    game.deadline_at = clock_deadline(game, rules_limit=variant.time_limit_seconds(state))
    if game.goal and game.goal_met_at is None:
        progress = game_goal_progress(game, variant, state)
        if progress is not None and progress.met:
            # Met once for good: a later undo does not take a completed goal back.
            game.goal_met_at = now
            game.goal_met_now = True


def _save_state(
    game: Game, variant: Variant[Any], state: Any, *, now: datetime, before: Any
) -> None:
    game_state_record(game, variant, state, now=now)
    # A win closes the game; a loss is only announced (the module's docstring).
    if variant.status(state) == Game.Status.WON:
        game_close(game, variant, state, status=Game.Status.WON, now=now)
    game_save_action(game, state=state, state_before=before)


def _refuse_if_lost(variant: Variant[Any], state: Any) -> None:
    """In a lost position only Undo, Accept the loss and Finish act: a move, a tap or
    auto-complete is refused with the reason (the engine refuses a move by itself; a
    tap or auto-complete would otherwise say something less to the point)."""
    if variant.status(state) == Game.Status.LOST:
        reason = variant.public_view(state).get("lost_reason") or "no move can change the outcome."
        raise MoveRefused(f"The game is lost: {reason[0].lower()}{reason[1:]}")


def game_move_play(
    *, game_id: UUID, player: User | UserClaim, move: str, revision: int
) -> ActionOutcome:
    """Play a move in the notation; with the player's automatic-moves setting on, the
    safe cards then go up after it."""

    def play(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        try:
            parsed = parse_move(move.strip())
        except EngineError as error:
            raise MoveRefused(str(error)) from error
        state = variant.load(game.state)
        return _apply_moves(game, variant, state, [parsed], now=now, then_safe_moves=True)

    return game_act(game_id=game_id, player=player, revision=revision, action=play)


def game_card_tap(
    *,
    game_id: UUID,
    player: User | UserClaim,
    source: str,
    count: int,
    revision: int,
) -> ActionOutcome:
    """Tap-to-move: the engine picks where the tapped card (and what it heads) goes;
    the safe moves follow as after game_move_play."""

    def tap(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        state = variant.load(game.state)
        _refuse_if_lost(variant, state)
        try:
            move = variant.tap(state, source, count)
        except EngineError as error:
            raise MoveRefused(str(error)) from error
        if move is None:
            raise MoveRefused(variant.tap_refusal(state, source, count))
        return _apply_moves(game, variant, state, [move], now=now, then_safe_moves=True)

    return game_act(game_id=game_id, player=player, revision=revision, action=tap)


def game_auto_complete(*, game_id: UUID, player: User | UserClaim, revision: int) -> ActionOutcome:
    def complete(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        state = variant.load(game.state)
        _refuse_if_lost(variant, state)
        moves = variant.auto_complete(state)
        if not moves:
            raise MoveRefused(
                "Auto-complete is offered once every card is face up and the stock and "
                "waste are empty."
            )
        return _apply_moves(game, variant, state, moves, now=now)

    return game_act(game_id=game_id, player=player, revision=revision, action=complete)


def game_move_undo(*, game_id: UUID, player: User | UserClaim, revision: int) -> ActionOutcome:
    """Take the last move back exactly, points included."""

    def undo(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        if not game.move_log:
            raise MoveRefused("There is no move to undo.")
        if game.undo_limit is not None and game.undo_count >= game.undo_limit:
            raise MoveRefused(undo_limit_message(game.undo_limit))
        record = game.undo_log.pop()
        game.move_log.pop()
        game.undo_count += 1
        before = variant.load(game.state)
        state = variant.undo(before, record)
        _save_state(game, variant, state, now=now, before=before)
        return ActionOutcome(game=game, state=state)

    return game_act(
        game_id=game_id, player=player, revision=revision, action=undo, reads_undo_log=True
    )


def game_finish(*, game_id: UUID, player: User | UserClaim, revision: int) -> ActionOutcome:
    """Make the result final: from now on every action on this game is refused. A game
    in a lost position closes as lost."""

    def finish(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        state = variant.load(game.state)
        clock_tick(game, now=now)
        status = closing_status(variant, state, otherwise=Game.Status.FINISHED)
        game_close(game, variant, state, status=status, now=now)
        game.revision += 1
        game_save_action(game, state=state, state_before=state)
        return ActionOutcome(game=game, state=state)

    return game_act(game_id=game_id, player=player, revision=revision, action=finish)


NOT_LOST_MESSAGE = (
    "This position is not lost: a loss is accepted only where the board says the game "
    "is lost. Finish ends a game at any time."
)


def game_loss_accept(*, game_id: UUID, player: User | UserClaim, revision: int) -> ActionOutcome:
    """Close a game whose position is lost as lost (the board's Accept the loss): its
    result is final, and a ranked daily game's result is recorded (the close hooks)."""

    def accept(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        state = variant.load(game.state)
        if variant.status(state) != Game.Status.LOST:
            raise MoveRefused(NOT_LOST_MESSAGE)
        clock_tick(game, now=now)
        game_close(game, variant, state, status=Game.Status.LOST, now=now)
        game.revision += 1
        game_save_action(game, state=state, state_before=state)
        return ActionOutcome(game=game, state=state)

    return game_act(game_id=game_id, player=player, revision=revision, action=accept)


def game_close_if_time_up(*, game_id: UUID) -> bool:
    """Close a game whose clock has run out, whoever is looking (or nobody).
    Returns whether this call closed it; running it again does nothing more."""
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None or not game.is_active or not clock_is_up(game, now=now):
            return False
        _close_for_time(game, now)
        return True


def game_looked_at(*, game: Game) -> Game:
    """The game as a look finds it: one whose clock ran out with no worker to close it
    is closed by whoever looks first (and read again); any other is returned as it is,
    with no query."""
    if game.is_active and game.deadline_at is not None and game.deadline_at <= timezone.now():
        game_close_if_time_up(game_id=game.id)
        game.refresh_from_db()
    return game


def games_close_expired(*, player: User | None = None) -> int:
    """Close every game (of one player, if given) whose clock has run out."""
    expired = Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=timezone.now())
    if player is not None:
        expired = expired.filter(player=player)
    return sum(
        game_close_if_time_up(game_id=game_id) for game_id in expired.values_list("id", flat=True)
    )
