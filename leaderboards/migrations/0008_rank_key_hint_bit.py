"""Every ranking rule now starts with one bit, set for a game played without a hint
(leaderboards/ranking.py, docs/hints.md): the results ranked before it get that bit
above the figures they were ranked by, so old and new keys compare as the rule says."""

from django.db import migrations

# The bits of each rule's figures before the hint bit, and the games on each rule then.
FIGURE_BITS = {"won_score_time_moves": 51, "score_time": 48}
SCORE_TIME_GAMES = {"steps", "spike"}


def add_hint_bit(apps, schema_editor):
    Result = apps.get_model("leaderboards", "Result")
    PeriodBest = apps.get_model("leaderboards", "PeriodBest")
    for model in (Result, PeriodBest):
        rows = model.objects.all()
        for row in rows.iterator():
            rule = "score_time" if row.variant in SCORE_TIME_GAMES else "won_score_time_moves"
            bit = 1 << FIGURE_BITS[rule]
            if row.rank_key < bit:
                hinted = (
                    model is Result
                    and apps.get_model("games", "Game")
                    .objects.filter(id=row.game_id, hints_used__gt=0)
                    .exists()
                )
                if not hinted:
                    model.objects.filter(id=row.id).update(rank_key=row.rank_key + bit)


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboards", "0007_solvers"),
        ("games", "0009_game_certified_seed"),
    ]

    operations = [migrations.RunPython(add_hint_bit, migrations.RunPython.noop)]
