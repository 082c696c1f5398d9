"""The daily deal moves from games to leaderboards (state first: the table keeps
its name until leaderboards 0006, after games 0006 has let go of the model)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_game_tracks"),
        ("leaderboards", "0004_result_listed_in_rank_index"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DailyDeal",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("date", models.DateField()),
                        ("variant", models.CharField(max_length=20)),
                        ("options", models.JSONField(blank=True, default=dict)),
                        ("seed", models.CharField(max_length=64)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "ordering": ["-date", "variant"],
                        "db_table": "games_dailydeal",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("date", "variant"),
                                name="one_daily_deal_per_game_and_day",
                            )
                        ],
                    },
                ),
                migrations.AlterField(
                    model_name="result",
                    name="daily_deal",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="results",
                        to="leaderboards.dailydeal",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
