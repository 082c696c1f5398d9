"""`in_figures` goes: Game.review_hold says whether the game counts, and why not."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_game_review_hold"),
        ("reviews", "0007_game_review_hold"),
    ]

    operations = [
        migrations.RemoveField(model_name="game", name="in_figures"),
    ]
