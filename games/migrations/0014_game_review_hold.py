"""The review's hold on a game's result, held or voided (Game.review_hold), in place of
the yes-or-no `in_figures`: the pages and the API say which. The review's migration
0007 copies the holds from its own rows; 0015 then drops `in_figures`."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_game_logs_lz4"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="review_hold",
            field=models.CharField(
                blank=True,
                choices=[("held", "Under review"), ("voided", "Voided")],
                default="",
                help_text="The review's hold on the result: held while under review, or voided; empty while it counts. A held game counts in no figure, leaderboard, rating or star (set by reviews through games.services.game_review_hold_set).",
                max_length=6,
            ),
        ),
    ]
