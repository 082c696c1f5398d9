"""The daily deal's table takes the leaderboards app's name."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_dailydeal_to_leaderboards"),
        ("leaderboards", "0005_dailydeal_from_games"),
    ]

    operations = [
        migrations.AlterModelTable(name="dailydeal", table=None),
    ]
