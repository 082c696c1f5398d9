"""Games belong to a track (casual, daily, ...) with a reference to what the track
plays, instead of a foreign key to the daily deal: the daily deal moves to the
leaderboards app (leaderboards 0005/0006 and games 0006), and games no longer
points at the apps above it. Also the rules version a game was dealt under and
the clock its track sets."""

from django.db import migrations, models
from django.db.models import CharField, IntegerField, Q
from django.db.models.functions import Cast


def tracks_from_daily_deals(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(daily_deal__isnull=False).update(
        track="daily", track_ref=Cast("daily_deal_id", CharField())
    )


def daily_deals_from_tracks(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(track="daily").update(daily_deal_id=Cast("track_ref", IntegerField()))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_game_game_finished_idx"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="track",
            field=models.CharField(
                choices=[("casual", "Casual"), ("daily", "Daily deal")],
                default="casual",
                max_length=12,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="track_ref",
            field=models.CharField(
                blank=True,
                default="",
                help_text="What the track plays: the daily deal's id; empty for a casual game.",
                max_length=64,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="rules_version",
            field=models.PositiveSmallIntegerField(
                default=1, help_text="The engine's rules version the game was dealt under."
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="time_limit_seconds",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="The clock its track sets (games.clock); none: no limit.",
                null=True,
            ),
        ),
        migrations.RunPython(tracks_from_daily_deals, daily_deals_from_tracks, elidable=False),
        migrations.RemoveConstraint(
            model_name="game", name="one_active_game_per_player_and_variant"
        ),
        migrations.RemoveConstraint(
            model_name="game", name="one_active_game_per_player_and_daily_deal"
        ),
        migrations.RemoveConstraint(
            model_name="game", name="one_ranked_game_per_player_and_daily_deal"
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=Q(("status", "active")),
                fields=("player", "variant", "track", "track_ref"),
                name="one_active_game_per_player_and_track",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=Q(("is_ranked", True)),
                fields=("player", "track", "track_ref"),
                name="one_ranked_game_per_player_and_track",
            ),
        ),
        migrations.RemoveField(model_name="game", name="daily_deal"),
    ]
