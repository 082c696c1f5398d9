"""A shared board (the Head-to-Head Duel): the seats take turns on one game, one move
a turn, each on a turn clock; the seat whose turn runs out passes.

Every move is one transaction that locks the shared game's row, then the match's (the
order settlement takes, services.settle): the game is checked, the move applied by the
engine and logged as any game's move, and the game closed when the engine says the
duel is over (its close hooks settle the match). Then the next turn's clock starts."""

from datetime import datetime, timedelta
from functools import partial
from typing import Any, Protocol, runtime_checkable
from uuid import UUID

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.clock import clock_is_up
from games.engine import EngineError, Move, Variant, format_move, parse_move
from games.errors import GameClosed, MoveRefused, StaleAction
from games.models import Game
from games.services import TIME_UP_MESSAGE
from games.services.actions import game_state_record
from games.services.closing import game_close, game_save_action
from games.services.logs import game_log_step
from games.variants import game_variant
from matches.live import match_progress_push
from matches.models import Match, Seat
from matches.modes import MatchMode
from matches.services.lobby import match_mode_require
from matches.tasks import schedule_duel_turn_time_up


@runtime_checkable
class SharedBoardRules(Protocol):
    """What the engine says about turns on a shared board (games.engine.steps_duel)."""

    def seat_to_move(self, state: Any) -> int: ...

    def seat_scores(self, state: Any) -> tuple[int, ...]: ...

    def is_over(self, state: Any) -> bool: ...

    def pass_move(self) -> Move: ...


def shared_board_rules(game: Game) -> SharedBoardRules:
    """The game's rules with their turns; ValueError for a game without them."""
    rules = game_variant(game)
    if not isinstance(rules, SharedBoardRules):
        raise ValueError(f"{game.variant} is not played on a shared board")
    return rules


def duel_seat_scores(*, game: Game) -> tuple[int, ...]:
    """Each seat's points on the shared board, seat 0 first."""
    variant = game_variant(game)
    return shared_board_rules(game).seat_scores(variant.load(game.state))


def _shared_game_id(match_id: UUID) -> UUID | None:
    return (
        Seat.objects.filter(match_id=match_id, game__isnull=False)
        .values_list("game_id", flat=True)
        .first()
    )


def _play(
    game: Game, variant: Variant[Any], move: Move, *, match: Match, mode: MatchMode, now: datetime
) -> None:
    """Apply the move for the seat to move and log it as a move of the game; close the
    game if the duel is over (its close hooks settle the match); then lock the match
    and start the next turn's clock. The game's row is locked by the caller."""
    try:
        step = variant.apply(variant.load(game.state), move)
    except EngineError as error:
        raise MoveRefused(str(error)) from error
    game_log_step(game, move=format_move(step.move), undo=step.undo)
    game_state_record(game, variant, step.state, now=now)
    over = shared_board_rules(game).is_over(step.state)
    if over:
        game_close(game, variant, step.state, status=variant.status(step.state), now=now)
    game_save_action(game)
    locked = Match.objects.select_for_update().get(id=match.id)
    if over or mode.turn_seconds is None:
        locked.turn_deadline_at = None
    else:
        locked.turn_deadline_at = now + timedelta(seconds=mode.turn_seconds)
        transaction.on_commit(partial(schedule_duel_turn_time_up, match_id=match.id))
        # The settlement pushes the match once it is over; the board's page re-fetches
        # its own board (the move buttons are the viewer's) after each push.
        transaction.on_commit(partial(match_progress_push, match_id=match.id))
    locked.save(update_fields=["turn_deadline_at"])


def duel_move_play(*, match_id: UUID, player: User, move: str, revision: int) -> Game:
    """Play a move in the notation on the match's shared board, for the player's seat
    when it is the seat to move. A refusal (games.errors) changes nothing; a player
    without a seat gets Match.DoesNotExist."""
    now = timezone.now()
    match = Match.objects.get(id=match_id, seats__player=player)
    mode = match_mode_require(key=match.mode)
    seats = {seat.number: seat for seat in match.seats.select_related("player")}
    mine = next(seat for seat in seats.values() if seat.player_id == player.pk)
    game_id = _shared_game_id(match_id)
    if not mode.shared_board or game_id is None:
        raise MoveRefused("This match has no shared board to play on.")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(id=game_id)
        if match.status != Match.Status.RUNNING or not game.is_active:
            raise GameClosed("The duel is over: its result is final.")
        if clock_is_up(game, now=now):
            # The match clock's own paths close it (the ETA task, the sweep, the look).
            raise GameClosed(TIME_UP_MESSAGE)
        if revision != game.revision:
            raise StaleAction(
                "That move was made on an older board (another tab, a repeated click, or "
                "your opponent moved); here is the current one."
            )
        variant = game_variant(game)
        to_move = shared_board_rules(game).seat_to_move(variant.load(game.state))
        if mine.number != to_move:
            raise MoveRefused(f"It is {seats[to_move].player.get_username()}'s turn.")
        try:
            parsed = parse_move(move.strip())
        except EngineError as error:
            raise MoveRefused(str(error)) from error
        _play(game, variant, parsed, match=match, mode=mode, now=now)
    return game


def duel_turn_time_up(*, match_id: UUID, now: datetime | None = None) -> bool:
    """Pass for the seat to move if its turn has run out, whoever asks (the turn's ETA
    task, the sweep, the first look); whether this call passed. Running it again
    passes no more: the pass starts the next turn's clock."""
    now = now or timezone.now()
    game_id = _shared_game_id(match_id)
    if game_id is None:
        return False
    with transaction.atomic():
        game = Game.objects.select_for_update().get(id=game_id)
        if not game.is_active or clock_is_up(game, now=now):
            return False
        match = Match.objects.select_for_update().get(id=match_id)
        due = match.turn_deadline_at
        if match.status != Match.Status.RUNNING or due is None or due > now:
            return False
        rules = shared_board_rules(game)
        _play(
            game,
            game_variant(game),
            rules.pass_move(),
            match=match,
            mode=match_mode_require(key=match.mode),
            now=now,
        )
    return True
