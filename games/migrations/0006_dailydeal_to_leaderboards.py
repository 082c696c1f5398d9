"""games lets go of the daily deal model (its table now belongs to leaderboards)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_game_tracks"),
        ("leaderboards", "0005_dailydeal_from_games"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="DailyDeal")],
            database_operations=[],
        ),
    ]
