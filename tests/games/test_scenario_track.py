"""A Codex scenario's games: dealt with its layout and handicaps, the undo allowance
kept, stars against par, the Architect Dashboard on the board, verified by the review."""

from dataclasses import replace

import pytest
from django.template.loader import render_to_string
from django.utils import timezone

from games import codex
from games.engine import format_move, get_variant
from games.engine.steps.codex import scenario_state
from games.errors import MoveRefused
from games.models import Game
from games.rendering import board_urls
from games.selectors import game_board
from games.services import game_finish, game_move_play, game_move_undo, game_start
from reviews.models import GameReview
from reviews.replays import verify_game

pytestmark = pytest.mark.django_db

STEPS = get_variant("steps")


def scenario_game(player, key):
    scenario = codex.codex_scenario(key)
    return scenario, game_start(
        player=player, variant="steps", track=codex.scenario_track(scenario)
    )


def test_a_scenario_is_dealt_with_its_layout_and_handicaps(player) -> None:
    scenario, game = scenario_game(player, "the-unforgiving-ledger")
    assert (game.track, game.track_ref, game.seed) == ("scenario", scenario.key, scenario.seed)
    assert game.options == scenario.options
    assert STEPS.load(game.state) == scenario_state(scenario, STEPS)
    assert (game.undo_limit, game.time_limit_seconds) == (3, 720)
    assert game.deadline_at is not None
    assert not game.is_ranked
    _, layout_game = scenario_game(player, "the-kings-vestibule")
    public = STEPS.public_view(STEPS.load(layout_game.state))
    assert public["foundations"][2]["count"] == 2
    assert public["reserves"][1]["card"] == "KD"


def play(game, player, count):
    """`count` legal moves (the first legal one each time), each through the service."""
    for _ in range(count):
        game.refresh_from_db()
        move = STEPS.legal_moves(STEPS.load(game.state))[0]
        game_move_play(
            game_id=game.id, player=player, move=format_move(move), revision=game.revision
        )
    game.refresh_from_db()


def test_the_undo_allowance_refuses_a_move_taken_back_past_it(player) -> None:
    _, game = scenario_game(player, "the-unforgiving-ledger")
    play(game, player, 5)
    for used in range(3):
        assert game_board(game=game).undos_left == 3 - used
        game_move_undo(game_id=game.id, player=player, revision=game.revision)
        game.refresh_from_db()
    board = game_board(game=game)
    assert (board.undos_left, board.can_undo) == (0, False)
    before = (game.revision, game.move_count, game.undo_count, game.state)
    with pytest.raises(MoveRefused, match="allows 3 moves taken back, and all are used"):
        game_move_undo(game_id=game.id, player=player, revision=game.revision)
    game.refresh_from_db()
    assert (game.revision, game.move_count, game.undo_count, game.state) == before


def test_a_game_without_an_allowance_undoes_freely(player) -> None:
    _, game = scenario_game(player, "the-gentle-ascent")
    assert game.undo_limit is None
    assert game_board(game=game).undos_left is None


@pytest.mark.parametrize(
    ("won", "moves", "reserve_used", "stars"),
    [
        (False, 50, False, 0),
        (True, 100, False, 3),
        (True, 99, False, 3),
        (True, 100, True, 2),
        (True, 101, False, 2),
        (True, 120, False, 2),
        (True, 121, False, 1),
        (True, 500, True, 1),
    ],
)
def test_stars_against_par_at_their_boundaries(won, moves, reserve_used, stars) -> None:
    scenario = codex.codex_scenario("the-gentle-ascent")
    at_par_100 = replace(scenario, par=100)
    assert codex.par_margin_moves(100) == 120
    assert (
        codex.scenario_stars(scenario=at_par_100, won=won, moves=moves, reserve_used=reserve_used)
        == stars
    )


def test_the_board_shows_the_architect_dashboard(player, rf) -> None:
    scenario, game = scenario_game(player, "the-unforgiving-ledger")
    board = game_board(game=game)
    dashboard = board.scenario
    assert (dashboard.number, dashboard.name, dashboard.par) == (18, scenario.name, scenario.par)
    assert dashboard.stars_in_reach == 3
    assert dashboard.handicaps == [
        "3 cards a draw",
        "2 reserve slots",
        "3 recycles",
        "3 undos",
        "12:00 on the clock",
    ]
    request = rf.get("/")
    request.user = player
    html = render_to_string(
        "games/board.jinja",
        {"board": board, "urls": board_urls(game_id=game.id, variant="steps", match_id="")},
        request=request,
    )
    assert 'id="dashboard"' in html
    assert "Codex 18: The Unforgiving Ledger" in html
    assert "3 undos left" in html
    # Certified from its starting position by codex_certify, with no certified-seed row.
    assert board.certified_winnable
    assert 'id="certified-label"' in html
    casual = game_start(player=player, variant="steps")
    assert game_board(game=casual).scenario is None
    assert not game_board(game=casual).certified_winnable


def test_a_scenario_game_is_verified_by_replaying_its_log(player) -> None:
    _, game = scenario_game(player, "the-kings-vestibule")
    play(game, player, 6)
    game_finish(game_id=game.id, player=player, revision=game.revision)
    game = Game.objects.get(id=game.id)
    outcome = verify_game(game)
    assert outcome.ok, outcome.details


def test_a_won_scenario_under_review_shows_its_stars_held(player, rf) -> None:
    _, game = scenario_game(player, "the-unforgiving-ledger")
    Game.objects.filter(id=game.id).update(status=Game.Status.WON, review_hold=Game.ReviewHold.HELD)
    GameReview.objects.create(
        game=game, state=GameReview.State.UNDER_REVIEW, reviewed_at=timezone.now()
    )
    game.refresh_from_db()
    request = rf.get("/")
    request.user = player
    html = render_to_string(
        "games/board.jinja",
        {
            "board": game_board(game=game),
            "urls": board_urls(game_id=game.id, variant="steps", match_id=""),
        },
        request=request,
    )
    assert "3 stars held while the result is reviewed" in html
    assert "stars earned" not in html
