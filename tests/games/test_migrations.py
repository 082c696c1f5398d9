"""The tracks migration on real rows: games 0005 copies the daily deal foreign key
into the daily track, leaderboards 0005/0006 and games 0006 move DailyDeal to
leaderboards keeping its rows and ids, and all of it runs backwards too.

Runs on both stacks (SQLite and PostgreSQL): the schema changes are the
vendors' own. transaction=True because the migrations commit their own work.
"""

from datetime import date, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("games", "0004_game_game_finished_idx"),
    ("leaderboards", "0004_result_listed_in_rank_index"),
]


def migrate(targets):
    """Migrate to `targets` and return the models as they are there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()  # what is applied now
    return executor.loader.project_state(targets).apps


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def before_tracks():
    """The database at games 0004 / leaderboards 0004; at the latest again after."""
    try:
        yield migrate(BEFORE)
    finally:
        migrate(latest())


def test_daily_games_get_the_daily_track_and_the_deal_moves_with_its_rows(before_tracks):
    old = before_tracks
    now = timezone.now()
    player = old.get_model("auth", "User").objects.create(username="old-timer")
    deal = old.get_model("games", "DailyDeal").objects.create(
        date=date(2026, 11, 30), variant="klondike", options={"draw": 3}, seed="s" * 64
    )
    Game = old.get_model("games", "Game")
    fields = {"player": player, "variant": "klondike", "seed": "s" * 64, "state": {}}
    times = {"started_at": now - timedelta(minutes=5), "last_action_at": now}
    casual = Game.objects.create(**fields, **times)
    daily = Game.objects.create(
        **fields,
        **times,
        options={"draw": 3},
        daily_deal=deal,
        is_ranked=True,
        status="finished",
        finished_at=now,
        final_score=120,
    )
    result = old.get_model("leaderboards", "Result").objects.create(
        game=daily,
        daily_deal=deal,
        player=player,
        variant="klondike",
        won=False,
        score=120,
        elapsed_ms=300_000,
        move_count=40,
        rank_key=120,
        finished_at=now,
    )

    new = migrate(latest())

    NewGame = new.get_model("games", "Game")
    assert NewGame.objects.values_list("id", "track", "track_ref").get(id=daily.id) == (
        daily.id,
        "daily",
        str(deal.id),
    )
    assert NewGame.objects.values_list("track", "track_ref").get(id=casual.id) == ("casual", "")
    moved = new.get_model("leaderboards", "DailyDeal").objects.get(id=deal.id)
    assert (moved.date, moved.variant, moved.options, moved.seed) == (
        deal.date,
        "klondike",
        {"draw": 3},
        deal.seed,
    )
    assert new.get_model("leaderboards", "Result").objects.get(id=result.id).daily_deal_id == (
        deal.id
    )
    with pytest.raises(LookupError):
        new.get_model("games", "DailyDeal")

    back = migrate(BEFORE)

    OldGame = back.get_model("games", "Game")
    assert OldGame.objects.get(id=daily.id).daily_deal_id == deal.id
    assert OldGame.objects.get(id=casual.id).daily_deal_id is None
    assert back.get_model("games", "DailyDeal").objects.get(id=deal.id).seed == deal.seed
    assert back.get_model("leaderboards", "Result").objects.get(id=result.id).daily_deal_id == (
        deal.id
    )
