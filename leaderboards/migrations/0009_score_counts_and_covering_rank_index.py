"""The deals' histograms of scores (ScoreCount), built from the results already
ranked, and the rank index made covering (a page's figures, index-only)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, F

# The bits after each rule's score (leaderboards/ranking.py, RankingRule.bucket_shift)
# and the games on the score_time rule, as they are when this migration is written.
BUCKET_SHIFT = {"won_score_time_moves": 36, "score_time": 22}
SCORE_TIME_GAMES = {"steps", "spike"}


def build_score_counts(apps, schema_editor):
    Result = apps.get_model("leaderboards", "Result")
    ScoreCount = apps.get_model("leaderboards", "ScoreCount")
    for variant in Result.objects.values_list("variant", flat=True).distinct().order_by():
        rule = "score_time" if variant in SCORE_TIME_GAMES else "won_score_time_moves"
        counts = (
            Result.objects.filter(variant=variant, listed=True)
            .annotate(bucket=F("rank_key") / (1 << BUCKET_SHIFT[rule]))
            .values("daily_deal_id", "bucket")
            .annotate(n=Count("id"))
            .order_by()
        )
        ScoreCount.objects.bulk_create(
            (
                ScoreCount(daily_deal_id=row["daily_deal_id"], bucket=row["bucket"], count=row["n"])
                for row in counts.iterator()
            ),
            batch_size=5_000,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_alter_game_track"),
        ("leaderboards", "0008_rank_key_hint_bit"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ScoreCount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("bucket", models.BigIntegerField()),
                ("count", models.PositiveIntegerField()),
            ],
        ),
        migrations.RemoveIndex(
            model_name="result",
            name="result_deal_rank_idx",
        ),
        migrations.AddIndex(
            model_name="result",
            index=models.Index(
                fields=["daily_deal", "-rank_key", "-player"],
                include=("listed", "won", "score", "elapsed_ms", "move_count"),
                name="result_deal_rank_cover_idx",
            ),
        ),
        migrations.AddField(
            model_name="scorecount",
            name="daily_deal",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="leaderboards.dailydeal",
            ),
        ),
        migrations.AddConstraint(
            model_name="scorecount",
            constraint=models.UniqueConstraint(
                fields=("daily_deal", "bucket"), name="one_score_count_per_deal_and_bucket"
            ),
        ),
        migrations.RunPython(build_score_counts, migrations.RunPython.noop),
    ]
