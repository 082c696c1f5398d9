"""Daily challenges: a certified deal, a goal the solver proved on it, and who met it."""

from django.conf import settings
from django.db import models

from games.models import Game


class Challenge(models.Model):
    """One of a day's three challenges of one game, the same for everyone.

    Its games are on the challenge track (Game.Track.CHALLENGE) with the challenge's
    id as their `track_ref` and its goal as theirs. The seed and the proof line are
    secret while the challenge is live (its day and every later one)."""

    class Difficulty(models.IntegerChoices):
        EASY = 1, "Easy"
        MEDIUM = 2, "Medium"
        HARD = 3, "Hard"

    date = models.DateField()
    variant = models.CharField(max_length=20)
    difficulty = models.PositiveSmallIntegerField(choices=Difficulty.choices)
    options = models.JSONField(default=dict, blank=True)
    rules_version = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64)
    goal = models.JSONField(help_text="The goal (games.engine.goals.Goal as JSON).")
    proof_line = models.JSONField(
        default=list, help_text="The solver's line up to the move that meets the goal."
    )
    line_length = models.PositiveIntegerField(
        help_text="The length of the solver's whole winning line on this deal (its par)."
    )
    solver_nodes = models.PositiveBigIntegerField()
    solve_ms = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "variant", "difficulty"]
        constraints = [
            models.UniqueConstraint(
                fields=["date", "variant", "difficulty"],
                name="one_challenge_per_game_day_and_difficulty",
            )
        ]

    def __str__(self) -> str:
        return f"{self.variant} {self.get_difficulty_display().lower()} challenge of {self.date}"

    @property
    def track_ref(self) -> str:
        return str(self.pk)

    @property
    def stars(self) -> int:
        """Stars a completion earns: one, two or three by difficulty."""
        return int(self.difficulty)


class Completion(models.Model):
    """A player met a challenge's goal, in the challenge's month: recorded once, with
    the game that did it. Stars, the month's total, the monthly badges and the monthly
    leaderboard are all worked out from these rows."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="completions")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenge_completions"
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    stars = models.PositiveSmallIntegerField()
    month = models.DateField(help_text="The first day of the challenge's month.")
    completed_at = models.DateTimeField(help_text="When the game met the goal.")

    class Meta:
        ordering = ["-completed_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["challenge", "player"], name="one_completion_per_player_and_challenge"
            )
        ]
        indexes = [
            models.Index(fields=["month", "player"], name="completion_month_player_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} completed {self.challenge_id}"
