"""Writes for daily deals and leaderboards.

PostgreSQL is the source of truth: a ranked game's result row is written in the
transaction that closes the game. Redis ranks and the weekly and all-time tables
are derived, and every function that writes them can run again with one effect.
"""

import logging
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from functools import partial
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Count, F, Max, QuerySet, Sum
from django.utils import timezone

from games.engine import get_variant, new_seed
from games.models import Game
from games.selectors import game_active_on_track
from games.services import game_start
from games.specs import daily_game_specs
from games.tracks import Track
from leaderboards import redis_ranks
from leaderboards.models import DailyDeal, PeriodBest, Result, ScoreCount
from leaderboards.periods import period_start
from leaderboards.selectors import daily_deal_get
from leaderboards.selectors import ranking_rule_for as ranking_rule_for  # reviews use it here
from leaderboards.tasks import (
    daily_deal_certify_task,
    leaderboard_rebuild_task,
    period_rankings_deal_task,
    result_publish_task,
)

logger = logging.getLogger(__name__)
# As often as beat recomputes the tables (CELERY_BEAT_SCHEDULE["period-rankings"]).
PERIOD_TABLE_MAX_AGE = timedelta(minutes=5)


def daily_deal_games() -> list[str]:
    """The games that get a daily deal (games.specs)."""
    return [spec.key for spec in daily_game_specs()]


def daily_deals_ensure(*, day: date) -> list[DailyDeal]:
    """The day's deals, created where missing. Safe to run twice, late or at the
    same moment as another process: the database allows one deal per game and day.

    Never waits for a solver: a deal made here (the evening's certification made
    none: a fresh install, a failed run) is dealt at once, uncertified, and with a
    worker its certification on its own seed is enqueued on commit
    (docs/leaderboards.md, "Certified deals")."""
    existing = {deal.variant: deal for deal in DailyDeal.objects.filter(date=day)}
    deals = []
    created_now = []
    for spec in daily_game_specs():
        deal = existing.get(spec.key)
        if deal is None:
            options = get_variant(spec.key).normalize_options(spec.daily_options)
            # get_or_create: a deal another process made meanwhile is the one kept.
            deal, created = DailyDeal.objects.get_or_create(
                date=day, variant=spec.key, defaults={"options": options, "seed": new_seed()}
            )
            if created:
                created_now.append(spec.key)
        deals.append(deal)
    if created_now:
        transaction.on_commit(partial(daily_deal_certify_enqueue, day=day, variants=created_now))
    return deals


def daily_deal_for_day(*, day: date, variant: str, today: date) -> DailyDeal:
    """A day's deal of a game, for a day up to today. Raises DailyDeal.DoesNotExist
    for a day still to come, or a game that had no deal that day."""
    if day > today:
        raise DailyDeal.DoesNotExist("That day's deals are not out yet")
    try:
        return daily_deal_get(day=day, variant=variant)
    except DailyDeal.DoesNotExist:
        # Where no task ran, the first look at today deals today's games.
        todays = daily_deals_ensure(day=today) if day == today else []
        dealt = next((deal for deal in todays if deal.variant == variant), None)
        if dealt is None:
            raise DailyDeal.DoesNotExist("No such daily deal") from None
        return dealt


def daily_deal_certify_enqueue(*, day: date, variants: list[str]) -> None:
    """Hand deals of a day to the certification task, one task per game, where a
    worker runs them. In the embedded default (tasks run in-process) nothing is
    enqueued: a request never runs a solver (`manage.py daily_deals_certify` does).
    A broker that is down loses nothing: the evening's run takes today's untried deals."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    for variant in variants:
        try:
            daily_deal_certify_task.apply_async((day.isoformat(), variant), retry=False)
        except Exception:
            logger.warning("certification of the %s deal of %s not enqueued", variant, day)


def daily_track(*, deal: DailyDeal, ranked: bool) -> Track:
    """The track of a daily deal's games: its cards, its options, its slot."""
    return Track(
        kind=Game.Track.DAILY,
        ref=deal.track_ref,
        seed=deal.seed,
        options=deal.options,
        ranked=ranked,
    )


def daily_deal_play(*, player: User, deal: DailyDeal) -> Game:
    """Resume the player's game of this daily deal, or deal it: the first attempt
    is the ranked one, every later attempt is practice."""
    active = game_active_on_track(
        player=player, variant=deal.variant, track=Game.Track.DAILY, ref=deal.track_ref
    )
    if active is not None:
        return active
    first_attempt = not Game.objects.filter(
        player=player, track=Game.Track.DAILY, track_ref=deal.track_ref
    ).exists()
    # Two requests that both see no game both deal: game_start keeps the first and
    # hands it to the second, which abandons nothing (not the ranked attempt the
    # first one just dealt).
    return game_start(
        player=player,
        variant=deal.variant,
        track=daily_track(deal=deal, ranked=first_attempt),
        abandon_active=False,
    )


def result_record(*, game: Game) -> Result | None:
    """A close hook (settings.GAME_CLOSE_HOOKS): record the result of a ranked daily
    game that has just closed, inside its transaction, and publish it to the live
    ranks once that commits."""
    if not game.is_ranked or game.track != Game.Track.DAILY or game.final_score is None:
        return None
    result = Result(
        game=game,
        daily_deal_id=int(game.track_ref),
        player_id=game.player_id,
        variant=game.variant,
        won=game.status == Game.Status.WON,
        score=game.final_score,
        elapsed_ms=game.elapsed_ms,
        move_count=game.move_count,
        finished_at=game.finished_at or timezone.now(),
    )
    result.rank_key = ranking_rule_for(game.variant).rank_key(result)
    result.save()
    score_count_add(
        deal_id=result.daily_deal_id, variant=result.variant, rank_key=result.rank_key, delta=1
    )
    transaction.on_commit(lambda: _enqueue_publish(result.id))
    return result


def _enqueue_publish(result_id: int) -> None:
    """Hand the result to the live ranks; if the broker or Redis is down the
    periodic sync catches up, so a failure here never fails the finished game."""
    try:
        # retry=False: a broker that is down must not hold up the finished game.
        result_publish_task.apply_async((result_id,), retry=False)
    except Exception:
        logger.warning("live ranks not updated for result %s; the sync will", result_id)


def result_publish(*, result_id: int) -> bool:
    """Put one result into the live ranks. Returns False, writing nothing, without
    Redis or while the deal's ranks are not built (never built, or flushed): the
    sync rebuilds those whole from the database."""
    if not redis_ranks.enabled():
        return False
    row = _ranked_rows(Result.objects.listed().filter(id=result_id)).first()
    if row is None:
        return False
    deal_id, ranked = _ranked_row(row)
    return redis_ranks.publish(deal_id, ranked)


RankedValues = tuple[int, int, str, bool, int, int, int, int]
_RANKED_FIELDS = ("daily_deal_id", *redis_ranks.RANKED_ROW_LOOKUPS)


def _ranked_rows(results: QuerySet[Result]) -> QuerySet[Result, RankedValues]:
    return results.values_list(*_RANKED_FIELDS)


def _ranked_row(values: RankedValues) -> tuple[int, redis_ranks.RankedRow]:
    deal_id, player_id, username, won, score, elapsed_ms, move_count, rank_key = values
    return deal_id, redis_ranks.RankedRow(
        player_id, username, won, score, elapsed_ms, move_count, rank_key
    )


def _rows_for_deal(deal_id: int) -> Iterator[redis_ranks.RankedRow]:
    rows = _ranked_rows(Result.objects.listed().filter(daily_deal_id=deal_id))
    for values in rows.iterator(chunk_size=redis_ranks.REBUILD_BATCH):
        yield _ranked_row(values)[1]


def result_game_hold_changed(*, game: Game) -> None:
    """settings.GAME_REVIEW_HOLD_HOOKS: a daily result is listed exactly while the
    review does not hold its game (Game.review_hold)."""
    if game.track == Game.Track.DAILY and game.is_ranked:
        result_listing_set(game_id=game.id, listed=game.counted)


def result_listing_set(*, game_id: UUID, listed: bool) -> bool:
    """Put the game's result on the leaderboards or take it off (the review's hold
    decides: result_game_hold_changed), inside the caller's transaction. Returns
    whether it changed. After the commit a result taken off leaves the live ranks at
    once, and tasks rebuild the deal's ranks and recompute its weekly and all-time
    tables (`period_rankings_compute_deal`) either way."""
    results = Result.objects.filter(game_id=game_id)
    if not results.exclude(listed=listed).update(listed=listed):
        return False
    deal_id, player_id, variant, rank_key = results.values_list(
        "daily_deal_id", "player_id", "variant", "rank_key"
    ).get()
    score_count_add(deal_id=deal_id, variant=variant, rank_key=rank_key, delta=1 if listed else -1)
    transaction.on_commit(
        partial(_listing_changed, deal_id=deal_id, player_id=player_id, listed=listed)
    )
    return True


def _listing_changed(*, deal_id: int, player_id: int, listed: bool) -> None:
    if not listed and redis_ranks.enabled():
        try:
            redis_ranks.remove(deal_id, player_id)
        except redis_ranks.RanksUnavailable:
            logger.warning(
                "result of player %s on deal %s not removed from Redis", player_id, deal_id
            )
    try:
        # retry=False: a broker that is down never fails the review; the sync
        # compares counts of listed results and rebuilds the deal.
        leaderboard_rebuild_task.apply_async((deal_id,), retry=False)
    except Exception:
        logger.warning("ranks of deal %s not rebuilt; the sync will", deal_id)
    try:
        period_rankings_deal_task.apply_async((deal_id,), retry=False)
    except Exception:
        logger.warning("period tables of deal %s not recomputed; the beat will", deal_id)


def _lock_score_counts(*, deal_id: int, shared: bool) -> None:
    """On PostgreSQL, writers of results share the deal's lock and a rebuild of its
    histogram holds it alone: a rebuild waits for the results being written to
    commit, and counts them, and those written after it wait and add themselves.
    SQLite writes one transaction at a time anyway."""
    if connection.vendor == "postgresql":
        sql = (
            "SELECT pg_advisory_xact_lock_shared(hashtext(%s))"
            if shared
            else "SELECT pg_advisory_xact_lock(hashtext(%s))"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [_lock_name(deal_id)])


_SCORE_COUNT_ADD_SQL = """INSERT INTO {table} (daily_deal_id, bucket, "count") VALUES (%s, %s, %s)
ON CONFLICT (daily_deal_id, bucket) DO UPDATE SET "count" = {table}."count" + excluded."count"
"""
# On PostgreSQL the same upsert takes the deal's shared lock first (_lock_score_counts),
# in the same statement: a finished game pays one statement for its histogram.
_SCORE_COUNT_ADD_LOCKED_SQL = """WITH locked AS (SELECT pg_advisory_xact_lock_shared(hashtext(%s)))
INSERT INTO {table} (daily_deal_id, bucket, "count") SELECT %s, %s, %s FROM locked
ON CONFLICT (daily_deal_id, bucket) DO UPDATE SET "count" = {table}."count" + excluded."count"
"""


def _lock_name(deal_id: int) -> str:
    return f"leaderboards.score_counts:{deal_id}"


def score_count_add(*, deal_id: int, variant: str, rank_key: int, delta: int) -> None:
    """One listed result more (delta 1) or fewer (-1) in its deal's histogram of
    scores, inside the caller's transaction, so the histogram changes when the result
    does (a rank read from the database counts it: selectors._count_better)."""
    bucket = ranking_rule_for(variant).bucket(rank_key)
    table = ScoreCount._meta.db_table
    if delta > 0:
        # One statement: two results of a new bucket at once meet on the unique
        # constraint and both count.
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                sql = _SCORE_COUNT_ADD_LOCKED_SQL.format(table=table)
                cursor.execute(sql, [_lock_name(deal_id), deal_id, bucket, delta])
            else:
                cursor.execute(_SCORE_COUNT_ADD_SQL.format(table=table), [deal_id, bucket, delta])
        return
    _lock_score_counts(deal_id=deal_id, shared=True)
    counts = ScoreCount.objects.filter(daily_deal_id=deal_id, bucket=bucket)
    counts.update(count=F("count") + delta)
    # An empty bucket leaves the table, as a rebuild would not write it.
    counts.filter(count=0).delete()


def result_deleted(*, instance: Result, **kwargs: object) -> None:
    """post_delete of a Result (leaderboards.apps): a result deleted with its player
    or its game (a cascade, where no service of ours runs) leaves the histogram too."""
    if instance.listed:
        score_count_add(
            deal_id=instance.daily_deal_id,
            variant=instance.variant,
            rank_key=instance.rank_key,
            delta=-1,
        )


def score_counts_rebuild(*, deal_id: int) -> int:
    """Rebuild a deal's histogram of scores from its listed results (idempotent: it
    replaces the deal's rows in one transaction); returns the results counted."""
    deal = DailyDeal.objects.only("variant").get(id=deal_id)
    shift = ranking_rule_for(deal.variant).bucket_shift
    with transaction.atomic():
        _lock_score_counts(deal_id=deal_id, shared=False)
        ScoreCount.objects.filter(daily_deal_id=deal_id).delete()
        counts = (
            Result.objects.listed()
            .filter(daily_deal_id=deal_id)
            .annotate(bucket=F("rank_key") / (1 << shift))
            .values_list("bucket")
            .annotate(n=Count("id"))
            .values_list("bucket", "n")
            .order_by()
        )
        rows = [ScoreCount(daily_deal_id=deal_id, bucket=b, count=n) for b, n in counts]
        ScoreCount.objects.bulk_create(rows, batch_size=5_000)
    return sum(row.count for row in rows)


def score_counts_sync(*, since: date) -> list[int]:
    """Rebuild the histogram of every deal since `since` whose counts do not add up to
    its listed results (a result written or deleted by raw SQL, or before the
    histograms existed). Returns the deals rebuilt."""
    deal_ids = list(DailyDeal.objects.filter(date__gte=since).values_list("id", flat=True))
    expected = _listed_counts(deal_ids)
    held = dict(
        ScoreCount.objects.filter(daily_deal_id__in=deal_ids)
        .values_list("daily_deal_id")
        .annotate(n=Sum("count"))
        .values_list("daily_deal_id", "n")
        .order_by()
    )
    rebuilt = [deal_id for deal_id in deal_ids if held.get(deal_id, 0) != expected.get(deal_id, 0)]
    for deal_id in rebuilt:
        score_counts_rebuild(deal_id=deal_id)
    return rebuilt


def _listed_counts(deal_ids: list[int]) -> dict[int, int]:
    """The listed results of each of these deals (those with any), in one query."""
    return dict(
        Result.objects.listed()
        .filter(daily_deal_id__in=deal_ids)
        .values_list("daily_deal_id")
        .annotate(n=Count("id"))
        .values_list("daily_deal_id", "n")
        .order_by()
    )


def leaderboard_rebuild(*, deal_id: int) -> int:
    """Rebuild a deal's live ranks from the database; returns the results ranked."""
    if not redis_ranks.enabled():
        return 0
    return redis_ranks.rebuild(deal_id, _rows_for_deal(deal_id))


def leaderboards_sync(*, since: date) -> list[int]:
    """Rebuild the live ranks of every deal since `since` that Redis has not built
    (new, or flushed) or that holds fewer or more results than the database
    (a result published while Redis was down). Returns the deals rebuilt."""
    if not redis_ranks.enabled():
        return []
    deal_ids = list(DailyDeal.objects.filter(date__gte=since).values_list("id", flat=True))
    if not deal_ids:
        return []
    expected = _listed_counts(deal_ids)
    held = redis_ranks.sizes(deal_ids)
    rebuilt = []
    for deal_id in deal_ids:
        if held[deal_id] != expected.get(deal_id, 0):
            leaderboard_rebuild(deal_id=deal_id)
            rebuilt.append(deal_id)
    return rebuilt


def period_rankings_compute(*, variant: str, period: str, today: date) -> int:
    """Materialise the best daily result of every player over the period (this
    week, Monday to Sunday UTC by deal date, or all time), ranked: equal rank
    keys share a rank. Computing twice gives the same table."""
    start = period_start(period, today)
    results = Result.objects.listed().filter(variant=variant)
    if period == PeriodBest.Period.WEEK:
        results = results.filter(
            daily_deal__date__gte=start, daily_deal__date__lt=start + timedelta(days=7)
        )
    # Each player's best result: the highest key, the earliest of equal ones.
    best: dict[int, tuple[int, datetime, int, int, bool, int, int]] = {}
    ordered_results = results.order_by("player_id", "-rank_key", "finished_at", "id")
    for (
        player_id,
        rank_key,
        finished_at,
        result_id,
        won,
        score,
        elapsed_ms,
        moves,
    ) in ordered_results.values_list(
        "player_id",
        "rank_key",
        "finished_at",
        "id",
        "won",
        "score",
        "elapsed_ms",
        "move_count",
    ).iterator(chunk_size=10_000):
        if player_id not in best:
            best[player_id] = (rank_key, finished_at, result_id, score, won, elapsed_ms, moves)
    ordered = sorted(best.items(), key=lambda item: (-item[1][0], item[1][1], item[1][2]))
    now = timezone.now()
    rows = []
    rank = 0
    previous_key: int | None = None
    for position, (player_id, figures) in enumerate(ordered, start=1):
        rank_key, _, result_id, score, won, elapsed_ms, moves = figures
        if rank_key != previous_key:
            rank, previous_key = position, rank_key
        rows.append(
            PeriodBest(
                variant=variant,
                period=period,
                period_start=start,
                rank=rank,
                player_id=player_id,
                result_id=result_id,
                score=score,
                won=won,
                elapsed_ms=elapsed_ms,
                move_count=moves,
                rank_key=rank_key,
                computed_at=now,
            )
        )
    with transaction.atomic():
        _lock_period(variant=variant, period=period, start=start)
        PeriodBest.objects.filter(variant=variant, period=period, period_start=start).delete()
        PeriodBest.objects.bulk_create(rows, batch_size=5_000)
    return len(rows)


def period_rankings_refresh(
    *, variant: str, period: str, today: date, max_age: timedelta = PERIOD_TABLE_MAX_AGE
) -> bool:
    """Compute the table if it is older than `max_age` (or missing while the period
    has results). For the embedded default, where no beat runs the periodic task:
    the page computes its table on read, at most every `max_age`."""
    start = period_start(period, today)
    newest = PeriodBest.objects.filter(
        variant=variant, period=period, period_start=start
    ).aggregate(newest=Max("computed_at"))["newest"]
    if newest is None:
        results = Result.objects.listed().filter(variant=variant)
        if period == PeriodBest.Period.WEEK:
            results = results.filter(
                daily_deal__date__gte=start, daily_deal__date__lt=start + timedelta(days=7)
            )
        stale = results.exists()
    else:
        stale = newest < timezone.now() - max_age
    if stale:
        period_rankings_compute(variant=variant, period=period, today=today)
    return stale


def period_rankings_refresh_on_read(*, variant: str, period: str, today: date) -> None:
    """Before a read of a table: with no worker there is no beat, so the reader
    brings the table up to date itself (period_rankings_refresh); with one, beat does."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        period_rankings_refresh(variant=variant, period=period, today=today)


def period_rankings_compute_deal(*, deal_id: int, today: date) -> dict[str, int]:
    """Recompute the tables a deal's results count in: its game's week (of the
    deal's date) and all time. After a result was taken off or put back."""
    deal = DailyDeal.objects.get(id=deal_id)
    counts = {}
    for period, day in ((PeriodBest.Period.WEEK, deal.date), (PeriodBest.Period.ALL_TIME, today)):
        start = period_start(period, day)
        counts[f"{deal.variant}:{period}:{start.isoformat()}"] = period_rankings_compute(
            variant=deal.variant, period=period, today=day
        )
    return counts


def _lock_period(*, variant: str, period: str, start: date) -> None:
    """Two computes of one table at once (a retried task meeting the next run)
    take turns on PostgreSQL; SQLite writes one at a time anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))",
                [f"leaderboards.period:{variant}:{period}:{start.isoformat()}"],
            )


def period_rankings_compute_all(*, today: date) -> dict[str, int]:
    """Every game's weekly and all-time tables. On Mondays last week's table is
    computed once more, so that it ends with the results of its last evening."""
    counts = {}
    days = [today, today - timedelta(days=1)] if today.weekday() == 0 else [today]
    for variant in daily_deal_games():
        for period in PeriodBest.Period.values:
            for day in days if period == PeriodBest.Period.WEEK else [today]:
                start = period_start(period, day)
                counts[f"{variant}:{period}:{start.isoformat()}"] = period_rankings_compute(
                    variant=variant, period=period, today=day
                )
    return counts
