"""Reads for a player's public page: statistics, badges, the chart of recent
results and the daily calendar. Views and templates get these dataclasses, never
a query."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

from accounts.selectors import profile_for_user, user_for_username
from achievements.declarations import MONTHLY_ACHIEVEMENTS, MonthlyAchievement
from achievements.selectors import Badge, badges_for_player
from challenges.selectors import month_of, month_stars
from codex.selectors import Campaign, Reign, codex_campaign, player_reigns
from games.models import Game
from games.selectors import GameStats, game_stats_for_player
from games.specs import game_specs
from leaderboards.periods import today_utc
from leaderboards.selectors import CalendarDay, daily_calendar, daily_streak
from matches.models import Seat
from matches.modes import match_mode
from matches.selectors import (
    RatingView,
    match_history_for_player,
    player_rating_history,
    player_ratings,
)
from players.charts import ResultPoint, ScoreChart, score_chart

CHART_GAMES = 30


@dataclass(frozen=True)
class StatsRow:
    """One line of the statistics table: a variant, or the overall figures."""

    key: str
    name: str
    played: int
    won: int
    win_rate: float
    best_score: int | None
    fastest_win_seconds: int | None
    total_moves: int
    current_win_streak: int = 0
    longest_win_streak: int = 0


@dataclass(frozen=True)
class DailyCalendar:
    month: date
    weeks: list[list[CalendarDay | None]]
    previous_month: str
    next_month: str | None
    streak: int


@dataclass(frozen=True)
class ChallengeMonth:
    """This month's daily challenge stars and the next star badge of the month."""

    month: date
    stars: int
    next_badge: MonthlyAchievement | None
    """The lowest star badge not reached yet; None once gold is."""
    next_stars: int
    """The stars that earn it (0 when there is none)."""
    to_go: int
    """Stars still missing for it (0 when there is none)."""


def player_challenge_month(*, player: User, today: date) -> ChallengeMonth:
    """The player's stars this month and how far the next monthly badge is (one query;
    perfect, which needs the month's challenges counted, is the challenges page's)."""
    month = month_of(today)
    stars = month_stars(player=player, month=month)
    ahead = [
        (achievement.rule.stars, achievement)
        for achievement in MONTHLY_ACHIEVEMENTS
        if achievement.rule.stars is not None and achievement.rule.stars > stars
    ]
    if not ahead:
        return ChallengeMonth(month=month, stars=stars, next_badge=None, next_stars=0, to_go=0)
    threshold, next_badge = min(ahead, key=lambda pair: pair[0])
    return ChallengeMonth(
        month=month,
        stars=stars,
        next_badge=next_badge,
        next_stars=threshold,
        to_go=threshold - stars,
    )


@dataclass(frozen=True)
class ProfilePage:
    """What the profile template receives. Everything but the name (and the
    owner's own flags) stays empty unless `stats_visible`."""

    username: str
    member_since: datetime
    is_owner: bool
    is_public: bool
    stats_visible: bool
    rows: list[StatsRow]
    overall: StatsRow | None
    badges: list[Badge]
    charts: list[ScoreChart]
    calendar: DailyCalendar | None
    ratings: list[RatingView] = field(default_factory=list)
    """The player's rating in each match mode played (matches.selectors)."""
    rating_charts: list[ScoreChart] = field(default_factory=list)
    recent_matches: list[Seat] = field(default_factory=list)
    challenges: ChallengeMonth | None = None
    """This month's challenge stars and badge progress."""
    campaign: Campaign | None = None
    """The Codex campaign's tiers, wins, stars and ledger."""
    reigns: list[Reign] = field(default_factory=list)
    """The player's reigns as Master Architect, the latest first."""


@dataclass(frozen=True)
class WinStreaks:
    current: int = 0
    longest: int = 0


def win_streaks(statuses: Iterable[str]) -> WinStreaks:
    """Wins in a row over closed games in the order they closed: any other end
    (lost, finished, abandoned) breaks the streak; `current` is the run at the end."""
    current = longest = 0
    for status in statuses:
        current = current + 1 if status == Game.Status.WON else 0
        longest = max(longest, current)
    return WinStreaks(current=current, longest=longest)


def player_win_streaks(*, player: User) -> dict[str, WinStreaks]:
    """The win streaks of each game the player has closed, and "overall" (every
    game in the order they closed), from one query. Active games are ignored, and so
    are games the review holds (`Game.review_hold`): they neither extend nor break a
    streak until they are cleared."""
    closed = (
        Game.objects.counted()
        .filter(player=player, finished_at__isnull=False)
        .exclude(status=Game.Status.ACTIVE)
        .order_by("finished_at", "id")
        .values_list("variant", "status")
    )
    by_variant: dict[str, list[str]] = {}
    every: list[str] = []
    for variant, status in closed:
        by_variant.setdefault(variant, []).append(status)
        every.append(status)
    streaks = {variant: win_streaks(statuses) for variant, statuses in by_variant.items()}
    streaks["overall"] = win_streaks(every)
    return streaks


def _row(*, key: str, name: str, stats: GameStats, streaks: WinStreaks) -> StatsRow:
    return StatsRow(
        key=key,
        name=name,
        played=stats.played,
        won=stats.won,
        win_rate=stats.win_rate,
        best_score=stats.best_score,
        fastest_win_seconds=stats.fastest_win_seconds,
        total_moves=stats.total_moves,
        current_win_streak=streaks.current,
        longest_win_streak=streaks.longest,
    )


def player_stats_rows(*, player: User) -> tuple[list[StatsRow], StatsRow]:
    """One row per game the site offers, in its order, and the overall row."""
    streaks = player_win_streaks(player=player)
    rows = [
        _row(
            key=spec.key,
            name=spec.name,
            stats=game_stats_for_player(player=player, variant=spec.key),
            streaks=streaks.get(spec.key, WinStreaks()),
        )
        for spec in game_specs()
    ]
    overall = _row(
        key="overall",
        name="Overall",
        stats=game_stats_for_player(player=player),
        streaks=streaks["overall"],
    )
    return rows, overall


def player_score_charts(*, player: User, games: int = CHART_GAMES) -> list[ScoreChart]:
    """A chart per game the player has closed: the final scores of the last
    `games` closed games of it, oldest first (none the review holds)."""
    charts = []
    for spec in game_specs():
        key = spec.key
        latest = (
            Game.objects.counted()
            .filter(player=player, variant=key, finished_at__isnull=False)
            .exclude(status=Game.Status.ACTIVE)
            .order_by("-finished_at", "-id")
            .values_list("finished_at", "final_score", "score", "status")[:games]
        )
        results = [
            ResultPoint(
                finished_at=finished_at,
                score=final_score if final_score is not None else score,
                won=status == Game.Status.WON,
            )
            for finished_at, final_score, score, status in reversed(list(latest))
            if finished_at is not None
        ]
        chart = score_chart(key=key, name=spec.name, results=results)
        if chart is not None:
            charts.append(chart)
    return charts


RECENT_MATCHES = 10


def player_rating_charts(*, player: User, ratings: list[RatingView]) -> list[ScoreChart]:
    """A chart per match mode the player is rated in: the rating after each match."""
    charts = []
    for rating in ratings:
        history = player_rating_history(player=player, mode=rating.mode)[-CHART_GAMES:]
        points = [ResultPoint(finished_at=at, score=value, won=won) for at, value, won in history]
        mode = match_mode(rating.mode)
        chart = score_chart(
            key=f"rating-{rating.mode}",
            name=mode.name if mode else rating.mode,
            results=points,
            measure="Ratings after each",
            items="rated {name} matches",
        )
        if chart is not None:
            charts.append(chart)
    return charts


def _next_month(month: date) -> date:
    return (month.replace(day=28) + timedelta(days=4)).replace(day=1)


def player_daily_calendar(*, player: User, month: date | None, today: date) -> DailyCalendar:
    """The month's calendar of daily deals played (this month by default, never
    a month after it) and the current daily streak."""
    first = (month or today).replace(day=1)
    if first > today:
        first = today.replace(day=1)
    following = _next_month(first)
    return DailyCalendar(
        month=first,
        weeks=daily_calendar(player=player, month=first, today=today),
        previous_month=(first - timedelta(days=1)).strftime("%Y-%m"),
        next_month=following.strftime("%Y-%m") if following <= today else None,
        streak=daily_streak(player=player, today=today),
    )


@dataclass(frozen=True)
class ProfileAccess:
    """Who a profile is, and what its viewer may see of it: the private-profile rule."""

    user: User
    is_owner: bool
    is_public: bool

    @property
    def stats_visible(self) -> bool:
        return self.is_owner or self.is_public


def profile_access(*, username: str, viewer: AbstractBaseUser | AnonymousUser) -> ProfileAccess:
    """The owner sees everything of a profile; anyone else only a public one's figures.
    Raises the user model's DoesNotExist for an unknown name."""
    user = user_for_username(username=username)
    return ProfileAccess(
        user=user,
        is_owner=viewer.is_authenticated and viewer.pk == user.pk,
        is_public=profile_for_user(user=user).public,
    )


def profile_for_username(
    *,
    username: str,
    viewer: AbstractBaseUser | AnonymousUser,
    month: date | None = None,
    today: date | None = None,
    with_page_sections: bool = True,
) -> ProfilePage:
    """The profile page as `viewer` may see it: badges, statistics, the chart of
    recent results and the daily calendar (of `month`, this one by default), the
    ratings with their charts, the recent matches, this month's challenge stars and
    the Codex campaign with the player's reigns as its Master Architect.
    Without `with_page_sections` only the badges, the statistics, this month's
    challenge stars and the Codex campaign with the reigns are read (the API's profile;
    its matches and ratings have their own endpoint).

    The owner always sees everything; anyone else only when the profile is
    public, and otherwise nothing but the name (nothing else is even read).
    Raises the user model's DoesNotExist for an unknown name.
    """
    access = profile_access(username=username, viewer=viewer)
    user, is_owner, stats_visible = access.user, access.is_owner, access.stats_visible
    rows: list[StatsRow] = []
    overall: StatsRow | None = None
    badges: list[Badge] = []
    charts: list[ScoreChart] = []
    calendar: DailyCalendar | None = None
    ratings: list[RatingView] = []
    rating_charts: list[ScoreChart] = []
    recent_matches: list[Seat] = []
    challenges: ChallengeMonth | None = None
    campaign: Campaign | None = None
    reigns: list[Reign] = []
    if stats_visible:
        rows, overall = player_stats_rows(player=user)
        badges = badges_for_player(player=user)
        challenges = player_challenge_month(player=user, today=today or today_utc())
        campaign = codex_campaign(player=user)
        reigns = player_reigns(player_id=user.pk)
    if stats_visible and with_page_sections:
        charts = player_score_charts(player=user)
        calendar = player_daily_calendar(player=user, month=month, today=today or today_utc())
        ratings = player_ratings(player=user)
        rating_charts = player_rating_charts(player=user, ratings=ratings)
        recent_matches = list(match_history_for_player(player=user)[:RECENT_MATCHES])
    return ProfilePage(
        username=user.get_username(),
        member_since=user.date_joined,
        is_owner=is_owner,
        is_public=access.is_public,
        stats_visible=stats_visible,
        rows=rows,
        overall=overall,
        badges=badges,
        charts=charts,
        calendar=calendar,
        ratings=ratings,
        rating_charts=rating_charts,
        recent_matches=recent_matches,
        challenges=challenges,
        campaign=campaign,
        reigns=reigns,
    )
