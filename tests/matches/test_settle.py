"""A match settles once: when its last game closes, or when its clock runs out with
nobody looking; every action after the deadline is refused; reconnecting restores
the time left."""

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as games_services
from games.engine import format_move, get_variant
from games.errors import GameClosed
from games.models import Game
from games.selectors import game_board
from matches import services
from matches.models import Match, Seat
from tests.games.helpers import load_fixture
from tests.matches.helpers import games_of, run_out_the_clock, sprint

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def finish(game: Game) -> None:
    game.refresh_from_db()
    games_services.game_finish(game_id=game.id, player=game.player, revision=game.revision)


def test_the_match_settles_when_its_last_game_closes(player, bob):
    match = sprint(player, bob)
    first, second = games_of(match)
    finish(first)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    finish(second)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    seats = list(match.seats.order_by("number"))
    assert all(seat.placement is not None for seat in seats)
    # Nobody played a card: the same count, ledger and no time reached: a draw.
    assert [seat.outcome for seat in seats] == [Seat.Outcome.DRAW, Seat.Outcome.DRAW]


def test_the_clock_closes_a_match_with_nobody_connected(player, bob):
    match = sprint(player, bob)
    run_out_the_clock(match)
    assert services.matches_close_expired() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert {game.status for game in games_of(match)} == {Game.Status.FINISHED}
    assert services.matches_close_expired() == 0


def test_every_action_after_the_deadline_is_refused(player, bob):
    match = sprint(player, bob)
    run_out_the_clock(match)
    game = games_of(match)[0]
    with pytest.raises(GameClosed, match="Time is up"):
        games_services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    match.refresh_from_db()
    # The refused action closed its own game; the other closes by the sweep.
    assert Game.objects.get(id=game.id).status == Game.Status.FINISHED
    services.matches_close_expired()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def test_the_first_look_at_the_match_closes_it(player_client, player, bob):
    match = sprint(player, bob)
    run_out_the_clock(match)
    page = player_client.get(reverse("matches:detail", kwargs={"match_id": match.id}))
    assert page.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def test_reconnecting_restores_the_time_left_without_a_reset(player, bob):
    match = sprint(player, bob)
    game = games_of(match)[0]
    left = (match.deadline_at - timezone.now()).total_seconds()
    board = game_board(game=Game.objects.get(id=game.id))
    assert board.remaining_seconds is not None
    assert abs(board.remaining_seconds - left) <= 1
    games_services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    after = game_board(game=Game.objects.get(id=game.id))
    assert Game.objects.get(id=game.id).deadline_at == match.deadline_at
    assert after.remaining_seconds <= board.remaining_seconds


def test_the_seat_follows_its_cards_on_the_foundations(player):
    match = sprint(player)
    game = games_of(match)[0]
    case = load_fixture("steps_win.json")
    engine = get_variant("steps")
    # The winning fixture's deal and options, on the match's game.
    state = engine.deal(case["deck"], case["options"])
    Game.objects.filter(id=game.id).update(state=engine.dump(state), options=case["options"])
    for move in case["moves"]:
        game.refresh_from_db()
        if not game.is_active:
            break
        # Safe cards may have gone home on their own (the automatic-moves setting).
        if move not in {format_move(m) for m in engine.legal_moves(engine.load(game.state))}:
            continue
        games_services.game_move_play(
            game_id=game.id, player=player, move=move, revision=game.revision
        )
        seat = Seat.objects.get(game=game)
        public = engine.public_view(engine.load(Game.objects.get(id=game.id).state))
        assert seat.foundation_cards == sum(f["count"] for f in public["foundations"])
    match.refresh_from_db()
    seat = Seat.objects.get(game=game)
    assert match.status == Match.Status.FINISHED
    assert seat.foundation_cards == 52
    assert seat.reached_at is not None
    # A clear earns the ledger's time bonus: +2 for every full 10 seconds left.
    assert seat.score > Game.objects.get(id=game.id).final_score
