"""The monthly challenge leaderboard: players ranked by their month's stars, then by
the earlier time of their last star, through the leaderboards' ranking rule
"stars_last_star" (leaderboards.ranking)."""

from dataclasses import dataclass
from datetime import UTC, date, datetime, time

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Max, Sum

from challenges.models import Completion
from challenges.selectors import month_of
from leaderboards.paging import PageOfRanks, page_cut, shared_ranks
from leaderboards.ranking import RANKING_RULES

PAGE_SIZE = 50
RULE = RANKING_RULES["stars_last_star"]


@dataclass(frozen=True, kw_only=True)
class MonthFigures:
    """A player's month as the ranking rule reads it: its score is the stars, its
    elapsed time runs from the month's start to the last star."""

    score: int
    elapsed_ms: int


@dataclass(frozen=True, kw_only=True)
class MonthRow:
    rank: int
    player_id: int
    username: str
    stars: int
    last_star_at: datetime
    is_viewer: bool


@dataclass(frozen=True, kw_only=True)
class MonthBoard(PageOfRanks):
    month: date
    rows: list[MonthRow]
    number: int
    num_pages: int
    total: int
    viewer_row: MonthRow | None


def month_leaderboard(*, month: date, page: int, viewer: AbstractBaseUser | None) -> MonthBoard:
    """A page of the month's players (one query: the completions grouped by player).
    Equal rank keys share a rank, the next rank counting every player before it."""
    month = month_of(month)
    start = datetime.combine(month, time.min, tzinfo=UTC)
    totals = (
        Completion.objects.filter(month=month)
        .values("player_id", "player__username")
        .annotate(stars=Sum("stars"), last=Max("completed_at"))
    )
    keyed = sorted(
        (
            (
                RULE.rank_key(
                    MonthFigures(
                        score=row["stars"],
                        elapsed_ms=int((row["last"] - start).total_seconds() * 1000),
                    )
                ),
                row,
            )
            for row in totals
        ),
        key=lambda pair: (-pair[0], pair[1]["player__username"]),
    )
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    ranks = shared_ranks([rank_key for rank_key, _ in keyed])
    rows: list[MonthRow] = []
    for rank, (_, row) in zip(ranks, keyed, strict=True):
        rows.append(
            MonthRow(
                rank=rank,
                player_id=row["player_id"],
                username=row["player__username"],
                stars=row["stars"],
                last_star_at=row["last"],
                is_viewer=row["player_id"] == viewer_id,
            )
        )
    cut = page_cut(rows, page, PAGE_SIZE)
    return MonthBoard(
        month=month,
        rows=cut.rows,
        number=cut.number,
        num_pages=cut.num_pages,
        total=cut.total,
        viewer_row=cut.viewer_row,
    )
