"""Every game the review holds gets its hold on the game (Game.review_hold): held
while under review, voided once voided; from now on reviews keeps it in step."""

from django.db import migrations

HOLDS = {"under_review": "held", "voided": "voided"}


def holds_copy(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameReview = apps.get_model("reviews", "GameReview")
    for state, hold in HOLDS.items():
        held = GameReview.objects.filter(state=state).values("game_id")
        Game.objects.filter(id__in=held).update(review_hold=hold)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_game_review_hold"),
        ("reviews", "0006_games_held_out_of_figures"),
    ]

    operations = [migrations.RunPython(holds_copy, migrations.RunPython.noop)]
