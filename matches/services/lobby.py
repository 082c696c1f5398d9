"""Making, joining, leaving and starting matches, and rematches."""

import secrets
from datetime import timedelta
from functools import partial
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import get_variant, new_seed
from games.models import Game
from games.services import game_start
from games.tracks import Track
from matches.errors import MatchNotYours, MatchRefused
from matches.live import match_progress_push
from matches.models import Match, PointsTable, Seat
from matches.modes import MatchMode, match_mode
from matches.selectors import match_may_join
from matches.tasks import schedule_duel_turn_time_up, schedule_match_time_up


def points_table_current() -> PointsTable | None:
    """The latest published Klondike points table, or None (the mode is closed)."""
    return PointsTable.objects.filter(published_at__isnull=False).order_by("-version").first()


def mode_is_open(*, mode: MatchMode, player: User) -> bool:
    """Whether the player may play the mode now (staff may try a closed one)."""
    return not mode.needs_points_table or player.is_staff or points_table_current() is not None


def match_mode_require(*, key: str) -> MatchMode:
    mode = match_mode(key)
    if mode is None:
        raise MatchRefused(f"There is no match mode {key!r}.")
    return mode


def points_table_for(*, mode: MatchMode, player: User) -> PointsTable | None:
    """The points table a new match of the mode is scored by. A mode that needs one is
    closed until staff publish it; staff may always play it, to try it."""
    if not mode.needs_points_table:
        return None
    table = points_table_current()
    if table is None and not player.is_staff:
        raise MatchRefused(
            f"{mode.name} opens once its points table is published: the rules have not "
            "confirmed one yet."
        )
    return table


def _options(mode: MatchMode, table: PointsTable | None) -> dict[str, Any]:
    options = dict(mode.options)
    if table is not None:
        options["points"] = table.points
    return dict(get_variant(mode.variant).normalize_options(options))


def match_create(
    *, player: User, mode: str, private: bool = False, rematch_of: Match | None = None
) -> Match:
    """A new match with the player in its first seat: in the lobby, or private (joined
    through its invite link only)."""
    match_kind = match_mode_require(key=mode)
    table = points_table_for(mode=match_kind, player=player)
    with transaction.atomic():
        match = Match.objects.create(
            mode=match_kind.key,
            is_private=private,
            invite_code=secrets.token_urlsafe(12),
            created_by=player,
            seed=new_seed(),
            options=_options(match_kind, table),
            points_table=table,
            rematch_of=rematch_of,
        )
        Seat.objects.create(match=match, player=player, number=0)
    return match


def match_join(*, player: User, match_id: UUID, invite_code: str | None = None) -> Match:
    """Take a free seat. A private match is joined with its invite code only. A
    head-to-head match starts by itself once its last seat is taken; a Sprint waits,
    full or not, for its maker to start it. A match the player may not see (neither
    seated nor invited, selectors.match_for_viewer) is Match.DoesNotExist, as a look
    at it is."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(id=match_id)
        mode = match_mode_require(key=match.mode)
        seats = list(match.seats.all())
        seated = any(seat.player_id == player.pk for seat in seats)
        if not seated and not match_may_join(match=match, invite_code=invite_code):
            raise Match.DoesNotExist
        if match.status != Match.Status.OPEN:
            raise MatchRefused("This match has started or is over: its seats are taken.")
        if match.points_table is None and mode.needs_points_table and not player.is_staff:
            points_table_for(mode=mode, player=player)
        if seated:
            return match
        if len(seats) >= mode.max_players:
            raise MatchRefused("This match is full.")
        taken = {seat.number for seat in seats}
        number = next(n for n in range(mode.max_players) if n not in taken)
        try:
            with transaction.atomic():
                Seat.objects.create(match=match, player=player, number=number)
        except IntegrityError as clash:
            raise MatchRefused("That seat was just taken: try again.") from clash
        if mode.starts_when_full and len(seats) + 1 == mode.max_players:
            _start(match, mode)
    return match


def match_leave(*, player: User, match_id: UUID) -> bool:
    """Leave a match that has not started; the match is cancelled when its last
    player leaves. Whether the player had a seat."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(id=match_id)
        if match.status != Match.Status.OPEN:
            raise MatchRefused("The match has started: finish your game instead.")
        left = Seat.objects.filter(match=match, player=player).delete()[0] > 0
        if not match.seats.exists():
            match.status = Match.Status.CANCELLED
            match.finished_at = timezone.now()
            match.save(update_fields=["status", "finished_at"])
    return left


def match_start(*, player: User, match_id: UUID) -> Match:
    """Start a Sprint (of 1 to 4): its maker does, once it seats as many as its mode
    needs; anyone else is refused with MatchNotYours."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(id=match_id)
        mode = match_mode_require(key=match.mode)
        if match.created_by_id != player.pk:
            raise MatchNotYours("Only the player who made the match starts it.")
        if match.status != Match.Status.OPEN:
            raise MatchRefused("This match has already started.")
        seated = match.seats.count()
        if seated < mode.min_players:
            raise MatchRefused(f"{mode.name} needs {mode.min_players} players to start.")
        _start(match, mode)
    return match


def _start(match: Match, mode: MatchMode) -> None:
    """Deal every seat's game from the match's seed, their clocks starting together
    and running out at the match's deadline; a shared board deals one game for all
    the seats and starts its turn clock; the match's sockets are told once it commits.
    Inside the caller's transaction, with the match row locked."""
    now = timezone.now()
    match.status = Match.Status.RUNNING
    match.started_at = now
    match.deadline_at = now + timedelta(seconds=mode.clock_seconds)
    # A solo sprint is not rated, nor staff trying a closed mode before its points table.
    trial = mode.needs_points_table and match.points_table_id is None
    match.rated = match.rated and match.seats.count() > 1 and not trial
    match.save(update_fields=["status", "started_at", "deadline_at", "rated"])
    track = Track(
        kind=Game.Track.MATCH,
        ref=str(match.id),
        seed=match.seed,
        options=match.options,
        time_limit_seconds=mode.clock_seconds,
        starts_at=now,
    )
    seats = list(match.seats.select_related("player").order_by("number"))
    if mode.shared_board:
        # One game for the table, in the first seat's name; the seats take turns on it.
        shared = game_start(player=seats[0].player, variant=mode.variant, track=track)
        Seat.objects.filter(match=match).update(game=shared)
        if mode.turn_seconds is not None:
            match.turn_deadline_at = now + timedelta(seconds=mode.turn_seconds)
            match.save(update_fields=["turn_deadline_at"])
            transaction.on_commit(partial(schedule_duel_turn_time_up, match_id=match.id))
    else:
        for seat in seats:
            seat.game = game_start(player=seat.player, variant=mode.variant, track=track)
            seat.save(update_fields=["game"])
    transaction.on_commit(partial(schedule_match_time_up, match_id=match.id))
    # A socket opened while the match waited learns of the start (and its own game).
    transaction.on_commit(partial(match_progress_push, match_id=match.id))


def match_rematch(*, player: User, match_id: UUID) -> Match:
    """A new match of the same mode, its first seat the player's, every other player
    of the old one invited by its link (a private match, as they already know each
    other). The second player to ask for it joins the one the first made."""
    with transaction.atomic():
        old = Match.objects.select_for_update().get(id=match_id)
        if not old.seats.filter(player=player).exists():
            raise Match.DoesNotExist
        if old.status != Match.Status.FINISHED:
            raise MatchRefused("A rematch is offered once the match is over.")
        offered = old.rematches.filter(status=Match.Status.OPEN).first()
        if offered is not None:
            return match_join(player=player, match_id=offered.id, invite_code=offered.invite_code)
        return match_create(player=player, mode=old.mode, private=True, rematch_of=old)
