"""Making, joining, starting and leaving matches; the same deal for every seat."""

import pytest

from games.engine import get_variant
from games.models import Game
from matches import services
from matches.errors import MatchNotYours, MatchRefused
from matches.models import Match, Seat
from tests.matches.helpers import games_of, sprint

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def test_every_seat_plays_the_same_deal_on_one_clock(player, bob, carol):
    match = sprint(player, bob, carol)
    assert match.status == Match.Status.RUNNING
    games = games_of(match)
    assert len(games) == 3
    assert {game.seed for game in games} == {match.seed}
    assert len({str(game.state) for game in games}) == 1
    assert {game.deadline_at for game in games} == {match.deadline_at}
    assert {game.started_at for game in games} == {match.started_at}
    assert (match.deadline_at - match.started_at).total_seconds() == 300
    assert {game.track for game in games} == {Game.Track.MATCH}
    assert {game.track_ref for game in games} == {str(match.id)}
    assert [game.player for game in games] == [player, bob, carol]


def test_a_sprint_starts_when_its_maker_starts_it(player, bob):
    match = services.match_create(player=player, mode="steps_sprint")
    assert match.status == Match.Status.OPEN
    services.match_join(player=bob, match_id=match.id)
    match.refresh_from_db()
    # A Sprint seats up to four: its maker starts it.
    assert match.status == Match.Status.OPEN
    services.match_start(player=player, match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING


def test_a_private_match_is_joined_by_its_invite_code_only(player, bob):
    match = services.match_create(player=player, mode="steps_sprint", private=True)
    # Without its code it is a match bob cannot see (match_for_viewer): none.
    with pytest.raises(Match.DoesNotExist):
        services.match_join(player=bob, match_id=match.id)
    with pytest.raises(Match.DoesNotExist):
        services.match_join(player=bob, match_id=match.id, invite_code="guess")
    services.match_join(player=bob, match_id=match.id, invite_code=match.invite_code)
    assert match.seats.count() == 2


def test_joining_twice_keeps_one_seat_and_a_full_match_refuses(player, make_user):
    match = services.match_create(player=player, mode="steps_sprint")
    services.match_join(player=player, match_id=match.id)
    assert match.seats.count() == 1
    for name in ("b1", "b2", "b3"):
        services.match_join(player=make_user(name), match_id=match.id)
    match.refresh_from_db()
    # Four seats: full, and waiting for its maker to press Start (docs/matches.md).
    assert match.status == Match.Status.OPEN
    with pytest.raises(MatchRefused, match="full"):
        services.match_join(player=make_user("late"), match_id=match.id)
    services.match_start(player=player, match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    assert match.seats.filter(game__isnull=False).count() == 4


@pytest.mark.parametrize("mode", ["steps_duel", "klondike"])
def test_a_two_player_mode_starts_when_its_second_seat_is_taken(player, bob, make_user, mode):
    maker = make_user("stella", is_staff=True) if mode == "klondike" else player
    match = services.match_create(player=maker, mode=mode)
    joined = services.match_join(player=make_user("sam", is_staff=True), match_id=match.id)
    assert joined.status == Match.Status.RUNNING
    with pytest.raises(MatchRefused, match="started"):
        services.match_start(player=maker, match_id=match.id)


def test_only_the_maker_starts_and_a_started_match_takes_nobody(player, bob, carol):
    match = sprint(player, bob, start=False)
    with pytest.raises(MatchNotYours, match="Only the player who made"):
        services.match_start(player=bob, match_id=match.id)
    services.match_start(player=player, match_id=match.id)
    with pytest.raises(Match.DoesNotExist):  # no longer in the lobby: not carol's to see
        services.match_join(player=carol, match_id=match.id)
    with pytest.raises(MatchRefused, match="started"):
        services.match_join(player=bob, match_id=match.id)
    with pytest.raises(MatchRefused, match="started"):
        services.match_leave(player=bob, match_id=match.id)


def test_a_solo_sprint_is_a_match_of_one_not_rated(player):
    match = sprint(player)
    assert match.status == Match.Status.RUNNING
    assert match.rated is False


def test_leaving_before_the_start_and_the_last_one_out_cancels(player, bob):
    match = sprint(player, bob, start=False)
    assert services.match_leave(player=bob, match_id=match.id)
    assert services.match_leave(player=player, match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED
    assert not Seat.objects.filter(match=match).exists()


def test_klondike_is_closed_to_players_until_a_points_table_is_published(player, make_user):
    with pytest.raises(MatchRefused, match="points table"):
        services.match_create(player=player, mode="klondike")
    with pytest.raises(MatchRefused, match="points table"):
        services.queue_join(player=player, mode="klondike")
    assert not Match.objects.exists()


def test_an_unknown_mode_is_refused(player):
    with pytest.raises(MatchRefused, match="no match mode"):
        services.match_create(player=player, mode="chess")


def test_a_match_game_takes_no_hint_and_no_restart(player, bob):
    from games import services as games_services
    from games.errors import MoveRefused

    game = games_of(sprint(player, bob))[0]
    with pytest.raises(MoveRefused, match="without hints"):
        games_services.game_hint(game_id=game.id, player=player, revision=0)
    with pytest.raises(MoveRefused, match="not restarted"):
        games_services.game_restart(game_id=game.id, player=player)
    engine = get_variant("steps")
    assert engine.load(Game.objects.get(id=game.id).state) == engine.load(game.state)
