"""A Codex scenario's all-time leaderboard: each player's best closed game of the
scenario, ranked through the leaderboards' rule "won_score_time_moves"
(leaderboards.ranking): without hints first, then won, then the ledger (the final
score), then less time, then fewer moves. Won, lost and finished games are ranked; an
abandoned game, one left for another game, and a game a review holds off (not in the
player's figures) are not."""

from dataclasses import dataclass, replace
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser

from codex.selectors import LEDGER_STATUSES
from games.models import Game
from leaderboards.paging import PageOfRanks, page_cut, shared_ranks
from leaderboards.ranking import RANKING_RULES

PAGE_SIZE = 50
RULE = RANKING_RULES["won_score_time_moves"]


@dataclass(frozen=True, kw_only=True)
class ScenarioRow:
    """A player's best game of the scenario, as the board shows it: figures only."""

    rank: int
    player_id: int
    username: str
    won: bool
    hints_used: int
    score: int
    """The ledger: the game's final score."""
    elapsed_ms: int
    move_count: int
    finished_at: datetime
    is_viewer: bool

    @property
    def elapsed_seconds(self) -> int:
        return self.elapsed_ms // 1000


@dataclass(frozen=True, kw_only=True)
class ScenarioBoard(PageOfRanks):
    key: str
    rows: list[ScenarioRow]
    number: int
    num_pages: int
    total: int
    viewer_row: ScenarioRow | None


def scenario_leaderboard(*, key: str, page: int, viewer: AbstractBaseUser | None) -> ScenarioBoard:
    """A page of the scenario's players (one query: the figures of its ranked games).
    A player's best is the highest rank key, the earlier finish between equal keys.
    Equal keys share a rank, the next rank counting every player before it; between
    them the earlier finish is listed first."""
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    games = (
        Game.objects.counted()
        .filter(track=Game.Track.SCENARIO, track_ref=key, status__in=LEDGER_STATUSES)
        .order_by()
        .values(
            "player_id",
            "player__username",
            "status",
            "hints_used",
            "final_score",
            "elapsed_ms",
            "move_count",
            "finished_at",
        )
    )
    bests: dict[int, tuple[int, ScenarioRow]] = {}
    for game in games:
        score, finished_at = game["final_score"], game["finished_at"]
        # Closing a game sets both; a row without them has no result to rank.
        if score is None or finished_at is None:
            continue
        row = ScenarioRow(
            rank=0,  # given once every player's best is known
            player_id=game["player_id"],
            username=game["player__username"],
            won=game["status"] == Game.Status.WON,
            hints_used=game["hints_used"],
            score=score,
            elapsed_ms=game["elapsed_ms"],
            move_count=game["move_count"],
            finished_at=finished_at,
            is_viewer=game["player_id"] == viewer_id,
        )
        rank_key = RULE.rank_key(row)
        best = bests.get(row.player_id)
        if (
            best is None
            or rank_key > best[0]
            or (rank_key == best[0] and row.finished_at < best[1].finished_at)
        ):
            bests[row.player_id] = (rank_key, row)
    keyed = sorted(
        bests.values(), key=lambda pair: (-pair[0], pair[1].finished_at, pair[1].username)
    )
    ranks = shared_ranks([rank_key for rank_key, _ in keyed])
    rows = [replace(row, rank=rank) for rank, (_, row) in zip(ranks, keyed, strict=True)]
    cut = page_cut(rows, page, PAGE_SIZE)
    return ScenarioBoard(
        key=key,
        rows=cut.rows,
        number=cut.number,
        num_pages=cut.num_pages,
        total=cut.total,
        viewer_row=cut.viewer_row,
    )
