"""Playing a challenge: its game carries its goal, the move that meets the goal records
the completion once, stars count in the challenge's month."""

import threading
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from challenges import selectors, services
from challenges.errors import ChallengeRefused
from challenges.models import Challenge, Completion
from games.models import Game
from games.selectors import game_board
from games.services import game_move_undo, game_restart

from .conftest import DAY, play_line

pytestmark = pytest.mark.django_db

TWO_ACES = {"kind": "foundation_rank", "rank": "A", "count": 2}


def test_a_challenge_deals_its_deal_with_its_goal(make_challenge, player, clock) -> None:
    challenge = make_challenge(goal=TWO_ACES)
    game = services.challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    assert (game.track, game.track_ref) == (Game.Track.CHALLENGE, challenge.track_ref)
    assert game.seed == challenge.seed
    assert game.goal == TWO_ACES
    assert not game.is_ranked
    again = services.challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    assert again == game
    board = game_board(game=game)
    assert board.goal.words == "Play two aces to the foundations"
    assert board.goal.progress == "Aces to the foundations: 0 of 2"
    assert not board.goal.met


def test_a_later_days_challenge_is_not_open_yet(make_challenge, player, clock) -> None:
    challenge = make_challenge(day=DAY + timedelta(days=1), goal=TWO_ACES)
    with pytest.raises(ChallengeRefused, match="This challenge opens on 03 December 2026"):
        services.challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    assert not Game.objects.exists()


def test_the_move_that_meets_the_goal_records_the_completion(make_challenge, player, clock) -> None:
    challenge = make_challenge(goal=TWO_ACES)
    game = services.challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    play_line(game=game, player=player, line=challenge.proof_line[:-1])
    assert not Completion.objects.exists()
    assert game.goal_met_at is None
    outcome = play_line(game=game, player=player, line=challenge.proof_line[-1:])
    assert game.goal_met_at == clock.now
    assert outcome.game.goal_met_now
    completion = Completion.objects.get()
    assert (completion.player, completion.game, completion.stars) == (player, game, 1)
    assert (completion.month, completion.completed_at) == (date(2026, 12, 1), clock.now)
    board = game_board(game=outcome.game, state=outcome.state)
    assert board.goal.just_met
    assert board.goal.progress == "Aces to the foundations: done"
    # The game goes on; taking the move back does not take the goal back.
    game_move_undo(game_id=game.id, player=player, revision=game.revision)
    game.refresh_from_db()
    assert game.goal_met_at == clock.now
    assert game.is_active
    assert game_board(game=game).goal.met


def test_a_completion_is_recorded_once_however_often_the_goal_is_met(
    make_challenge, player, clock
) -> None:
    challenge = make_challenge(goal=TWO_ACES)
    game = services.challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    play_line(game=game, player=player, line=challenge.proof_line)
    clock.now += timedelta(hours=1)
    restarted = game_restart(game_id=game.id, player=player)
    assert restarted.goal == TWO_ACES
    play_line(game=restarted, player=player, line=challenge.proof_line)
    assert restarted.goal_met_at == clock.now
    completion = Completion.objects.get()
    assert completion.game_id == game.id


def test_an_earlier_day_of_the_month_still_earns_its_stars(make_challenge, player, clock) -> None:
    challenge = make_challenge(day=date(2026, 12, 1), difficulty=3, goal=TWO_ACES)
    game = services.challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    play_line(game=game, player=player, line=challenge.proof_line)
    completion = Completion.objects.get()
    assert (completion.stars, completion.month) == (3, date(2026, 12, 1))


def test_a_challenge_of_a_month_that_is_over_earns_nothing(make_challenge, player, clock) -> None:
    challenge = make_challenge(day=date(2026, 11, 30), goal=TWO_ACES)
    game = services.challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    play_line(game=game, player=player, line=challenge.proof_line)
    assert game.goal_met_at == clock.now
    assert not Completion.objects.exists()


def test_month_rollover_a_goal_met_after_midnight_of_the_first(
    make_challenge, player, clock
) -> None:
    clock.now = datetime(2026, 12, 31, 23, 59, tzinfo=UTC)
    challenge = make_challenge(day=date(2026, 12, 31), goal=TWO_ACES)
    game = services.challenge_play(player=player, challenge_id=challenge.id, today=clock.now.date())
    play_line(game=game, player=player, line=challenge.proof_line[:-1])
    clock.now = datetime(2027, 1, 1, 0, 0, 1, tzinfo=UTC)
    play_line(game=game, player=player, line=challenge.proof_line[-1:])
    assert game.goal_met_at == clock.now
    assert not Completion.objects.exists()
    assert selectors.counts_for_stars(challenge=challenge, day=date(2026, 12, 31))
    assert not selectors.counts_for_stars(challenge=challenge, day=date(2027, 1, 1))


def test_meeting_the_goal_costs_two_queries_more_than_a_move(make_challenge, player, clock) -> None:
    challenge = make_challenge(goal=TWO_ACES)
    game = services.challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    play_line(game=game, player=player, line=challenge.proof_line[:-2])
    from games.services import game_move_play

    with CaptureQueriesContext(connection) as plain:
        game_move_play(
            game_id=game.id, player=player, move=challenge.proof_line[-2], revision=game.revision
        )
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as meeting:
        game_move_play(
            game_id=game.id, player=player, move=challenge.proof_line[-1], revision=game.revision
        )
    statements = [query["sql"].split()[0] for query in meeting.captured_queries]
    assert len(meeting.captured_queries) == len(plain.captured_queries) + 2
    assert statements.count("INSERT") == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks need PostgreSQL")
def test_completions_racing_each_other_are_recorded_once(make_challenge, make_user) -> None:
    challenge = make_challenge(goal=TWO_ACES)
    player = make_user("racer")
    met_at = datetime(2026, 12, 2, 12, tzinfo=UTC)
    games = [
        Game.objects.create(
            player=player,
            variant="steps",
            seed=challenge.seed,
            track=Game.Track.CHALLENGE,
            track_ref=challenge.track_ref,
            status=Game.Status.ABANDONED,
            state={},
            started_at=met_at,
            last_action_at=met_at,
            goal=TWO_ACES,
        )
        for _ in range(8)
    ]
    barrier = threading.Barrier(len(games))
    failures = []

    def complete(game: Game) -> None:
        try:
            with transaction.atomic():
                barrier.wait()
                services.completion_record(game=game, met_at=met_at)
        except Exception as failure:
            failures.append(failure)
        finally:
            connection.close()

    threads = [threading.Thread(target=complete, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert Completion.objects.filter(challenge=challenge, player=player).count() == 1
    assert Challenge.objects.count() == 1
