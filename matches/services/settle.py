"""A match follows its seats' games and settles once: when the last game closes (a
finish, a win, the clock) or, for a match whose games all closed some other way,
when the sweep or the first look finds it over.

The settlement runs inside the transaction that closes the last game: that game's
row is locked (its action's read), then the match's. Every path locks in that order
(a game, then its match), so two seats finishing at once wait for each other and
only the second, which sees both games closed, settles."""

from datetime import datetime
from functools import partial
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.services import game_close_if_time_up
from games.variants import game_variant
from matches import selectors
from matches.live import match_progress_push, match_seat_push
from matches.models import Match, Seat
from matches.modes import match_mode, match_modes
from matches.results import SeatResult, placements
from matches.services.duel import duel_seat_scores, duel_turn_time_up
from matches.tasks import match_settled_dispatch

SHARED_BOARD_VARIANTS = frozenset(mode.variant for mode in match_modes() if mode.shared_board)


def match_game_acted(*, game: Game, state: Any = None, state_before: Any = None) -> None:
    """settings.GAME_ACTION_HOOKS: after each action on a match's game, the seat's
    count of foundation cards (and when it changed), and that seat's public progress
    pushed to the match's sockets once the action commits. Nothing for a game of
    another track. The positions after and before the action are the action's own
    where it holds them, else loaded from the row as it is and as it was read."""
    if game.track != Game.Track.MATCH or game.variant in SHARED_BOARD_VARIANTS:
        return  # a shared board's moves push the whole match (matches.services.duel)
    variant = game_variant(game)
    public = variant.public_view(variant.load(game.state) if state is None else state)
    cards = _foundation_cards(public)
    if state_before is None and game.stored_state is not None:
        state_before = variant.load(game.stored_state)
    # Most actions move no card to or from a foundation: those write nothing.
    if state_before is None or cards != _foundation_cards(variant.public_view(state_before)):
        Seat.objects.filter(game_id=game.id).exclude(foundation_cards=cards).update(
            foundation_cards=cards, reached_at=game.last_action_at
        )
    seat = selectors.seat_view_of_game(game=game, foundation_cards=cards)
    transaction.on_commit(partial(match_seat_push, match_id=UUID(game.track_ref), seat=seat))


def _foundation_cards(public: dict[str, Any]) -> int:
    return sum(int(foundation["count"]) for foundation in public.get("foundations", []))


def match_game_closed(*, game: Game) -> None:
    """settings.GAME_CLOSE_HOOKS: the match settles when its last game closes."""
    if game.track != Game.Track.MATCH:
        return
    match_settle(match_id=UUID(game.track_ref))


def _seconds_left(match: Match, game: Game) -> int:
    if match.deadline_at is None or game.finished_at is None:
        return 0
    return max(0, int((match.deadline_at - game.finished_at).total_seconds()))


def match_settle(*, match_id: UUID) -> bool:
    """Settle a running match whose games are all over: each seat's score, placement
    and outcome, once. Whether this call settled it."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(id=match_id)
        if match.status != Match.Status.RUNNING:
            return False
        seats = list(match.seats.select_related("game"))
        games = [seat.game for seat in seats]
        if any(game is None or game.is_active for game in games):
            return False
        mode = match_mode(match.mode)
        if mode is None:
            raise ValueError(f"Match {match.id} is of a mode the site no longer has")
        # A shared board's seats are scored by their own points on it.
        shared = duel_seat_scores(game=games[0]) if mode.shared_board and games[0] else None
        results = [
            SeatResult(
                number=seat.number,
                final_score=shared[seat.number]
                if shared is not None
                else seat.game.final_score or 0,
                foundation_cards=seat.foundation_cards,
                reached_at=seat.reached_at,
                cleared=seat.game.status == Game.Status.WON,
                seconds_left=_seconds_left(match, seat.game),
            )
            for seat in seats
            if seat.game is not None
        ]
        placed = {p.number: p for p in placements(ranking=mode.ranking, results=results)}
        firsts = sum(1 for p in placed.values() if p.placement == 1)
        for seat in seats:
            result = placed[seat.number]
            seat.score = result.score
            seat.placement = result.placement
            seat.outcome = _outcome(result.placement, firsts, len(seats))
            seat.save(update_fields=["score", "placement", "outcome"])
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.held = any(game is not None and not game.counted for game in games)
        match.save(update_fields=["status", "finished_at", "held"])
        transaction.on_commit(partial(match_settled_dispatch, match_id=match.id))
        transaction.on_commit(partial(match_progress_push, match_id=match.id))
    return True


def _outcome(placement: int, firsts: int, players: int) -> str:
    """A lone first place wins; first places shared are draws; a solo sprint has none."""
    if players == 1:
        return ""
    if placement == 1:
        return Seat.Outcome.WIN if firsts == 1 else Seat.Outcome.DRAW
    return Seat.Outcome.LOSS


def match_close_if_time_up(*, match_id: UUID, now: datetime | None = None) -> bool:
    """Close every game of a running match whose clock has run out (each closing in its
    own transaction, which settles the match with the last); whether it settled."""
    now = now or timezone.now()
    match = Match.objects.filter(id=match_id).only("status", "deadline_at").first()
    if match is None or match.status != Match.Status.RUNNING:
        return False
    if match.deadline_at is None or match.deadline_at > now:
        return False
    for game_id in Game.objects.filter(
        track=Game.Track.MATCH, track_ref=str(match_id), status=Game.Status.ACTIVE
    ).values_list("id", flat=True):
        game_close_if_time_up(game_id=game_id)
    # Games closed before (a finish) leave nothing to close: the match settles now.
    match_settle(match_id=match_id)
    return Match.objects.filter(id=match_id, status=Match.Status.FINISHED).exists()


def matches_close_expired(*, now: datetime | None = None) -> int:
    """The sweep: every shared board's overdue turn passed, every running match past
    its deadline closed; how many settled."""
    now = now or timezone.now()
    overdue = Match.objects.filter(status=Match.Status.RUNNING, turn_deadline_at__lte=now)
    for match_id in overdue.values_list("id", flat=True):
        duel_turn_time_up(match_id=match_id, now=now)
    expired = Match.objects.filter(status=Match.Status.RUNNING, deadline_at__lte=now)
    return sum(
        match_close_if_time_up(match_id=match_id, now=now)
        for match_id in expired.values_list("id", flat=True)
    )
