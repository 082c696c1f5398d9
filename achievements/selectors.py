"""Reads for achievements: the facts a closed game is judged from, a player's
month of challenges, a player's badges, and the badges a game earned (the
finish toast)."""

import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Count, Max, Min

from achievements.declarations import (
    ACHIEVEMENTS,
    CAMPAIGN_ACHIEVEMENTS,
    MONTHLY_ACHIEVEMENTS,
    Achievement,
    CampaignAchievement,
    GameBadge,
    MonthlyAchievement,
    achievement_for,
)
from achievements.models import Award, Evaluation
from achievements.monthly import MonthCompletion, month_of_period
from achievements.rules import GameFacts
from challenges.models import Completion
from challenges.selectors import month_of
from games.engine import EngineError, get_variant
from games.models import Game
from leaderboards.models import Result
from leaderboards.selectors import daily_streak
from matches.models import Match, Seat

logger = logging.getLogger(__name__)


class GameNotClosed(Exception):
    """Achievements are judged on closed games only."""


def _public_view(game: Game) -> dict[str, Any]:
    """The engine's public view of the game's final position, or nothing when the
    engine cannot read it (a variant it does not know yet, a damaged snapshot)."""
    try:
        variant = get_variant(game.variant)
        return variant.public_view(variant.load(game.state))
    except EngineError:
        logger.warning("achievements: the engine cannot read game %s", game.id)
        return {}


def _ranked_scores(game: Game) -> tuple[int | None, int | None]:
    """The game's ranked daily score and the best ranked score of its deal, among
    the results on the leaderboards (a result under review or voided counts for
    nothing)."""
    listed = Result.objects.listed()
    result = listed.filter(game_id=game.id).values_list("score", "daily_deal_id").first()
    if result is None:
        return None, None
    score, deal_id = result
    top = listed.filter(daily_deal_id=deal_id).aggregate(top=Max("score"))["top"]
    return score, top


def _match_facts(game: Game, player: User) -> tuple[str | None, str | None, int | None]:
    """The game's match mode, and the player's seat's outcome and margin once the match
    settled (a shared board is every seat's game: the seat is the player's)."""
    if game.track != Game.Track.MATCH:
        return None, None, None
    seats = list(Seat.objects.filter(match_id=game.track_ref).select_related("match"))
    mine = next(
        (seat for seat in seats if seat.game_id == game.id and seat.player_id == player.pk), None
    )
    if mine is None:
        return None, None, None
    if mine.match.status != Match.Status.FINISHED or mine.score is None:
        return mine.match.mode, None, None
    others = [seat.score for seat in seats if seat is not mine and seat.score is not None]
    margin = mine.score - max(others) if others else None
    return mine.match.mode, mine.outcome, margin


def game_facts(*, game: Game, player: User | None = None) -> GameFacts:
    """The facts of a closed game as of when it closed (the wins and the daily
    streak count what came before it, so a backfill judges each past game as the
    task would have then), for its player, or for another seat of its shared board."""
    finished_at = game.finished_at
    if game.is_active or finished_at is None:
        raise GameNotClosed(f"game {game.id} is not closed")
    player = player or game.player
    wins_so_far = Game.objects.filter(
        player_id=player.pk, status=Game.Status.WON, finished_at__lte=finished_at
    ).count()
    ranked_score, deal_top_score = _ranked_scores(game)
    match_mode, match_outcome, match_margin = _match_facts(game, player)
    return GameFacts(
        game_id=game.id,
        player_id=player.pk,
        variant=game.variant,
        status=game.status,
        finished_at=finished_at,
        final_score=game.final_score if game.final_score is not None else game.score,
        elapsed_ms=game.elapsed_ms,
        move_count=game.move_count,
        undo_count=game.undo_count,
        public=_public_view(game),
        wins_so_far=wins_so_far,
        daily_streak=daily_streak(player=player, today=finished_at.astimezone(UTC).date()),
        ranked_score=ranked_score,
        deal_top_score=deal_top_score,
        match_mode=match_mode,
        match_outcome=match_outcome,
        match_margin=match_margin,
    )


def month_completions(*, player_id: int, month: date) -> list[MonthCompletion]:
    """The player's completions of the month's challenges in the order they happened."""
    rows = (
        Completion.objects.filter(player_id=player_id, month=month_of(month))
        .order_by("completed_at", "id")
        .values_list("game_id", "stars", "completed_at")
    )
    return [
        MonthCompletion(game_id=game_id, stars=stars, completed_at=completed_at)
        for game_id, stars, completed_at in rows
    ]


@dataclass(frozen=True)
class Badge:
    """An achievement as a player holds it: how many times, first and last."""

    code: str
    title: str
    description: str
    game: str | None
    icon: str
    repeatable: bool
    count: int
    first_earned_at: datetime
    last_earned_at: datetime
    months: tuple[date, ...] = ()
    """The months a monthly badge was earned for, the latest first (empty for others)."""


@dataclass
class _Held:
    count: int
    first: datetime
    last: datetime
    months: list[date]


def badges_for_player(*, player: AbstractBaseUser) -> list[Badge]:
    """The player's badges in declaration order, the Codex campaign's after the games'
    and the monthly ones last (achievements no longer declared are left out). One
    query: a monthly badge's months are its periods."""
    rows = (
        Award.objects.filter(player_id=player.pk)
        .values("code", "period")
        .annotate(count=Count("id"), first=Min("earned_at"), last=Max("earned_at"))
        .order_by()
    )
    held: dict[str, _Held] = {}
    for row in rows:
        known = held.get(row["code"])
        if known is None:
            known = held[row["code"]] = _Held(row["count"], row["first"], row["last"], [])
        else:
            known.count += row["count"]
            known.first = min(known.first, row["first"])
            known.last = max(known.last, row["last"])
        if row["period"]:
            known.months.append(month_of_period(row["period"]))
    declared: list[Achievement | CampaignAchievement | MonthlyAchievement] = [
        *ACHIEVEMENTS,
        *CAMPAIGN_ACHIEVEMENTS,
        *MONTHLY_ACHIEVEMENTS,
    ]
    return [
        Badge(
            code=achievement.code,
            title=achievement.title,
            description=achievement.description,
            game=achievement.game,
            icon=achievement.icon,
            repeatable=achievement.repeatable,
            count=held[achievement.code].count,
            first_earned_at=held[achievement.code].first,
            last_earned_at=held[achievement.code].last,
            months=tuple(sorted(held[achievement.code].months, reverse=True)),
        )
        for achievement in declared
        if achievement.code in held
    ]


@dataclass(frozen=True)
class EarnedInGame:
    achievement: GameBadge
    count: int
    """How many times the player holds it now (for a repeatable badge)."""


@dataclass(frozen=True)
class GameToast:
    closed: bool
    evaluated: bool
    earned: list[EarnedInGame]


def game_toast(*, game_id: UUID, player: AbstractBaseUser | AnonymousUser) -> GameToast:
    """What the finish summary of the player's own game announces: the badges
    this game earned. Anybody else's game raises Game.DoesNotExist (a 404)."""
    if not player.is_authenticated:
        raise Game.DoesNotExist("Only the player sees their game's badges")
    game = Game.objects.only("id", "status", "player_id").get(id=game_id, player_id=player.pk)
    if game.is_active:
        return GameToast(closed=False, evaluated=False, earned=[])
    codes = list(Award.objects.filter(game_id=game.id).values_list("code", flat=True))
    totals = dict(
        Award.objects.filter(player_id=player.pk, code__in=codes)
        .values("code")
        .annotate(count=Count("id"))
        .values_list("code", "count")
    )
    declared = [(achievement_for(code), totals.get(code, 1)) for code in codes]
    game_badges: list[GameBadge] = [*ACHIEVEMENTS, *CAMPAIGN_ACHIEVEMENTS]
    order = {achievement.code: index for index, achievement in enumerate(game_badges)}
    earned = sorted(
        (
            EarnedInGame(achievement=achievement, count=count)
            for achievement, count in declared
            if achievement is not None
        ),
        key=lambda item: order[item.achievement.code],
    )
    return GameToast(
        closed=True,
        evaluated=Evaluation.objects.filter(game_id=game.id).exists(),
        earned=earned,
    )
