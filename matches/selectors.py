"""Reads on matches. What a player sees of another seat while a match runs is that
seat's figures: its score, its cards on the foundations (a count), its moves and its
game's status; never a card. Every seat plays the same deal, so a card face up on one
table may be face down or in the stock of another: no seat's table is shown until the
match is over (the Duel's one shared board is public by design). Never a seed or a
snapshot."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Count, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Game
from games.variants import game_variant
from matches import glicko2
from matches.models import Match, QueueEntry, Rating, RatingChange, Seat
from matches.modes import MatchMode, match_mode


@dataclass(frozen=True)
class SeatView:
    number: int | None
    """None for a view built from the game alone (the live push), which needs no number."""
    username: str
    game_id: UUID | None
    score: int
    final_score: int | None
    foundation_cards: int
    move_count: int
    game_status: str
    public: dict[str, Any] | None
    """The engine's public view of the seat's table once the match is over (and the
    Duel's shared board); None while a same-deal match runs, and before the start."""
    placement: int | None
    outcome: str

    @property
    def status_label(self) -> str:
        """The seat's game's status as the page says it; "Waiting" before the start."""
        return Game.Status(self.game_status).label if self.game_status else "Waiting"


@dataclass(frozen=True)
class MatchView:
    id: UUID
    mode: str
    mode_name: str
    variant: str
    status: str
    status_label: str
    is_private: bool
    invite_code: str
    created_by: str
    max_players: int
    min_players: int
    deadline_at: datetime | None
    remaining_seconds: int | None
    seats: list[SeatView]
    points_table_version: int | None
    shared_board: bool = False
    """The seats take turns on one game (the Duel): its board is the match's own page."""
    review: str = ""
    """The review's hold on a game of the match (match_review_hold): while it holds one
    the match is not rated."""
    rated: bool = True
    """It counts in the ratings: a rated match the review does not hold."""

    @property
    def is_open(self) -> bool:
        return self.status == Match.Status.OPEN

    @property
    def is_running(self) -> bool:
        return self.status == Match.Status.RUNNING

    @property
    def is_finished(self) -> bool:
        return self.status == Match.Status.FINISHED


def match_is_seated(*, match_id: UUID, player: AbstractBaseUser) -> bool:
    return Seat.objects.filter(match_id=match_id, player_id=player.pk).exists()


def _seat_view(seat: Seat, *, table_shown: bool) -> SeatView:
    game = seat.game
    public = None
    if game is not None and table_shown:
        variant = game_variant(game)
        public = variant.public_view(variant.load(game.state))
    return SeatView(
        number=seat.number,
        username=seat.player.get_username(),
        game_id=game.id if game is not None else None,
        score=game.score if game is not None else 0,
        final_score=seat.score,
        foundation_cards=seat.foundation_cards,
        move_count=game.move_count if game is not None else 0,
        game_status=game.status if game is not None else "",
        public=public,
        placement=seat.placement,
        outcome=seat.outcome,
    )


def seat_view_of_game(*, game: Game, foundation_cards: int) -> SeatView:
    """A seat's progress from its game as an action holds it (no database read: the
    action's locked read brought the player). Its figures only: an action is played
    while its match runs, when no seat's table is shown."""
    return SeatView(
        number=None,
        username=game.player.get_username(),
        game_id=game.id,
        score=game.score,
        final_score=None,
        foundation_cards=foundation_cards,
        move_count=game.move_count,
        game_status=game.status,
        public=None,
        placement=None,
        outcome="",
    )


def tables_shown(*, match: Match, mode: MatchMode) -> bool:
    """Whether the seats' tables may be shown: once the match is over, or a shared
    board's (one public board for both seats). While a same-deal match runs another
    seat's face-up card may be face down in yours."""
    return mode.shared_board or match.status == Match.Status.FINISHED


def _match_view(match: Match) -> MatchView:
    mode = match_mode(match.mode)
    if mode is None:
        raise ValueError(f"Match {match.id} is of a mode the site no longer has")
    now = timezone.now()
    remaining = None
    if match.deadline_at is not None:
        running = match.status == Match.Status.RUNNING
        remaining = max(0, int((match.deadline_at - now).total_seconds())) if running else 0
    seats = list(match.seats.select_related("player", "game").order_by("number"))
    shown = tables_shown(match=match, mode=mode)
    return MatchView(
        id=match.id,
        mode=match.mode,
        mode_name=mode.name,
        variant=mode.variant,
        status=match.status,
        status_label=match.get_status_display(),
        is_private=match.is_private,
        invite_code=match.invite_code,
        created_by=match.created_by.get_username(),
        max_players=mode.max_players,
        min_players=mode.min_players,
        deadline_at=match.deadline_at,
        remaining_seconds=remaining,
        seats=[_seat_view(seat, table_shown=shown) for seat in seats],
        points_table_version=match.points_table.version if match.points_table else None,
        shared_board=mode.shared_board,
        review=match_review_hold(games=[seat.game for seat in seats]),
        rated=match.rated and not match.held,
    )


def match_live_view(*, match_id: UUID) -> MatchView | None:
    """The match as its seated players see it (matches.live pushes it to them)."""
    match = Match.objects.select_related("created_by", "points_table").filter(id=match_id).first()
    return _match_view(match) if match is not None else None


def match_may_join(*, match: Match, invite_code: str | None) -> bool:
    """Whether anyone may see the match to join it: open, and in the lobby or asked for
    with its invite code."""
    return match.status == Match.Status.OPEN and (
        not match.is_private or invite_code == match.invite_code
    )


def match_for_viewer(
    *, match_id: UUID, viewer: AbstractBaseUser | AnonymousUser, invite_code: str | None = None
) -> MatchView:
    """The match for one of its players, or for anyone who may join it (open and in the
    lobby, or a private one with its invite code); anybody else: Match.DoesNotExist."""
    match = Match.objects.select_related("created_by", "points_table").get(id=match_id)
    seated = viewer.is_authenticated and match_is_seated(match_id=match_id, player=viewer)
    if not (seated or match_may_join(match=match, invite_code=invite_code)):
        raise Match.DoesNotExist
    view = _match_view(match)
    if not seated:
        # The invite link is its players' to share.
        view = MatchView(**{**view.__dict__, "invite_code": ""})
    return view


def match_seat_game_id(*, match_id: UUID, player: AbstractBaseUser) -> UUID | None:
    """The id of the player's own game in the match (its board), if it has started."""
    return (
        Seat.objects.filter(match_id=match_id, player_id=player.pk)
        .values_list("game_id", flat=True)
        .first()
    )


def match_current_for_player(*, player: AbstractBaseUser) -> Match | None:
    """The player's match waiting or running, newest first (a quick match found)."""
    return (
        Match.objects.filter(
            seats__player_id=player.pk, status__in=[Match.Status.OPEN, Match.Status.RUNNING]
        )
        .order_by("-created_at")
        .first()
    )


def lobby_matches(*, mode: str | None = None) -> QuerySet[Match]:
    """The open matches anyone may join, oldest first, with their seat counts."""
    matches = Match.objects.filter(status=Match.Status.OPEN, is_private=False)
    if mode:
        matches = matches.filter(mode=mode)
    return (
        matches.select_related("created_by").annotate(seated=Count("seats")).order_by("created_at")
    )


MATCH_HOLDS = (Game.ReviewHold.VOIDED, Game.ReviewHold.HELD)
"""A match's holds, the one that stands first."""


def match_history_for_player(*, player: AbstractBaseUser) -> QuerySet[Seat]:
    """The player's seats in settled matches, newest first, with the match and the
    review's hold on it (`match_review`, as match_review_hold: a voided game first)."""
    holds = (
        Seat.objects.filter(match_id=OuterRef("match_id"), game__review_hold__in=MATCH_HOLDS)
        .order_by("-game__review_hold")  # descending: "voided" before "held", as MATCH_HOLDS
        .values("game__review_hold")[:1]
    )
    return (
        Seat.objects.filter(player_id=player.pk, match__status=Match.Status.FINISHED)
        .select_related("match")
        .annotate(match_review=Coalesce(Subquery(holds), Value("")))
        .order_by("-match__finished_at")
    )


def match_review_hold(*, games: list[Game | None]) -> str:
    """The review's hold on a match, from its games': voided when one is voided (the
    match stays unrated until a reviewer restores it), else held when one is under
    review, else none."""
    holds = {game.review_hold for game in games if game is not None}
    return next((hold for hold in MATCH_HOLDS if hold in holds), "")


@dataclass(frozen=True)
class RatingView:
    mode: str
    mode_name: str
    rating: int
    deviation: int
    provisional: bool
    display: str
    matches: int


def _rating_view(row: Rating) -> RatingView:
    rating = glicko2.Rating(rating=row.rating, deviation=row.deviation, volatility=row.volatility)
    mode = match_mode(row.mode)
    return RatingView(
        mode=row.mode,
        mode_name=mode.name if mode else row.mode,
        rating=rating.rounded_rating,
        deviation=rating.rounded_deviation,
        provisional=glicko2.is_provisional(rating),
        display=glicko2.display(rating),
        matches=row.matches,
    )


def player_ratings(*, player: AbstractBaseUser) -> list[RatingView]:
    return [_rating_view(row) for row in Rating.objects.filter(player_id=player.pk)]


def player_rating_history(
    *, player: AbstractBaseUser, mode: str
) -> list[tuple[datetime, int, bool]]:
    """The player's rating after each rated match of the mode, oldest first, and
    whether the match was won."""
    changes = list(
        RatingChange.objects.filter(player_id=player.pk, mode=mode).only("at", "rating", "match")
    )
    won = set(
        Seat.objects.filter(
            player_id=player.pk,
            match_id__in=[change.match_id for change in changes],
            outcome=Seat.Outcome.WIN,
        ).values_list("match_id", flat=True)
    )
    return [(change.at, round(change.rating), change.match_id in won) for change in changes]


@dataclass(frozen=True)
class RatingRow:
    rank: int
    username: str
    rating: RatingView


def ratings_leaderboard(*, mode: str, limit: int = 50, offset: int = 0) -> list[RatingRow]:
    """A mode's ratings, best first (a provisional rating too: it is marked)."""
    rows = (
        Rating.objects.filter(mode=mode)
        .select_related("player")
        .order_by("-rating", "player_id")[offset : offset + limit]
    )
    return [
        RatingRow(
            rank=offset + index + 1, username=row.player.get_username(), rating=_rating_view(row)
        )
        for index, row in enumerate(rows)
    ]


def ratings_count(*, mode: str) -> int:
    return Rating.objects.filter(mode=mode).count()


def player_queue_modes(*, player: User) -> list[str]:
    """The modes whose quick-match queue the player waits in."""
    return list(QueueEntry.objects.filter(player=player).values_list("mode", flat=True))
