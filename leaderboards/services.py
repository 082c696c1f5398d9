"""Writes for daily deals and leaderboards.

PostgreSQL is the source of truth: a ranked game's result row is written in the
transaction that closes the game. Redis ranks and the weekly and all-time tables
are derived, and every function that writes them can run again with one effect.
"""

import logging
from collections.abc import Iterator
from datetime import date

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import get_variant, new_seed, variant_keys
from games.models import DailyDeal, Game
from leaderboards import redis_ranks
from leaderboards.models import PeriodBest, Result
from leaderboards.periods import period_start
from leaderboards.ranking import RANKING_RULES, RankingRule

logger = logging.getLogger(__name__)


def daily_deal_games() -> list[str]:
    """The games that get a daily deal: those configured that the engine knows."""
    known = set(variant_keys())
    return [variant for variant in settings.DAILY_DEALS if variant in known]


def ranking_rule_for(variant: str) -> RankingRule:
    return RANKING_RULES[str(settings.DAILY_DEALS[variant]["ranking"])]


def daily_deals_ensure(*, day: date) -> list[DailyDeal]:
    """The day's deals, created where missing. Safe to run twice, late or at the
    same moment as another process: the database allows one deal per game and day."""
    deals = []
    for variant in daily_deal_games():
        options = get_variant(variant).normalize_options(
            settings.DAILY_DEALS[variant].get("options")  # type: ignore[arg-type]
        )
        deal, _ = DailyDeal.objects.get_or_create(
            date=day, variant=variant, defaults={"options": options, "seed": new_seed()}
        )
        deals.append(deal)
    return deals


def result_record(*, game: Game) -> Result | None:
    """Record the result of a ranked game that has just closed (inside its
    transaction) and publish it to the live ranks once that commits."""
    if not game.is_ranked or game.daily_deal_id is None or game.final_score is None:
        return None
    result = Result(
        game=game,
        daily_deal_id=game.daily_deal_id,
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
    transaction.on_commit(lambda: _enqueue_publish(result.id))
    return result


def _enqueue_publish(result_id: int) -> None:
    """Hand the result to the live ranks; if the broker or Redis is down the
    periodic sync catches up, so a failure here never fails the finished game."""
    from leaderboards.tasks import result_publish_task

    try:
        result_publish_task.delay(result_id)
    except Exception:
        logger.warning("live ranks not updated for result %s; the sync will", result_id)


def _ranked_row(result: Result) -> redis_ranks.RankedRow:
    return redis_ranks.RankedRow(
        player_id=result.player_id,
        username=result.player.get_username(),
        won=result.won,
        score=result.score,
        elapsed_ms=result.elapsed_ms,
        move_count=result.move_count,
        rank_key=result.rank_key,
    )


def result_publish(*, result_id: int) -> bool:
    """Put one result into the live ranks (no-op without Redis)."""
    if not redis_ranks.enabled():
        return False
    result = Result.objects.select_related("player").filter(id=result_id).first()
    if result is None:
        return False
    redis_ranks.publish(result.daily_deal_id, _ranked_row(result))
    return True


def _rows_for_deal(deal_id: int) -> Iterator[redis_ranks.RankedRow]:
    results = (
        Result.objects.filter(daily_deal_id=deal_id)
        .select_related("player")
        .only(
            "player__username",
            "player_id",
            "won",
            "score",
            "elapsed_ms",
            "move_count",
            "rank_key",
        )
    )
    for result in results.iterator(chunk_size=redis_ranks.REBUILD_BATCH):
        yield _ranked_row(result)


def leaderboard_rebuild(*, deal_id: int) -> int:
    """Rebuild a deal's live ranks from the database; returns the results ranked."""
    if not redis_ranks.enabled():
        return 0
    return redis_ranks.rebuild(deal_id, _rows_for_deal(deal_id))


def leaderboards_sync(*, since: date) -> list[int]:
    """Rebuild the live ranks of every deal since `since` whose Redis copy does
    not hold as many results as the database (after a flush or an outage)."""
    if not redis_ranks.enabled():
        return []
    rebuilt = []
    for deal in DailyDeal.objects.filter(date__gte=since):
        expected = Result.objects.filter(daily_deal=deal).count()
        if redis_ranks.size(deal.id) != expected:
            leaderboard_rebuild(deal_id=deal.id)
            rebuilt.append(deal.id)
    return rebuilt


def period_rankings_compute(*, variant: str, period: str, today: date) -> int:
    """Materialise the best daily result of every player over the period, ranked.
    Computing twice gives the same table."""
    start = period_start(period, today)
    results = Result.objects.filter(variant=variant)
    if period == PeriodBest.Period.WEEK:
        results = results.filter(daily_deal__date__gte=start, daily_deal__date__lte=today)
    best: dict[int, Result] = {}
    for result in results.order_by("player_id", "-rank_key", "finished_at", "id").iterator():
        best.setdefault(result.player_id, result)
    ordered = sorted(best.values(), key=lambda r: (-r.rank_key, r.finished_at, r.id))
    now = timezone.now()
    rows = []
    rank = 0
    previous_key: int | None = None
    for position, result in enumerate(ordered, start=1):
        if result.rank_key != previous_key:
            rank, previous_key = position, result.rank_key
        rows.append(
            PeriodBest(
                variant=variant,
                period=period,
                period_start=start,
                rank=rank,
                player_id=result.player_id,
                result=result,
                score=result.score,
                won=result.won,
                elapsed_ms=result.elapsed_ms,
                move_count=result.move_count,
                rank_key=result.rank_key,
                computed_at=now,
            )
        )
    with transaction.atomic():
        PeriodBest.objects.filter(variant=variant, period=period, period_start=start).delete()
        PeriodBest.objects.bulk_create(rows, batch_size=5_000)
    return len(rows)


def period_rankings_compute_all(*, today: date) -> dict[str, int]:
    counts = {}
    for variant in daily_deal_games():
        for period in PeriodBest.Period.values:
            counts[f"{variant}:{period}"] = period_rankings_compute(
                variant=variant, period=period, today=today
            )
    return counts
