"""A game the review holds (under review, or voided) counts for nothing anywhere it
counted, and everything comes back when the hold is dismissed or the void restored
(docs/review.md, "What a hold takes out"): a challenge's stars, completion and place
on the monthly leaderboard, the monthly badges not awarded yet, the daily leaderboards
(the database's and the Redis ranks), the weekly and all-time tables, the player's
figures and daily streak, a match's ratings and the Codex's title. Each place is
tested for both holds and their release, through the review's own services."""

from datetime import date, timedelta

import pytest

from achievements.models import Award
from achievements.services import challenge_months_catch_up
from challenges import selectors as challenge_selectors
from challenges.leaderboard import month_leaderboard
from challenges.models import Challenge, Completion
from challenges.services import challenge_play
from codex.leaderboard import scenario_leaderboard
from codex.selectors import codex_campaign, master_architect_reign
from codex.services import scenario_play
from games import services as game_services
from games.codex import codex_scenarios, scenario_certify
from games.models import Game
from games.selectors import game_stats_for_player
from leaderboards import redis_ranks, selectors
from leaderboards import services as leaderboard_services
from leaderboards.periods import today_utc
from matches.models import Match, Rating
from tests.api.conftest import ApiClient
from tests.challenges.conftest import DAY, play_line
from tests.leaderboards.helpers import Figures, deal_of, insert_results
from tests.matches.helpers import games_of, sprint
from tests.reviews.helpers import committed, finish, finished_game

pytestmark = pytest.mark.django_db

MONTH = date(2026, 12, 1)


@pytest.fixture
def completed(make_challenge, player, clock, hold):
    """Today's Steps easy challenge met and the game finished, as a player does: its
    review runs on the close (and holds it, for `held`)."""
    challenge = make_challenge(variant="steps", difficulty=Challenge.Difficulty.EASY)
    game = challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    play_line(game=game, player=player, line=challenge.proof_line)
    assert Completion.objects.filter(player=player, challenge=challenge).exists()
    with hold.closing(), committed():
        finish(game)
    return challenge, game


def challenge_figures(player, challenge) -> dict:
    """Every place a challenge's completion counts, as the pages and the API read it."""
    facts = challenge_selectors.month_facts(player_id=player.pk, month=MONTH)
    view = challenge_selectors.month_view(player=player, month=MONTH, today=DAY)
    day = next(d for week in view.weeks for d in week if d is not None and d.day == DAY)
    board = month_leaderboard(month=MONTH, page=1, viewer=player)
    (entry,) = [
        e
        for e in challenge_selectors.challenges_of_day(day=DAY, player=player, today=DAY)
        if e.id == challenge.id
    ]
    api = ApiClient()
    api.log_in(player.username)
    return {
        "stars": facts.stars,
        "completed": facts.completed,
        "calendar": (day.done, day.stars),
        "leaderboard": [(row.username, row.stars) for row in board.rows],
        "profile_stars": challenge_selectors.month_stars(player=player, month=MONTH),
        "done": entry.done,
        "api_month": api.get("/api/v1/challenges/month", month="2026-12").json()["progress"][
            "stars"
        ],
        "api_board": [
            (row["username"], row["stars"])
            for row in api.get("/api/v1/challenges/leaderboard", month="2026-12").json()["results"]
        ],
        "api_profile": api.get(f"/api/v1/players/{player.username}").json()["challenges"]["stars"],
    }


COUNTED = {
    "stars": 1,
    "completed": 1,
    "calendar": (1, 1),
    "leaderboard": [("alice", 1)],
    "profile_stars": 1,
    "done": True,
    "api_month": 1,
    "api_board": [("alice", 1)],
    "api_profile": 1,
}
NOTHING = {
    "stars": 0,
    "completed": 0,
    "calendar": (0, 0),
    "leaderboard": [],
    "profile_stars": 0,
    "done": False,
    "api_month": 0,
    "api_board": [],
    "api_profile": 0,
}


def test_a_held_challenge_game_earns_no_star_until_it_is_cleared(
    completed,
    player,
    hold,
    clock,
):
    challenge, game = completed
    hold.closed(game)
    assert challenge_figures(player, challenge) == NOTHING
    hold.release(game)
    assert challenge_figures(player, challenge) == COUNTED
    completion = Completion.objects.get(player=player, challenge=challenge)
    assert (completion.game_id, completion.completed_at) == (game.id, game.goal_met_at)


def test_another_attempt_that_met_the_goal_counts_in_place_of_a_held_one(
    completed,
    player,
    hold,
    clock,
):
    challenge, game = completed
    clock.now += timedelta(minutes=5)
    again = game_services.game_restart(game_id=game.id, player=player)
    play_line(game=again, player=player, line=challenge.proof_line)
    hold.closed(game)
    completion = Completion.objects.get(player=player, challenge=challenge)
    assert (completion.game_id, completion.completed_at) == (again.id, again.goal_met_at)
    hold.release(game)
    completion = Completion.objects.get(player=player, challenge=challenge)
    assert (completion.game_id, completion.completed_at) == (game.id, game.goal_met_at)


def _stored_challenge(day: date, variant: str, difficulty: int) -> Challenge:
    return Challenge.objects.create(
        date=day,
        variant=variant,
        difficulty=difficulty,
        rules_version=1,
        seed=f"stored-{day}-{variant}-{difficulty}",
        goal={"kind": "win"},
        proof_line=[],
        line_length=100,
        solver_nodes=1,
        solve_ms=1,
    )


def test_a_monthly_badge_not_awarded_yet_waits_for_the_held_star(
    make_challenge,
    player,
    clock,
    hold,
):
    """29 stars from other challenges, and the 30th (Bronze) from a game that met its
    goal while the badge task was not run (a broker down): the catch-up awards no
    Bronze while the game is held, and the release awards it."""
    for day in (date(2026, 12, 1), DAY, date(2026, 12, 3)):
        for variant in ("klondike", "kingsley", "spiderette"):
            _stored_challenge(day, variant, Challenge.Difficulty.HARD)
    for challenge in Challenge.objects.filter(difficulty=Challenge.Difficulty.HARD):
        Completion.objects.create(
            challenge=challenge, player=player, stars=3, month=MONTH, completed_at=clock.now
        )
    medium = _stored_challenge(date(2026, 12, 1), "spike", Challenge.Difficulty.MEDIUM)
    Completion.objects.create(
        challenge=medium, player=player, stars=2, month=MONTH, completed_at=clock.now
    )
    challenge = make_challenge(variant="steps", difficulty=Challenge.Difficulty.EASY)
    game = challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    play_line(game=game, player=player, line=challenge.proof_line)  # its on-commit never runs
    with hold.closing(), committed():
        finish(game)
    hold.closed(game)
    challenge_months_catch_up(today=DAY)
    assert not Award.objects.filter(player=player, code="challenges-bronze").exists()
    assert challenge_selectors.month_facts(player_id=player.pk, month=MONTH).stars == 29
    hold.release(game)
    bronze = Award.objects.get(player=player, code="challenges-bronze")
    assert bronze.game_id == game.id


def names(page):
    return [row.username for row in page.rows]


def period_names(variant, period):
    table = selectors.period_leaderboard(variant=variant, period=period, today=today_utc())
    return [best.player.username for best in table.page.object_list]


def test_a_held_daily_result_leaves_every_board_and_figure_and_comes_back(source, player, hold):
    deal = deal_of("klondike")
    insert_results(deal, [Figures(score=-20), Figures(score=-40)])
    if source == "redis":
        leaderboard_services.leaderboard_rebuild(deal_id=deal.id)
    with hold.closing(), committed():
        game = finished_game(player, moves=12, deal=deal)
    hold.closed(game)
    leaderboard_services.period_rankings_compute_all(today=today_utc())

    page = selectors.leaderboard_for_deal(deal=deal, viewer=player)
    assert (page.source, page.total, page.viewer_row) == (source, 2, None)
    assert player.username not in names(page)
    assert selectors.player_rank(deal=deal, player=player) is None
    assert player.username not in period_names("klondike", "week")
    assert player.username not in period_names("klondike", "all")
    if source == "redis":
        assert redis_ranks.size(deal.id) == 2
        assert redis_ranks.rank_of(deal.id, player.pk) is None
    assert game_stats_for_player(player=player).played == 0
    assert selectors.daily_streak(player=player, today=today_utc()) == 0

    hold.release(game)
    page = selectors.leaderboard_for_deal(deal=deal, viewer=player)
    assert (page.source, page.total) == (source, 3)
    assert names(page)[0] == player.username
    assert selectors.player_rank(deal=deal, player=player) == 1
    assert period_names("klondike", "week")[0] == player.username
    assert period_names("klondike", "all")[0] == player.username
    if source == "redis":
        assert redis_ranks.size(deal.id) == 3
        assert redis_ranks.rank_of(deal.id, player.pk)[0] == 1
    assert game_stats_for_player(player=player).played == 1
    assert selectors.daily_streak(player=player, today=today_utc()) == 1


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ann", "ben")]


def test_a_match_with_a_held_game_is_off_the_ratings_until_it_is_cleared(players, hold):
    ann, ben = players
    match = sprint(ann, ben)
    anns, bens = games_of(match)
    with committed():
        finish(bens)
    with hold.closing(), committed():
        finish(anns)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    hold.closed(anns)
    match.refresh_from_db()
    assert match.held
    assert not Rating.objects.filter(mode="steps_sprint").exists()
    hold.release(anns)
    match.refresh_from_db()
    assert not match.held
    assert set(Rating.objects.filter(mode="steps_sprint").values_list("player", flat=True)) == {
        ann.pk,
        ben.pk,
    }


def test_a_held_codex_win_counts_nowhere_and_the_title_moves_at_once(player, hold):
    scenario = codex_scenarios()[0]
    game = scenario_play(player=player, key=scenario.key)
    with hold.closing(), committed():
        for move in scenario_certify(scenario).moves:
            game.refresh_from_db()
            game_services.game_move_play(
                game_id=game.id, player=player, move=move, revision=game.revision
            )
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    if hold.kind == "voided":
        assert master_architect_reign().username == player.username
    hold.closed(game)
    assert master_architect_reign() is None
    assert codex_campaign(player=player).won == 0
    assert scenario_leaderboard(key=scenario.key, page=1, viewer=player).rows == []
    hold.release(game)
    assert master_architect_reign().username == player.username
    assert codex_campaign(player=player).won == 1
    assert names(scenario_leaderboard(key=scenario.key, page=1, viewer=player)) == ["alice"]
