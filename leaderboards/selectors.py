"""Reads for daily deals and leaderboards. Live ranks come from Redis when the
site runs with it (and it answers), else straight from PostgreSQL."""

import calendar
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import CharField, Exists, OuterRef, QuerySet, Sum
from django.db.models.functions import Cast

from games.engine import EngineError, Variant, get_variant, shuffled_deck
from games.models import Game
from games.specs import TEMPLATE_PARTS, game_spec
from leaderboards import redis_ranks
from leaderboards.certification import difficulty_word
from leaderboards.models import DailyDeal, PeriodBest, Result, ScoreCount
from leaderboards.paging import PageOfRanks, page_number
from leaderboards.periods import period_start
from leaderboards.ranking import RANKING_RULES, RankingRule

PAGE_SIZE = 50


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    username: str
    won: bool
    score: int
    elapsed_seconds: int
    move_count: int
    is_viewer: bool


@dataclass(frozen=True)
class LeaderboardPage(PageOfRanks):
    rows: list[LeaderboardRow]
    number: int
    num_pages: int
    total: int
    viewer_row: LeaderboardRow | None
    source: str


def _row(
    rank: int, username: str, won: bool, score: int, elapsed_ms: int, moves: int, viewer: bool
) -> LeaderboardRow:
    return LeaderboardRow(rank, username, won, score, elapsed_ms // 1000, moves, viewer)


def _ranked_rows(
    entries: list[redis_ranks.RankedRow], offset: int, first_rank: int, viewer: User | None
) -> list[LeaderboardRow]:
    """Rows in order from place `offset` on: equal keys share a rank (1, 2, 2, 4).
    The first row's rank is counted (its tie may have begun on an earlier page);
    each new key after it ranks at its own place."""
    rows = []
    rank, previous = first_rank, None
    for position, entry in enumerate(entries):
        if previous is not None and entry.rank_key != previous:
            rank = offset + position + 1
        previous = entry.rank_key
        rows.append(_entry_row(entry, rank, viewer is not None and entry.player_id == viewer.pk))
    return rows


def _entry_row(entry: redis_ranks.RankedRow, rank: int, is_viewer: bool) -> LeaderboardRow:
    return _row(
        rank,
        entry.username,
        entry.won,
        entry.score,
        entry.elapsed_ms,
        entry.move_count,
        is_viewer,
    )


def _from_redis(deal: DailyDeal, page: int, viewer: User | None) -> LeaderboardPage | None:
    """The page from the live ranks, or None when they cannot answer (Redis down,
    or the deal not built: new, or flushed) and the database must."""
    try:
        total = redis_ranks.size(deal.id)
        if not total:
            return None
        number, num_pages = page_number(page, total, PAGE_SIZE)
        offset = (number - 1) * PAGE_SIZE
        first_rank, entries = redis_ranks.page(deal.id, offset, PAGE_SIZE)
        mine = redis_ranks.rank_of(deal.id, viewer.pk) if viewer is not None else None
    except redis_ranks.RanksUnavailable:
        return None
    viewer_row = _entry_row(mine[1], mine[0], True) if mine is not None else None
    rows = _ranked_rows(entries, offset, first_rank, viewer)
    return LeaderboardPage(rows, number, num_pages, total, viewer_row, "redis")


def _entries(results: QuerySet[Result]) -> list[redis_ranks.RankedRow]:
    return [
        redis_ranks.RankedRow(*values)
        for values in results.values_list(*redis_ranks.RANKED_ROW_LOOKUPS)
    ]


def ranking_rule_for(variant: str) -> RankingRule:
    """The ranking rule of a game's leaderboards (its spec names it: games.specs)."""
    spec = game_spec(variant)
    if spec is None:
        raise ValueError(f"The site offers no game {variant!r}")
    return RANKING_RULES[spec.ranking]


def _total(deal: DailyDeal) -> int:
    """The deal's listed results: the sum of its histogram of scores (a few thousand
    rows at most) instead of a count of every result."""
    counts = ScoreCount.objects.filter(daily_deal=deal).aggregate(total=Sum("count"))
    return int(counts["total"] or 0)


# Within its own bucket a rank counts the results above it; a bucket with more
# than twice this many results is probed from both ends first, so a rank near
# either end of a large bucket (many results on one score) ends there.
RANK_PROBE = 10_000

_BETTER_SQL = """
SELECT
  (SELECT COALESCE(SUM("count"), 0) FROM {counts}
    WHERE daily_deal_id = %(deal)s AND bucket > %(bucket)s),
  (SELECT COALESCE(SUM("count"), 0) FROM {counts}
    WHERE daily_deal_id = %(deal)s AND bucket = %(bucket)s),
  (SELECT COUNT(*) FROM (
    SELECT 1 FROM {results} WHERE daily_deal_id = %(deal)s AND listed = %(listed)s
      AND rank_key > %(key)s AND rank_key < %(high)s LIMIT %(probe)s) AS above),
  (SELECT COUNT(*) FROM (
    SELECT 1 FROM {results} WHERE daily_deal_id = %(deal)s AND listed = %(listed)s
      AND rank_key <= %(key)s AND rank_key >= %(low)s LIMIT %(probe)s) AS at_or_below)
"""

_BETTER_FULL_SQL = """
SELECT
  (SELECT COALESCE(SUM("count"), 0) FROM {counts}
    WHERE daily_deal_id = %(deal)s AND bucket > %(bucket)s)
  + (SELECT COUNT(*) FROM {results} WHERE daily_deal_id = %(deal)s AND listed = %(listed)s
      AND rank_key > %(key)s AND rank_key < %(high)s)
"""


def _count_better(deal: DailyDeal, rank_key: int) -> int:
    """Results of the deal strictly better than `rank_key`: the histogram's counts of
    the better buckets, plus the results above it within its own bucket, counted on
    the rank index. Each answer comes from one statement (one snapshot), so it is
    exact at that moment, and counts the results of one score, not of the board."""
    rule = ranking_rule_for(deal.variant)
    bucket = rule.bucket(rank_key)
    params = {
        "deal": deal.id,
        "bucket": bucket,
        "listed": True,
        "key": rank_key,
        "low": bucket << rule.bucket_shift,
        "high": (bucket + 1) << rule.bucket_shift,
        "probe": RANK_PROBE + 1,
    }
    tables = {"counts": ScoreCount._meta.db_table, "results": Result._meta.db_table}
    with connection.cursor() as cursor:
        cursor.execute(_BETTER_SQL.format(**tables), params)
        better_buckets, in_bucket, above, at_or_below = cursor.fetchone()
        if above <= RANK_PROBE:
            return int(better_buckets + above)
        if at_or_below <= RANK_PROBE:
            return int(better_buckets + in_bucket - at_or_below)
        # In the middle of a bucket larger than 2 * RANK_PROBE: count its upper part.
        cursor.execute(_BETTER_FULL_SQL.format(**tables), params)
        return int(cursor.fetchone()[0])


def _page_entries(
    results: QuerySet[Result], offset: int, limit: int, total: int
) -> list[redis_ranks.RankedRow]:
    """Entries offset..offset+limit-1, best first. A page in the lower half is read
    from the bottom of the index, so that no page skips more than half the board."""
    if offset + limit <= total // 2 or offset >= total:
        return _entries(results.order_by("-rank_key", "-player_id")[offset : offset + limit])
    end = total - offset
    start = max(0, end - limit)
    return _entries(results.order_by("rank_key", "player_id")[start:end])[::-1]


def _from_database(deal: DailyDeal, page: int, viewer: User | None) -> LeaderboardPage:
    results = Result.objects.listed().filter(daily_deal=deal)
    total = _total(deal)
    number, num_pages = page_number(page, total, PAGE_SIZE)
    offset = (number - 1) * PAGE_SIZE
    entries = _page_entries(results, offset, PAGE_SIZE, total)
    # Nothing ranks above the first page; a later one may begin inside a tie.
    first_rank = _count_better(deal, entries[0].rank_key) + 1 if entries and offset else 1
    rows = _ranked_rows(entries, offset, first_rank, viewer)
    viewer_row = next((row for row in rows if row.is_viewer), None)
    if viewer is not None and viewer_row is None:
        mine = _entries(results.filter(player=viewer))
        if mine:
            viewer_row = _entry_row(mine[0], _count_better(deal, mine[0].rank_key) + 1, True)
    return LeaderboardPage(rows, number, num_pages, total, viewer_row, "database")


def leaderboard_for_deal(
    *, deal: DailyDeal, page: int = 1, viewer: User | None = None
) -> LeaderboardPage:
    """One page of a daily deal's ranks, with the viewer's own row wherever it is."""
    if redis_ranks.enabled():
        live = _from_redis(deal, page, viewer)
        if live is not None:
            return live
    return _from_database(deal, page, viewer)


def player_hold_on_deal(*, deal: DailyDeal, player: User) -> str:
    """The review's hold on the player's ranked game of the deal (Game.ReviewHold), the
    reason it has no row on the deal's leaderboard; empty without one."""
    hold = (
        Game.objects.held()
        .filter(player=player, track=Game.Track.DAILY, track_ref=deal.track_ref, is_ranked=True)
        .values_list("review_hold", flat=True)
        .first()
    )
    return hold or ""


def player_rank(*, deal: DailyDeal, player: User) -> int | None:
    """The player's rank on a deal, or None without a ranked result."""
    return player_ranks(deals=[deal], player=player).get(deal.id)


def player_ranks(*, deals: list[DailyDeal], player: User) -> dict[int, int]:
    """The player's rank on each of these deals they have a ranked result on, by
    deal id: from the live ranks where they answer, else from the database (the
    player's rank keys in one query, then one count for each deal)."""
    ranks: dict[int, int] = {}
    if redis_ranks.enabled():
        for deal in deals:
            rank = _rank_from_redis(deal, player)
            if rank is not None:
                ranks[deal.id] = rank
    unranked = [deal for deal in deals if deal.id not in ranks]
    if unranked:
        ranks.update(_ranks_from_database(unranked, player))
    return ranks


def _rank_from_redis(deal: DailyDeal, player: User) -> int | None:
    try:
        if not redis_ranks.size(deal.id):
            return None
        mine = redis_ranks.rank_of(deal.id, player.pk)
    except redis_ranks.RanksUnavailable:
        return None
    return mine[0] if mine is not None else None


def _ranks_from_database(deals: list[DailyDeal], player: User) -> dict[int, int]:
    by_id = {deal.id: deal for deal in deals}
    keys = (
        Result.objects.listed()
        .filter(daily_deal_id__in=by_id, player=player)
        .values_list("daily_deal_id", "rank_key")
    )
    return {deal_id: _count_better(by_id[deal_id], key) + 1 for deal_id, key in keys}


def daily_deal_get(*, day: date, variant: str) -> DailyDeal:
    return DailyDeal.objects.get(date=day, variant=variant)


def daily_deal_id_of(game: Game) -> int | None:
    """The id of the daily deal a game plays, or None for a game of another track."""
    return int(game.track_ref) if game.track == Game.Track.DAILY else None


def daily_deal_of(*, game: Game) -> DailyDeal | None:
    deal_id = daily_deal_id_of(game)
    return None if deal_id is None else DailyDeal.objects.filter(id=deal_id).first()


@dataclass(frozen=True)
class DealCertificate:
    """What a page may say of a deal's certificate: never its seed or its line while
    the deal is live, only whether it is certified, its par and its difficulty."""

    certified: bool
    par: int | None
    difficulty: int | None
    difficulty_word: str | None
    replay_open: bool
    """The day is over and the solver's line can be stepped through."""


def deal_certificate(*, deal: DailyDeal, today: date) -> DealCertificate:
    certified = deal.verdict == DailyDeal.Verdict.WON and deal.par is not None
    return DealCertificate(
        certified=certified,
        par=deal.par if certified else None,
        difficulty=deal.difficulty if certified else None,
        difficulty_word=difficulty_word(deal.difficulty) if certified else None,
        replay_open=certified and bool(deal.solver_line) and deal.date < today,
    )


@dataclass(frozen=True)
class DailyEntry:
    deal: DailyDeal
    name: str
    ranked_game: Game | None
    attempts: int
    rank: int | None
    certificate: DealCertificate


def daily_overview(*, deals: list[DailyDeal], player: User) -> list[DailyEntry]:
    """Each deal with the player's ranked attempt, attempts made and rank."""
    games = Game.objects.filter(
        player=player, track=Game.Track.DAILY, track_ref__in=[deal.track_ref for deal in deals]
    ).only(
        "id",
        "track_ref",
        "is_ranked",
        "status",
        "score",
        "final_score",
        "elapsed_ms",
        "review_hold",
    )
    ranked = {int(game.track_ref): game for game in games if game.is_ranked}
    attempts = Counter(int(game.track_ref) for game in games)
    closed = [deal for deal in deals if deal.id in ranked and not ranked[deal.id].is_active]
    ranks = player_ranks(deals=closed, player=player) if closed else {}
    return [
        DailyEntry(
            deal=deal,
            name=get_variant(deal.variant).name,
            ranked_game=ranked.get(deal.id),
            attempts=attempts.get(deal.id, 0),
            rank=ranks.get(deal.id),
            certificate=deal_certificate(deal=deal, today=deal.date),
        )
        for deal in deals
    ]


def days_played(*, player: User, since: date | None = None) -> set[date]:
    """The days the player played a daily deal of, by their games the review does not
    hold (a day of a voided game alone is not played: docs/review.md)."""
    played = Game.objects.counted().filter(
        player=player, track=Game.Track.DAILY, track_ref=Cast(OuterRef("pk"), CharField())
    )
    deals = DailyDeal.objects.filter(Exists(played))
    if since is not None:
        deals = deals.filter(date__gte=since)
    return set(deals.values_list("date", flat=True).distinct())


def daily_streak(*, player: User, today: date) -> int:
    """Days in a row with a daily deal played, up to today (or yesterday, while
    today is still open)."""
    played = days_played(player=player)
    day = today if today in played else today - timedelta(days=1)
    streak = 0
    while day in played:
        streak += 1
        day -= timedelta(days=1)
    return streak


@dataclass(frozen=True)
class CalendarDay:
    day: date
    played: bool
    is_today: bool
    has_deals: bool


def daily_calendar(*, player: User, month: date, today: date) -> list[list[CalendarDay | None]]:
    """The month as weeks (Monday first) of days, None outside the month."""
    first = month.replace(day=1)
    played = days_played(player=player, since=first)
    with_deals = set(
        DailyDeal.objects.filter(date__gte=first, date__lte=first + timedelta(days=31))
        .values_list("date", flat=True)
        .distinct()
    )
    weeks: list[list[CalendarDay | None]] = []
    for week in calendar.Calendar(firstweekday=0).monthdatescalendar(first.year, first.month):
        weeks.append(
            [
                CalendarDay(d, d in played, d == today, d in with_deals)
                if d.month == first.month
                else None
                for d in week
            ]
        )
    return weeks


def seconds_to_next_deals(*, now: datetime) -> int:
    """Seconds until the next deals, at 00:00 UTC whatever zone `now` is in."""
    utc_now = now.astimezone(UTC)
    tomorrow = datetime.combine(utc_now.date() + timedelta(days=1), time.min, tzinfo=UTC)
    return int((tomorrow - utc_now).total_seconds())


@dataclass(frozen=True)
class PeriodTable:
    page: Page[PeriodBest]
    viewer_row: PeriodBest | None


def period_leaderboard(
    *, variant: str, period: str, today: date, page: int = 1, viewer: User | None = None
) -> PeriodTable:
    """A page of the materialised weekly or all-time table of a game. A result
    taken off the leaderboards is left out at once, before the table is recomputed."""
    bests = (
        PeriodBest.objects.filter(
            variant=variant,
            period=period,
            period_start=period_start(period, today),
            result__listed=True,
        )
        .select_related("player")
        .order_by("rank", "id")
    )
    current = Paginator(bests, PAGE_SIZE).get_page(page)
    if viewer is None:
        return PeriodTable(page=current, viewer_row=None)
    # The page is read once (into a list, which the template then iterates).
    mine = next((best for best in current if best.player_id == viewer.pk), None)
    return PeriodTable(page=current, viewer_row=mine or bests.filter(player=viewer).first())


class ReplayClosed(Exception):
    """The deal's solver line may not be shown: the day is not over, or there is none."""


NO_GAME = UUID(int=0)


@dataclass(frozen=True)
class ReplayBoard:
    """What a game's board template reads (games.selectors.Board's names), for a
    position of the solver's line: closed, so nothing on it is a link or a live
    control, and shown inside a disabled fieldset."""

    variant: str
    variant_name: str
    public: dict[str, Any]
    templates: dict[str, str]
    id: UUID = NO_GAME
    revision: int = 0
    is_active: bool = False
    selection: None = None
    highlight: bool = False
    always_highlight: bool = True
    move_map: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class ReplayMove:
    number: int
    text: str
    current: bool


@dataclass(frozen=True, kw_only=True)
class LineReplay:
    """The board after the first `step` moves of a stored line (a solver's)."""

    step: int
    last_step: int
    board: ReplayBoard
    status: str
    score: int
    moves: list[ReplayMove]
    error: str | None

    @property
    def previous_step(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next_step(self) -> int | None:
        return self.step + 1 if self.step < self.last_step else None

    @property
    def current_move(self) -> str | None:
        return self.moves[self.step - 1].text if self.step > 0 else None


@dataclass(frozen=True, kw_only=True)
class ParReplay(LineReplay):
    """The board after the first `step` moves of the solver's winning line."""

    deal: DailyDeal


def line_replay(
    *,
    variant: Variant[Any],
    deck: Sequence[str],
    options: dict[str, Any],
    line: list[str],
    step: int,
) -> LineReplay:
    """A line played from the deal of `deck` up to `step` (held within 0 and the
    line's length), as the engine's public view of that position: no hidden card."""
    step = min(max(0, step), len(line))
    state = variant.deal(deck, variant.normalize_options(options))
    error = None
    for index, text in enumerate(line[:step], start=1):
        try:
            state = variant.play(state, text).state
        except EngineError as refused:
            # A line stored under older rules that no longer replays: say where.
            error = f"Move {index} ({text}) does not replay under today's rules: {refused}"
            step = index - 1
            break
    spec = game_spec(variant.key)
    templates = {part: spec.template(part) for part in TEMPLATE_PARTS} if spec else {}
    board = ReplayBoard(
        variant=variant.key,
        variant_name=variant.name,
        public=variant.public_view(state),
        templates=templates,
    )
    return LineReplay(
        step=step,
        last_step=len(line),
        board=board,
        status=variant.status(state),
        score=variant.score(state),
        moves=[
            ReplayMove(number, text, number == step) for number, text in enumerate(line, start=1)
        ],
        error=error,
    )


def par_replay(*, deal: DailyDeal, step: int, today: date) -> ParReplay:
    """The solver's line of a deal whose day is over, at `step` (held within 0 and
    the line's length), from the engine's public view of that position. Raises
    ReplayClosed while the deal is live or when it has no line."""
    if deal.date >= today:
        raise ReplayClosed("The solver's line is shown once the deal's day is over")
    line = [str(move) for move in deal.solver_line]
    if deal.verdict != DailyDeal.Verdict.WON or not line:
        raise ReplayClosed("This deal has no certified line")
    replay = line_replay(
        variant=get_variant(deal.variant),
        deck=shuffled_deck(deal.seed),
        options=deal.options,
        line=line,
        step=step,
    )
    return ParReplay(deal=deal, **vars(replay))
