"""Tracks and the platform's clock: a deadline the variant knows nothing about."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.errors import GameClosed
from games.models import Game
from games.tracks import Track, casual_track, track_of

pytestmark = pytest.mark.django_db

FOUR_MINUTES = Track(time_limit_seconds=240)


@pytest.fixture
def clock(monkeypatch):
    """The server's clock, moved by the test."""

    class Clock:
        now = timezone.now()

        def advance(self, **delta: float) -> None:
            self.now += timedelta(**delta)

    fake = Clock()
    monkeypatch.setattr(timezone, "now", lambda: fake.now)
    return fake


def draw(game: Game, player) -> Game:
    return services.game_move_play(
        game_id=game.id, player=player, move="draw", revision=game.revision
    ).game


def test_a_klondike_game_carries_a_four_minute_deadline_through_its_moves(player, clock):
    game = services.game_start(player=player, variant="klondike", track=FOUR_MINUTES)
    deadline = game.started_at + timedelta(minutes=4)
    assert (game.time_limit_seconds, game.deadline_at) == (240, deadline)
    for _ in range(3):
        clock.advance(seconds=50)
        game = draw(game, player)
        assert game.deadline_at == deadline
        assert game.is_active
    assert game.elapsed_ms == 150_000


def test_the_game_closes_on_time_and_refuses_what_comes_after(player, clock):
    game = services.game_start(player=player, variant="klondike", track=FOUR_MINUTES)
    game = draw(game, player)
    clock.advance(minutes=4, seconds=1)
    with pytest.raises(GameClosed, match="Time is up"):
        draw(game, player)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.elapsed_ms == 240_000
    assert game.finished_at == game.deadline_at
    assert game.move_count == 1
    assert game.final_score == 0


def test_nobody_looking_the_sweep_closes_it_at_its_deadline(player, clock):
    game = services.game_start(player=player, variant="klondike", track=FOUR_MINUTES)
    clock.advance(seconds=239)
    assert services.games_close_expired() == 0
    clock.advance(seconds=1)
    assert services.games_close_expired() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert services.game_close_if_time_up(game_id=game.id) is False


def test_a_game_without_a_track_clock_counts_gaps_and_never_closes_for_time(player, clock):
    game = services.game_start(player=player, variant="klondike")
    clock.advance(hours=2)
    game = draw(game, player)
    assert game.deadline_at is None
    assert game.is_active
    assert services.games_close_expired() == 0


def test_the_earlier_of_track_and_rules_is_the_deadline(player):
    short = Track(options={"mode": "time_attack"}, time_limit_seconds=60)
    game = services.game_start(player=player, variant="spike", track=short)
    assert game.deadline_at == game.started_at + timedelta(seconds=60)
    long = Track(options={"mode": "time_attack"}, time_limit_seconds=600)
    game = services.game_start(player=player, variant="spike", track=long)
    assert game.deadline_at == game.started_at + timedelta(seconds=120)


def test_a_restart_deals_the_same_cards_on_the_same_track_and_clock(player):
    game = services.game_start(player=player, variant="klondike", track=FOUR_MINUTES)
    again = services.game_restart(game_id=game.id, player=player)
    assert (again.seed, again.track, again.time_limit_seconds) == (game.seed, "casual", 240)
    assert track_of(again).time_limit_seconds == 240


def test_games_store_the_rules_version_they_were_dealt_under(player):
    game = services.game_start(player=player, variant="klondike", track=casual_track())
    assert game.rules_version == 1


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"kind": "tournament"}, "Unknown track"),
        ({"ref": "12"}, "A casual game has no track reference"),
        ({"time_limit_seconds": 0}, "positive number of seconds"),
    ],
)
def test_a_track_that_makes_no_sense_is_refused(changes, message):
    with pytest.raises(ValueError, match=message):
        Track(**changes)
