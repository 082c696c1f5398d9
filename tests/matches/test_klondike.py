"""Klondike head-to-head (klondike.txt): closed to players until staff publish a points
table, playable by staff meanwhile; both boards scored by the table, the highest
score wins and an equal score is a draw."""

import pytest
from django.urls import reverse

from games import services as games_services
from games.engine import get_variant
from games.models import Game
from matches import services
from matches.errors import MatchRefused
from matches.models import Match, PointsTable, Seat
from tests.games.helpers import load_fixture
from tests.matches.helpers import games_of

pytestmark = pytest.mark.django_db

TABLE = {"waste_to_tableau": 5, "waste_to_foundation": 10, "tableau_to_foundation": 10, "flip": 5}


@pytest.fixture
def staff(make_user):
    return make_user("stella", is_staff=True)


def publish(staff) -> PointsTable:
    table = PointsTable.objects.create(version=1, points=TABLE, note="The test table.")
    return services.points_table_publish(table_id=table.pk, staff=staff)


def test_players_are_refused_until_a_table_is_published_and_staff_may_try_it(
    player, staff, make_user
):
    with pytest.raises(MatchRefused, match="points table"):
        services.match_create(player=player, mode="klondike")
    trial = services.match_create(player=staff, mode="klondike")
    assert trial.points_table is None
    with pytest.raises(MatchRefused, match="points table"):
        services.match_join(player=player, match_id=trial.id)
    services.match_join(player=make_user("sam", is_staff=True), match_id=trial.id)
    trial.refresh_from_db()
    assert trial.status == Match.Status.RUNNING
    assert trial.rated is False  # a trial before any table counts in no rating
    publish(staff)
    match = services.match_create(player=player, mode="klondike")
    assert match.points_table.version == 1
    assert match.options["points"] == TABLE


def test_both_boards_are_scored_by_the_table_and_the_higher_score_wins(player, staff, make_user):
    publish(staff)
    bob = make_user("bob")
    match = services.match_create(player=player, mode="klondike")
    services.match_join(player=bob, match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    assert (match.deadline_at - match.started_at).total_seconds() == 240
    engine = get_variant("klondike")
    # Both seats on the winning fixture's deal, whose pile 5 sends its card home at once.
    deck = load_fixture("klondike_win.json")["deck"]
    for game in games_of(match):
        assert game.options["points"] == TABLE
        state = engine.deal(deck, game.options)
        Game.objects.filter(id=game.id).update(state=engine.dump(state))
    mine, theirs = games_of(match)
    games_services.game_move_play(game_id=mine.id, player=player, move="t5-f", revision=0)
    mine.refresh_from_db()
    assert mine.score >= TABLE["tableau_to_foundation"]
    for game in (mine, theirs):
        games_services.game_finish(game_id=game.id, player=game.player, revision=game.revision)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    seats = {seat.player: seat for seat in Seat.objects.filter(match=match)}
    assert seats[player].outcome == Seat.Outcome.WIN
    assert seats[bob].outcome == Seat.Outcome.LOSS
    assert (seats[player].score, seats[bob].score) == (mine.score, 0)


def test_an_exactly_equal_score_is_a_draw(player, staff, make_user):
    publish(staff)
    match = services.match_create(player=player, mode="klondike")
    services.match_join(player=make_user("bob"), match_id=match.id)
    for game in games_of(Match.objects.get(id=match.id)):
        games_services.game_finish(game_id=game.id, player=game.player, revision=0)
    outcomes = set(Seat.objects.filter(match=match).values_list("outcome", flat=True))
    assert outcomes == {Seat.Outcome.DRAW}


def test_publishing_a_table_the_engine_refuses_opens_nothing(staff):
    table = PointsTable.objects.create(version=1, points={"jump": 5}, note="wrong")
    with pytest.raises(MatchRefused, match="engine refuses"):
        services.points_table_publish(table_id=table.pk, staff=staff)
    assert services.points_table_current() is None


def test_staff_publish_a_table_in_the_admin(client, staff):
    staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    table = PointsTable.objects.create(version=1, points=TABLE, note="The test table.")
    response = client.post(
        reverse("admin:matches_pointstable_changelist"),
        {"action": "publish", "_selected_action": [table.pk]},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.published_at is not None
    assert table.published_by == staff
    assert services.points_table_current() == table
