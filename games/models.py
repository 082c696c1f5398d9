import uuid
from typing import Any, Self

from django.conf import settings
from django.db import models
from django.db.models import Q

COUNTED = Q(review_hold="")
"""The games the review does not hold: the only ones any figure, leaderboard, rating
or star counts (docs/review.md)."""


class GameQuerySet(models.QuerySet["Game"]):
    def counted(self) -> Self:
        return self.filter(COUNTED)

    def held(self) -> Self:
        """The games whose result the review holds: under review, or voided."""
        return self.exclude(COUNTED)


class Game(models.Model):
    """One deal played by one player.

    `state` is the engine's full snapshot, hidden cards included, and `seed`
    deals the same cards again: both stay on the server and are never rendered.
    """

    class Track(models.TextChoices):
        """What a game belongs to. One active game per player, variant and track (the
        casual one of each game, one per daily deal, ...): games.tracks."""

        CASUAL = "casual", "Casual"
        DAILY = "daily", "Daily deal"
        MATCH = "match", "Match"
        CHALLENGE = "challenge", "Daily challenge"
        SCENARIO = "scenario", "Codex scenario"

    class Status(models.TextChoices):
        ACTIVE = "active", "In progress"
        WON = "won", "Won"
        LOST = "lost", "Lost"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    class ReviewHold(models.TextChoices):
        """The review's hold on a closed game's result (empty: none, it counts)."""

        HELD = "held", "Under review"
        VOIDED = "voided", "Voided"

    CLOSED_STATUSES = (Status.WON, Status.LOST, Status.FINISHED, Status.ABANDONED)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    variant = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    seed = models.CharField(max_length=64)
    track = models.CharField(max_length=12, choices=Track.choices, default=Track.CASUAL)
    track_ref = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="What the track plays: the daily deal's id; empty for a casual game.",
    )
    is_ranked = models.BooleanField(
        default=False, help_text="The player's first attempt at a daily deal: the one ranked."
    )
    rules_version = models.PositiveSmallIntegerField(
        default=1, help_text="The engine's rules version the game was dealt under."
    )
    restart_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="restarts",
        help_text="The game whose deal this one deals again.",
    )
    state = models.JSONField()
    move_log = models.JSONField(default=list, blank=True)
    undo_log = models.JSONField(default=list, blank=True)
    revision = models.PositiveIntegerField(
        default=0, help_text="Counts every change, undo included: the move-number guard."
    )
    move_count = models.PositiveIntegerField(default=0)
    undo_count = models.PositiveIntegerField(
        default=0, help_text="How many moves were taken back (undo gives the points back)."
    )
    score = models.IntegerField(default=0)
    final_score = models.IntegerField(
        null=True, blank=True, help_text="The score the result ranks by, set when the game closes."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    elapsed_ms = models.PositiveBigIntegerField(default=0)
    started_at = models.DateTimeField()
    last_action_at = models.DateTimeField()
    time_limit_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="The clock its track sets (games.clock); none: no limit."
    )
    deadline_at = models.DateTimeField(
        null=True, blank=True, help_text="When the clock of a timed game runs out."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    certified_seed = models.ForeignKey(
        "CertifiedSeed",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games",
        help_text="The pool's certificate of this deal (winnable deals only; a restart keeps it).",
    )
    hints_used = models.PositiveIntegerField(
        default=0, help_text="How many hints the player asked for (games.services.game_hint)."
    )
    undo_limit = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Moves that may be taken back, as the track's handicap sets (a Codex "
        "scenario's undo allowance); empty for no limit.",
    )
    goal = models.JSONField(
        default=dict,
        blank=True,
        help_text="The goal its track set (a daily challenge's, games.engine.goals); {} for none.",
    )
    goal_met_at = models.DateTimeField(
        null=True, blank=True, help_text="When the game first met its goal (it stays met)."
    )
    review_hold = models.CharField(
        max_length=6,
        choices=ReviewHold.choices,
        blank=True,
        default="",
        help_text=(
            "The review's hold on the result: held while under review, or voided; empty "
            "while it counts. A held game counts in no figure, leaderboard, rating or star "
            "(set by reviews through games.services.game_review_hold_set)."
        ),
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "variant", "track", "track_ref"],
                condition=Q(status="active"),
                name="one_active_game_per_player_and_track",
            ),
            models.UniqueConstraint(
                fields=["player", "track", "track_ref"],
                condition=Q(is_ranked=True),
                name="one_ranked_game_per_player_and_track",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "-started_at"], name="game_player_started_idx"),
            # The review of results: its sweep and its list read closed games by finish time.
            models.Index(fields=["finished_at"], name="game_finished_idx"),
        ]

    stored_state: dict[str, Any] | None = None
    """The state as the row held it when this instance was read (None for a game made
    here, or read without its state): the action hooks compare the new state with it,
    so an action that changed nothing of theirs costs no query."""

    stored_move_count: int | None = None
    """How many moves the row's log held when this instance read it (None: not read):
    an action appends its moves to the stored log (games.services.logs)."""
    undo_pending: list[dict[str, Any]] | None = None
    """Undo records logged while the stored ones were not read, for the UPDATE to append."""
    goal_met_now: bool = False
    """Whether the action being saved met the game's goal (its track's hooks record it)."""
    player_auto_foundation: bool = False
    player_highlight_moves: bool = False
    """The player's automatic-moves and highlighting settings, as an action's locked read
    brings them with the row (games.services.locked_read)."""

    def __str__(self) -> str:
        return f"{self.variant} game {self.id} ({self.status})"

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> "Game":
        game = super().from_db(db, field_names, values)
        if "state" in field_names:
            game.stored_state = game.state
        if "move_log" in field_names:
            game.stored_move_count = len(game.move_log)
        return game

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def counted(self) -> bool:
        """The review does not hold it (GameQuerySet.counted)."""
        return not self.review_hold

    @property
    def elapsed_seconds(self) -> int:
        return self.elapsed_ms // 1000


class CertifiedSeed(models.Model):
    """A seed the solver proved winnable, waiting in the pool of its game and options
    for a player who asked for winnable deals only (games.services.pool). A seed leaves
    the pool when it is dealt (``dealt_at``); the rows stay, so a game's seed can be
    traced to its certificate."""

    variant = models.CharField(max_length=20)
    rules_version = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    options_key = models.CharField(
        max_length=200, help_text="The options as canonical JSON: what the pool is keyed by."
    )
    seed = models.CharField(max_length=64, unique=True)
    par = models.PositiveIntegerField(help_text="The length of the solver's winning line.")
    solve_ms = models.PositiveIntegerField()
    nodes = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    dealt_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["variant", "rules_version", "options_key"],
                condition=Q(dealt_at__isnull=True),
                name="certified_seed_waiting_idx",
            )
        ]

    def __str__(self) -> str:
        return f"certified {self.variant} seed {self.pk}"
