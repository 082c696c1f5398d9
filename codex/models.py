"""The Codex's one table: the reigns of its title. A scenario's games are games
(games.models.Game on the scenario track); everything else of the campaign is
derived from them."""

from django.conf import settings
from django.db import models
from django.db.models import Q


class TitleReign(models.Model):
    """A player's hold on a title of the Codex that moves (the Master Architect of the
    Ascension Citadel, declared in achievements.declarations.TITLES): it opens when the
    title task finds them its holder and closes when it finds another. At most one
    reign of a title is open at a time (a partial unique constraint, so two tasks that
    race to confer it leave one). Derived data: the task confers it again from the
    source rows."""

    code = models.CharField(
        max_length=64, help_text="The title's code (achievements.declarations.TITLES)."
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="title_reigns"
    )
    figure = models.IntegerField(
        help_text="The figure that holds it (the Master Architect: the campaign ledger), "
        "kept current while the reign lasts."
    )
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["code"],
                condition=Q(ended_at__isnull=True),
                name="one_open_reign_per_title",
            ),
        ]
        indexes = [models.Index(fields=["player", "code"], name="reign_player_code_idx")]

    def __str__(self) -> str:
        return f"{self.code} held by user {self.player_id}"
