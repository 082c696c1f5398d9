"""The review of results: verifications by replay, flags, the review state of a
game, and the append-only audit log of what reviewers (and the system) did.

The only permission here is `reviews.review_results`, held by the "Reviewers"
group (data migration 0002); every review screen asks for it.
"""

from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.models import Game


class GameReview(models.Model):
    """Where a closed game stands in the review, kept in step with its flags by
    reviews.services: `state` decides the label the player sees and whether the
    game's result is listed on the leaderboards (only when clear)."""

    class State(models.TextChoices):
        CLEAR = "clear", "Clear"
        UNDER_REVIEW = "under_review", "Under review"
        VOIDED = "voided", "Voided"

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="review"
    )
    state = models.CharField(
        max_length=12, choices=State.choices, default=State.CLEAR, db_index=True
    )
    outlier_pending = models.BooleanField(
        default=False,
        help_text="The score check waits for enough other results on the deal (the sweep "
        "retries it while the deal is recent).",
    )
    reviewed_at = models.DateTimeField(
        help_text="When the game was first reviewed (automatically, or by a reviewer first)."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        default_permissions = ()
        indexes = [
            # The sweep's recheck of scores that wait: a handful of rows.
            models.Index(
                fields=["game"],
                condition=Q(outlier_pending=True),
                name="review_outlier_pending_idx",
            )
        ]
        permissions = [
            (
                "review_results",
                "Can review results: the review list, replay viewer, actions and audit log",
            )
        ]

    def __str__(self) -> str:
        return f"review of game {self.game_id}: {self.state}"


class Verification(models.Model):
    """One run of the replay check: the stored move log re-run from the deal and
    compared with what was stored. The automatic run happens once per game (a
    partial unique constraint); the sweep's rechecks (a record that changed since)
    and a reviewer's "verify again" add more."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="verifications")
    automatic = models.BooleanField(
        default=True, help_text="The one automatic review of the game, when it closed."
    )
    recheck = models.BooleanField(
        default=False,
        help_text="A re-verification by the sweep: the record's digest differed from the "
        "last verification's.",
    )
    ok = models.BooleanField()
    details = models.TextField(help_text="What matched or what did not, with the figures.")
    figures = models.JSONField(default=dict, help_text="Stored and replayed figures.")
    digest = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="SHA-256 of what was verified (reviews.replays.record_digest): the game's "
        "move log, status, scores, moves and time, and its result's figures. Empty for "
        "verifications made before digests existed.",
    )
    verified_at = models.DateTimeField(default=timezone.now)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        default_permissions = ()
        ordering = ["-verified_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(automatic=True),
                name="one_automatic_verification_per_game",
            )
        ]

    def __str__(self) -> str:
        return f"verification of game {self.game_id}: {'ok' if self.ok else 'mismatch'}"

    @property
    def source(self) -> str:
        """Who asked for this run, as the reviewers' page shows it."""
        if self.automatic:
            return "automatic"
        if self.recheck:
            return "sweep recheck"
        return self.requested_by.get_username() if self.requested_by is not None else "reviewer"


class Flag(models.Model):
    """A reason to look at a game. While open it keeps the game's result off
    every leaderboard; a reviewer dismisses it or voids the game."""

    class Kind(models.TextChoices):
        REPLAY_MISMATCH = "replay_mismatch", "Replay mismatch"
        IMPLAUSIBLE_SPEED = "implausible_speed", "Implausible speed"
        SCORE_OUTLIER = "score_outlier", "Score outlier"
        DEAL_SEEN = "deal_seen", "Deal seen in a replay"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DISMISSED = "dismissed", "Dismissed"
        UPHELD = "upheld", "Upheld (game voided)"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="review_flags")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    details = models.TextField(help_text="Why, with the figures.")
    figures = models.JSONField(default=dict)
    raised_at = models.DateTimeField(default=timezone.now)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Empty for the automatic checks.",
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        default_permissions = ()
        ordering = ["-raised_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "kind"],
                condition=Q(status="open"),
                name="one_open_flag_per_kind_and_game",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on game {self.game_id} ({self.status})"


class AuditLogImmutable(Exception):
    """Audit entries are written once and never changed or deleted."""


class AuditEntryQuerySet(models.QuerySet["AuditEntry"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AuditLogImmutable("Audit entries cannot be changed.")

    def delete(self) -> NoReturn:
        raise AuditLogImmutable("Audit entries cannot be deleted.")


class AuditEntry(models.Model):
    """Who did what to which game, when and why. Append-only: the model refuses
    to update or delete a row (and on PostgreSQL a trigger refuses it too).

    The game and the people are kept by id and by name without a database
    constraint, so an entry outlives a deleted game or account."""

    class Action(models.TextChoices):
        FLAG_RAISED = "flag_raised", "Flag raised"
        VERIFY = "verify", "Verified again"
        VOID = "void", "Voided"
        RESTORE = "restore", "Restored"
        DISMISS_FLAG = "dismiss_flag", "Flag dismissed"
        REPLAY_VIEWED = "replay_viewed", "Replay of a live deal viewed"

    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
        help_text="Empty for the system (the automatic checks).",
    )
    actor_name = models.CharField(max_length=150)
    action = models.CharField(max_length=20, choices=Action.choices)
    game = models.ForeignKey(
        Game,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="audit_entries",
    )
    player_name = models.CharField(max_length=150)
    flag = models.ForeignKey(
        Flag,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    note = models.TextField(help_text="Why.")
    details = models.JSONField(default=dict, blank=True)

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        default_permissions = ()
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_name}: {self.action} {self.game_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AuditLogImmutable("Audit entries cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AuditLogImmutable("Audit entries cannot be deleted.")
