"""The holds' migrations on real rows: games 0014 and reviews 0007 put each review's hold
on its game (held while under review, voided), games 0015 drops `in_figures`, and
challenges 0002 works out again the completions of held games (another attempt that met
the goal completes in its place, or the completion goes).

transaction=True because the migrations commit their own work; runs on both stacks."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("games", "0013_game_logs_lz4"),
    ("reviews", "0006_games_held_out_of_figures"),
    ("challenges", "0001_initial"),
]
NOON = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def before_holds():
    try:
        yield migrate(BEFORE)
    finally:
        migrate(latest())


def test_holds_move_onto_the_games_and_held_completions_are_worked_out_again(before_holds):
    old = before_holds
    User, Game = old.get_model("auth", "User"), old.get_model("games", "Game")
    GameReview = old.get_model("reviews", "GameReview")
    Challenge = old.get_model("challenges", "Challenge")
    Completion = old.get_model("challenges", "Completion")
    ann, ben = User.objects.create(username="ann"), User.objects.create(username="ben")
    challenge = Challenge.objects.create(
        date=date(2026, 12, 2),
        variant="steps",
        difficulty=1,
        rules_version=1,
        seed="s",
        goal={"kind": "win"},
        line_length=10,
        solver_nodes=1,
        solve_ms=1,
    )

    def game(player, *, in_figures=True, state=None, met_at=None):
        made = Game.objects.create(
            player=player,
            variant="steps",
            seed="s",
            state={},
            track="challenge",
            track_ref=str(challenge.id),
            status="finished",
            started_at=NOON - timedelta(hours=1),
            last_action_at=NOON,
            finished_at=NOON,
            goal_met_at=met_at,
            in_figures=in_figures,
        )
        if state is not None:
            GameReview.objects.create(game=made, state=state, reviewed_at=NOON)
        return made

    anns_voided = game(ann, in_figures=False, state="voided", met_at=NOON)
    anns_again = game(ann, met_at=NOON + timedelta(hours=2))
    bens_held = game(ben, in_figures=False, state="under_review", met_at=NOON)
    clear = game(ben, state="clear")
    for player, held in ((ann, anns_voided), (ben, bens_held)):
        Completion.objects.create(
            challenge=challenge,
            player=player,
            game=held,
            stars=1,
            month=date(2026, 12, 1),
            completed_at=NOON,
        )

    new = migrate(latest())
    Game = new.get_model("games", "Game")
    holds = dict(Game.objects.values_list("id", "review_hold"))
    assert holds == {
        anns_voided.id: "voided",
        anns_again.id: "",
        bens_held.id: "held",
        clear.id: "",
    }
    assert "in_figures" not in {field.name for field in Game._meta.get_fields()}
    completions = new.get_model("challenges", "Completion").objects.values_list(
        "player__username", "game_id", "completed_at"
    )
    assert list(completions) == [("ann", anns_again.id, NOON + timedelta(hours=2))]
