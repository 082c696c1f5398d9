"""Games whose result the review holds (under review, voided) leave the player's
figures: Game.in_figures, which reviews keeps in step from now on."""

from django.db import migrations

HELD = ("under_review", "voided")


def hold_out(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameReview = apps.get_model("reviews", "GameReview")
    held = GameReview.objects.filter(state__in=HELD).values("game_id")
    Game.objects.filter(id__in=held).update(in_figures=False)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_game_in_figures"),
        ("reviews", "0005_replay_viewed_deal_seen"),
    ]

    operations = [migrations.RunPython(hold_out, migrations.RunPython.noop)]
