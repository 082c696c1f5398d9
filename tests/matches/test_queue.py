"""Quick match: players of close ratings are paired at once; the window widens with
the time waited; nobody is paired twice; leaving the queue."""

from datetime import timedelta

import pytest
from django.utils import timezone

from matches import services
from matches.models import Match, PointsTable, QueueEntry, Rating
from matches.services.queue import rating_window

pytestmark = pytest.mark.django_db


def rated(user, rating: float) -> None:
    Rating.objects.create(
        player=user, mode="steps_sprint", rating=rating, deviation=80, volatility=0.06
    )


def test_two_players_of_close_ratings_are_paired_at_once(player, make_user):
    bob = make_user("bob")
    assert services.queue_join(player=player, mode="steps_sprint") is None
    match = services.queue_join(player=bob, mode="steps_sprint")
    assert match is not None
    assert match.status == Match.Status.RUNNING
    assert {seat.player for seat in match.seats.all()} == {player, bob}
    assert not QueueEntry.objects.exists()


def test_far_ratings_wait_until_the_window_has_widened(player, make_user):
    bob = make_user("bob")
    rated(player, 1500)
    rated(bob, 1800)
    services.queue_join(player=player, mode="steps_sprint")
    assert services.queue_join(player=bob, mode="steps_sprint") is None
    assert QueueEntry.objects.count() == 2
    # 300 apart: paired once the one who waited longest has waited 40 s (100 + 4 times 50).
    assert (
        services.queue_pair(mode="steps_sprint", now=timezone.now() + timedelta(seconds=30)) == {}
    )
    made = services.queue_pair(mode="steps_sprint", now=timezone.now() + timedelta(seconds=41))
    assert set(made) == {player.pk, bob.pk}
    assert not QueueEntry.objects.exists()


def test_the_window_widens_every_ten_seconds_up_to_its_cap():
    assert rating_window(waited_seconds=0) == 100
    assert rating_window(waited_seconds=9.9) == 100
    assert rating_window(waited_seconds=10) == 150
    assert rating_window(waited_seconds=10_000) == 800


def test_the_closest_rating_is_paired_first(player, make_user):
    near, far = make_user("near"), make_user("far")
    rated(player, 1500)
    rated(near, 1540)
    rated(far, 1590)
    for user in (player, far, near):
        QueueEntry.objects.create(
            player=user,
            mode="steps_sprint",
            rating=Rating.objects.get(player=user).rating,
            joined_at=timezone.now(),
        )
    made = services.queue_pair(mode="steps_sprint")
    assert made[player.pk] == made[near.pk]
    assert far.pk not in made
    assert QueueEntry.objects.get().player == far


def test_leaving_the_queue(player):
    services.queue_join(player=player, mode="steps_sprint")
    assert services.queue_leave(player=player, mode="steps_sprint")
    assert not services.queue_leave(player=player, mode="steps_sprint")
    assert not QueueEntry.objects.exists()


def test_joining_twice_waits_once(player):
    services.queue_join(player=player, mode="steps_sprint")
    services.queue_join(player=player, mode="steps_sprint")
    assert QueueEntry.objects.count() == 1


@pytest.fixture
def klondike_open(make_user):
    """Klondike head-to-head opened to players by a published test points table."""
    table = PointsTable.objects.create(
        version=1, points={"waste_to_tableau": 5, "flip": 5}, note="The test table."
    )
    services.points_table_publish(table_id=table.pk, staff=make_user("stella", is_staff=True))


MODES = ["steps_duel", "klondike", "steps_sprint"]


@pytest.mark.parametrize("mode", MODES)
def test_a_pair_left_in_the_queue_makes_one_match_however_many_runs_follow(
    player, make_user, klondike_open, mode
):
    bob = make_user("bob")
    for user in (player, bob):
        QueueEntry.objects.create(player=user, mode=mode, rating=1500, joined_at=timezone.now())
    made = services.queue_pair(mode=mode)
    for _ in range(4):  # the beat every 5 s, each look at the lobby without a worker
        assert services.queue_pair(mode=mode) == {}
        assert services.queue_pair_all_if_embedded() == 0
    match = Match.objects.get()
    assert made == {player.pk: match, bob.pk: match}
    assert match.status == Match.Status.RUNNING
    assert {seat.player for seat in match.seats.all()} == {player, bob}
    assert all(seat.game_id is not None for seat in match.seats.all())
    assert not QueueEntry.objects.exists()


@pytest.mark.parametrize("mode", MODES)
def test_the_second_player_to_queue_is_paired_into_one_match(
    player, make_user, klondike_open, mode
):
    bob = make_user("bob")
    assert services.queue_join(player=player, mode=mode) is None
    match = services.queue_join(player=bob, mode=mode)
    assert match is not None
    assert match.status == Match.Status.RUNNING
    services.queue_pair_all()
    assert list(Match.objects.all()) == [match]
    assert {seat.player for seat in match.seats.all()} == {player, bob}
    assert not QueueEntry.objects.exists()


def waiting(user, *modes: str, seconds_ago: int = 0) -> None:
    for mode in modes:
        QueueEntry.objects.create(
            player=user,
            mode=mode,
            rating=1500,
            joined_at=timezone.now() - timedelta(seconds=seconds_ago),
        )


def test_a_pair_waiting_in_every_mode_is_paired_once_and_leaves_every_queue(
    player, make_user, klondike_open
):
    bob = make_user("bob")
    for user in (player, bob):
        waiting(user, *MODES)
    assert services.queue_pair_all() == 1
    assert services.queue_pair_all() == 0
    match = Match.objects.get()
    assert {seat.player for seat in match.seats.all()} == {player, bob}
    assert not QueueEntry.objects.exists()


def test_a_player_paired_in_one_mode_leaves_the_other_queues_and_the_other_players_wait(
    player, make_user
):
    bob, carol = make_user("bob"), make_user("carol")
    waiting(player, "steps_duel", "steps_sprint")
    waiting(carol, "steps_sprint")
    services.queue_join(player=bob, mode="steps_duel")
    assert services.queue_pair(mode="steps_sprint") == {}
    match = Match.objects.get()
    assert match.mode == "steps_duel"
    assert {seat.player for seat in match.seats.all()} == {player, bob}
    assert list(QueueEntry.objects.values_list("player__username", "mode")) == [
        ("carol", "steps_sprint")
    ]


def seated_in(status: str, player, other) -> Match:
    """A match the player made in the lobby: waiting for players, or running."""
    if status == Match.Status.OPEN:
        return services.match_create(player=player, mode="steps_sprint")
    match = services.match_create(player=player, mode="steps_sprint")
    services.match_join(player=other, match_id=match.id)
    return services.match_start(player=player, match_id=match.id)


@pytest.mark.parametrize("status", [Match.Status.OPEN, Match.Status.RUNNING])
def test_a_player_with_a_match_waiting_or_running_is_not_paired_again(player, make_user, status):
    bob, carol, dave = make_user("bob"), make_user("carol"), make_user("dave")
    lobby_match = seated_in(status, player, dave)
    # The player waited longest: the pairing pairs the two others and leaves them waiting.
    waiting(player, "steps_duel", seconds_ago=3)
    waiting(bob, "steps_duel", seconds_ago=2)
    waiting(carol, "steps_duel", seconds_ago=1)
    made = services.queue_pair(mode="steps_duel")
    assert set(made) == {bob.pk, carol.pk}
    assert player.pk not in made
    assert list(Match.objects.filter(seats__player=player)) == [lobby_match]
    assert list(QueueEntry.objects.values_list("player__username", flat=True)) == ["alice"]


def test_a_player_whose_match_waited_is_paired_once_they_leave_it(player, make_user):
    bob = make_user("bob")
    lobby_match = seated_in(Match.Status.OPEN, player, bob)
    waiting(player, "steps_duel")
    assert services.queue_join(player=bob, mode="steps_duel") is None
    services.match_leave(player=player, match_id=lobby_match.id)
    made = services.queue_pair(mode="steps_duel")
    assert set(made) == {player.pk, bob.pk}
    assert not QueueEntry.objects.exists()
