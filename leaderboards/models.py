from typing import Self

from django.conf import settings
from django.db import models

from games.models import Game


class DailyDeal(models.Model):
    """One deal a day per game, the same for everyone. The seed is secret.

    Its games are on the daily track (Game.Track.DAILY) with the deal's id as
    their `track_ref` (leaderboards.services.daily_track)."""

    date = models.DateField()
    variant = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    seed = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Verdict(models.TextChoices):
        NOT_CERTIFIED = "", "not certified"
        WON = "won", "certified winnable"
        UNKNOWN = "unknown", "uncertified: the solver found no win within its budget"

    # The certificate (leaderboards.services.certification); secret, like the seed,
    # while the deal is live.
    verdict = models.CharField(max_length=8, choices=Verdict.choices, default="", blank=True)
    par = models.PositiveIntegerField(
        null=True, blank=True, help_text="The length of the solver's winning line."
    )
    solve_ms = models.PositiveIntegerField(null=True, blank=True)
    solver_nodes = models.PositiveBigIntegerField(null=True, blank=True)
    difficulty = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 (easy) to 5 (hardest), from the solver's effort."
    )
    solver_line = models.JSONField(default=list, blank=True)
    seeds_tried = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date", "variant"]
        constraints = [
            models.UniqueConstraint(
                fields=["date", "variant"], name="one_daily_deal_per_game_and_day"
            )
        ]

    def __str__(self) -> str:
        return f"{self.variant} daily deal of {self.date:%Y-%m-%d}"

    @property
    def track_ref(self) -> str:
        return str(self.pk)


class ResultQuerySet(models.QuerySet["Result"]):
    def listed(self) -> Self:
        """The results on the leaderboards: every read, rebuild, count and table
        of the leaderboards goes through here."""
        return self.filter(listed=True)


class Result(models.Model):
    """The ranked result of a player's first attempt at a daily deal.

    Written in the transaction that closes the game, so PostgreSQL always holds
    every result; the Redis ranks and the period tables are rebuilt from here.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="result")
    daily_deal = models.ForeignKey(DailyDeal, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="results"
    )
    variant = models.CharField(max_length=20)
    won = models.BooleanField()
    score = models.IntegerField(help_text="The game's final score, the one rankings use.")
    elapsed_ms = models.PositiveBigIntegerField()
    move_count = models.PositiveIntegerField()
    rank_key = models.BigIntegerField(help_text="Higher is better; equal keys share a rank.")
    finished_at = models.DateTimeField()
    listed = models.BooleanField(
        default=True,
        db_default=True,  # rows written by raw SQL (COPY in the benchmark) are listed too
        help_text="On the leaderboards. The review of results takes a result off while a "
        "flag is open or once the game is voided (reviews.services).",
    )

    objects = ResultQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["daily_deal", "player"], name="one_result_per_player_and_daily_deal"
            )
        ]
        indexes = [
            # Pages, ranks and counts of a deal: ties in player order, as in Redis.
            # The index covers what a leaderboard row shows and `listed` (PostgreSQL),
            # so a page and a count within a bucket are index-only scans.
            models.Index(
                fields=["daily_deal", "-rank_key", "-player"],
                name="result_deal_rank_cover_idx",
                include=["listed", "won", "score", "elapsed_ms", "move_count"],
            ),
            models.Index(fields=["variant", "finished_at"], name="result_variant_finished_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} on {self.daily_deal_id}: {self.score}"

    @property
    def hints_used(self) -> int:
        """The game's hints (Game.hints_used), which the ranking reads: a result that
        used a hint ranks after every result without hints (leaderboards/ranking.py)."""
        return self.game.hints_used


class ScoreCount(models.Model):
    """A deal's histogram of scores: how many listed results fall in each bucket of
    rank keys (the leading figures of its rule up to the score: RankingRule.bucket).

    Derived from the results, so a rank from the database is the counts of the
    buckets above plus the results above within its own bucket, instead of a count
    of every better result. Kept exact by the services that write results
    (leaderboards.services.score_count_add) and rebuilt from the results by
    `score_counts_rebuild`."""

    daily_deal = models.ForeignKey(DailyDeal, on_delete=models.CASCADE, related_name="+")
    bucket = models.BigIntegerField()
    count = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["daily_deal", "bucket"], name="one_score_count_per_deal_and_bucket"
            )
        ]

    def __str__(self) -> str:
        return f"deal {self.daily_deal_id}, bucket {self.bucket}: {self.count}"


class PeriodBest(models.Model):
    """A player's best daily result of a game over a period, ranked: the
    materialised weekly and all-time tables that pages read."""

    class Period(models.TextChoices):
        WEEK = "week", "This week"
        ALL_TIME = "all", "All time"

    variant = models.CharField(max_length=20)
    period = models.CharField(max_length=4, choices=Period.choices)
    period_start = models.DateField(help_text="Monday of the week; 2000-01-01 for all time.")
    rank = models.PositiveIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    result = models.ForeignKey(Result, on_delete=models.CASCADE)
    score = models.IntegerField()
    won = models.BooleanField()
    elapsed_ms = models.PositiveBigIntegerField()
    move_count = models.PositiveIntegerField()
    rank_key = models.BigIntegerField()
    computed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "period", "period_start", "player"],
                name="one_best_per_player_and_period",
            )
        ]
        indexes = [
            models.Index(
                fields=["variant", "period", "period_start", "rank"], name="periodbest_page_idx"
            )
        ]

    def __str__(self) -> str:
        return f"{self.variant} {self.period} from {self.period_start}: #{self.rank}"
