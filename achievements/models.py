from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.models import Game


class Award(models.Model):
    """An achievement a player earned, and the game that earned it.

    Awarding is idempotent by the database itself: a one-off achievement can be
    stored once per player, a repeatable one once per player and game (two
    partial unique constraints on `repeatable`, so no NULL takes part in either:
    PostgreSQL treats NULLs as distinct in a unique constraint). Rows are
    inserted with ON CONFLICT DO NOTHING, so an evaluation that runs twice, or
    again after a crash, adds nothing. A repeatable badge's count is its number
    of rows.

    A monthly badge (declarations.MONTHLY_ACHIEVEMENTS) is repeatable and stored
    with its `period`, the month it was earned for: a third partial constraint
    keeps it to one row per player and month, whichever game earned it and
    however many evaluations of that month race.
    """

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="awards"
    )
    code = models.CharField(max_length=64, help_text="The achievement's code (declarations.py).")
    repeatable = models.BooleanField(
        default=False, help_text="Awarded once per game that earns it, not once per player."
    )
    game = models.ForeignKey(
        Game,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="awards",
        help_text="The game that earned it (kept empty only if that game is deleted).",
    )
    period = models.CharField(
        max_length=7,
        blank=True,
        default="",
        help_text="The month a monthly badge was earned for (2026-12); empty for any other.",
    )
    earned_at = models.DateTimeField(
        help_text="When the earning game closed (a monthly badge: the completion that earned it)."
    )
    awarded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-earned_at", "code"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "code"],
                condition=Q(repeatable=False),
                name="one_award_per_player_and_achievement",
            ),
            models.UniqueConstraint(
                fields=["player", "code", "game"],
                condition=Q(repeatable=True),
                name="one_award_per_player_achievement_and_game",
            ),
            models.UniqueConstraint(
                fields=["player", "code", "period"],
                condition=~Q(period=""),
                name="one_award_per_player_achievement_and_period",
            ),
        ]
        indexes = [models.Index(fields=["player", "code"], name="award_player_code_idx")]

    def __str__(self) -> str:
        return f"{self.code} for user {self.player_id}"


class Evaluation(models.Model):
    """A closed game whose evaluation for every achievement has committed: written
    in the same transaction as its awards. The finish toast waits for it, and
    the catch-up task evaluates closed games that have none (a lost task)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="achievements_evaluation"
    )
    evaluated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"achievements of game {self.game_id} evaluated"


class Backfill(models.Model):
    """The backfill of one achievement over every past game: its rule run over the
    closed games in (finished_at, id) order, a chunk per task run. A declared
    achievement without a row is new: the catch-up task starts its backfill.

    The cursor is the last game of the last chunk that completed: a chunk killed
    halfway leaves it where it was, and the next run judges that chunk again
    (awards are idempotent). `updated_at` moves with every chunk, so a backfill
    whose chain of tasks died (a hard time limit, a lost message) shows as stale
    and the catch-up continues it from the cursor."""

    code = models.CharField(max_length=64, unique=True)
    started_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    after_finished_at = models.DateTimeField(
        null=True, blank=True, help_text="The cursor: the last judged game's finish time."
    )
    after_game_id = models.UUIDField(
        null=True, blank=True, help_text="The cursor: the last judged game's id (ties on time)."
    )
    completed_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when the walk reached the newest game."
    )

    def __str__(self) -> str:
        state = "backfilled" if self.completed_at else "backfilling"
        return f"{self.code} {state}"
