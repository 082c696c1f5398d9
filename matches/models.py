"""Matches: players racing on the same deal on one server clock (docs/matches.md).

A match has seats; each seat plays its own game (games.Game on the match's track,
dealt from the match's seed) and the match settles when every game is over or its
clock runs out. Ratings are derived from the settled matches (`ratings_recompute`
gives the same numbers again)."""

import uuid

from django.conf import settings
from django.db import models


class PointsTable(models.Model):
    """A points table for Klondike's competitive mode, as staff publish it. The mode
    stays closed to players until one is published; every match records the table it
    was scored by (and its games carry the table in their options)."""

    version = models.PositiveIntegerField(unique=True)
    points = models.JSONField(help_text="Points per scoring event (games.engine Klondike)")
    note = models.TextField(help_text="Why this table, and where its numbers come from.")
    published_at = models.DateTimeField(null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-version"]

    def __str__(self) -> str:
        state = "published" if self.published_at else "draft"
        return f"Klondike points table v{self.version} ({state})"


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    mode = models.CharField(max_length=20)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    is_private = models.BooleanField(
        default=False, help_text="Joined only through its invite link; not in the lobby."
    )
    invite_code = models.CharField(max_length=32, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="matches_created"
    )
    seed = models.CharField(max_length=64, help_text="The deal of every seat; never shown.")
    options = models.JSONField(default=dict, blank=True)
    points_table = models.ForeignKey(
        PointsTable, null=True, blank=True, on_delete=models.PROTECT, related_name="matches"
    )
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    rated = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    deadline_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    turn_deadline_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="A shared board's turn clock: the seat to move passes then.",
    )
    held = models.BooleanField(
        default=False,
        help_text="A game of it is under review (or voided): off the ratings meanwhile.",
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "deadline_at"], name="match_status_deadline_idx"),
            models.Index(fields=["mode", "status", "finished_at"], name="match_mode_finished_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.mode} match {self.id} ({self.status})"


class Seat(models.Model):
    """A player's place in a match, their game, and their result once settled."""

    class Outcome(models.TextChoices):
        WIN = "win", "Won"
        DRAW = "draw", "Draw"
        LOSS = "loss", "Lost"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats"
    )
    number = models.PositiveSmallIntegerField()
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
        help_text="The seat's game: on a shared board (the Duel), the one all seats share.",
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    foundation_cards = models.PositiveSmallIntegerField(default=0)
    reached_at = models.DateTimeField(
        null=True, blank=True, help_text="When the seat's count of foundation cards last changed."
    )
    score = models.IntegerField(null=True, blank=True, help_text="The score the match ranks by.")
    placement = models.PositiveSmallIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=4, choices=Outcome.choices, blank=True, default="")

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="one_seat_per_player"),
            models.UniqueConstraint(fields=["match", "number"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.match_id}"


class QueueEntry(models.Model):
    """A player waiting in a mode's quick-match queue."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    mode = models.CharField(max_length=20)
    rating = models.FloatField()
    joined_at = models.DateTimeField()

    class Meta:
        ordering = ["joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["player", "mode"], name="one_queue_entry_per_mode")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} waiting for {self.mode}"


class Rating(models.Model):
    """A player's Glicko-2 rating in a mode: derived from the settled matches."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    mode = models.CharField(max_length=20)
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "mode"], name="one_rating_per_mode")
        ]
        indexes = [models.Index(fields=["mode", "-rating"], name="rating_mode_rating_idx")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.mode} {self.rating:.0f}"


class RatingChange(models.Model):
    """A player's rating after one match: the history the profile charts (derived)."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    mode = models.CharField(max_length=20)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    rating_before = models.FloatField()
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="one_change_per_match")
        ]
        indexes = [models.Index(fields=["player", "mode", "at"], name="rating_change_player_idx")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.mode} {self.rating_before:.0f} → {self.rating:.0f}"
