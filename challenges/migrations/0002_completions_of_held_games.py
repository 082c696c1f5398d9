"""A completion whose game the review holds (under review, voided) earns nothing: it is
worked out again from the player's games of the challenge, as
challenges.services.completion_rebuild does from now on on every change of a hold.
The first of their other games that met the goal on a day that earns the stars
completes it instead, and without one the completion goes. Badges already awarded
stay (docs/review.md)."""

from datetime import datetime
from typing import Any

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def _earns_stars(challenge: Any, met_at: datetime) -> bool:
    day = met_at.date()
    return challenge.date <= day and (day.year, day.month) == (
        challenge.date.year,
        challenge.date.month,
    )


def completions_rebuild(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Completion = apps.get_model("challenges", "Completion")
    Game = apps.get_model("games", "Game")
    held = Completion.objects.exclude(game__review_hold="").exclude(game__isnull=True)
    for completion in held.select_related("challenge"):
        challenge = completion.challenge
        attempts = Game.objects.filter(
            player_id=completion.player_id,
            track="challenge",
            track_ref=str(challenge.id),
            goal_met_at__isnull=False,
            review_hold="",
        ).order_by("goal_met_at", "id")
        first = next((g for g in attempts if _earns_stars(challenge, g.goal_met_at)), None)
        if first is None:
            completion.delete()
        else:
            completion.game_id = first.id
            completion.completed_at = first.goal_met_at
            completion.save(update_fields=["game", "completed_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("challenges", "0001_initial"),
        ("games", "0015_remove_game_in_figures"),
    ]

    operations = [migrations.RunPython(completions_rebuild, migrations.RunPython.noop)]
