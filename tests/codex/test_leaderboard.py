"""A Codex scenario's all-time leaderboard: each player's best game by the rule
"won_score_time_moves", what it holds off, its paging and its page."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse

from codex.leaderboard import PAGE_SIZE, scenario_leaderboard
from codex.services import scenario_play
from games.codex import codex_scenarios, scenario_certify
from games.models import Game
from games.services import game_move_play
from tests.challenges.pages import page as parse

pytestmark = pytest.mark.django_db

FIRST, SECOND = codex_scenarios()[:2]
NOON = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def closed(
    player,
    *,
    status=Game.Status.LOST,
    score=100,
    seconds=60,
    moves=50,
    hints=0,
    at=NOON,
    scenario=FIRST,
    review_hold="",
):
    """A game of the scenario dealt by Play, then stored closed with these figures."""
    game = scenario_play(player=player, key=scenario.key)
    Game.objects.filter(id=game.id).update(
        status=status,
        final_score=score,
        elapsed_ms=seconds * 1000 + 400,
        move_count=moves,
        hints_used=hints,
        finished_at=at,
        review_hold=review_hold,
    )
    return game


def board(viewer=None, page=1, key=FIRST.key):
    return scenario_leaderboard(key=key, page=page, viewer=viewer)


def standings(viewer=None):
    return [(row.rank, row.username) for row in board(viewer).rows]


def test_a_win_beats_a_higher_ledger_then_ledger_then_time_then_moves(make_user) -> None:
    loser, winner, richer, faster, shorter, hinted = (
        make_user(name) for name in ("loser", "winner", "richer", "faster", "shorter", "hinted")
    )
    closed(loser, status=Game.Status.LOST, score=900)
    closed(winner, status=Game.Status.WON, score=300, seconds=90, moves=60)
    closed(richer, status=Game.Status.WON, score=400, seconds=200, moves=90)
    closed(faster, status=Game.Status.WON, score=300, seconds=80, moves=70)
    closed(shorter, status=Game.Status.WON, score=300, seconds=90, moves=55)
    closed(hinted, status=Game.Status.WON, score=990, hints=1)
    assert standings() == [
        (1, "richer"),
        (2, "faster"),
        (3, "shorter"),
        (4, "winner"),
        (5, "loser"),
        # A hint ranks a game after every game played without one, a loss included.
        (6, "hinted"),
    ]


def test_a_player_has_one_row_their_best_and_the_earlier_of_equal_bests(make_user) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    closed(alice, status=Game.Status.WON, score=200, at=NOON)
    closed(alice, status=Game.Status.WON, score=500, at=NOON + timedelta(hours=1))
    closed(alice, status=Game.Status.FINISHED, score=800, at=NOON + timedelta(hours=2))
    closed(bob, status=Game.Status.WON, score=300, at=NOON + timedelta(hours=3))
    closed(bob, status=Game.Status.WON, score=300, at=NOON + timedelta(hours=1))
    rows = board().rows
    assert [(row.username, row.won, row.score) for row in rows] == [
        ("alice", True, 500),
        ("bob", True, 300),
    ]
    assert rows[1].finished_at == NOON + timedelta(hours=1)


def test_equal_keys_share_a_rank_and_the_next_counts_every_player(make_user) -> None:
    ann, bob, cat, dan = (make_user(name) for name in ("ann", "bob", "cat", "dan"))
    closed(bob, status=Game.Status.WON, score=300, at=NOON + timedelta(hours=1))
    closed(ann, status=Game.Status.WON, score=300, at=NOON + timedelta(hours=2))
    # Times rank by the second: 60.4 s and 60 s are the same time.
    closed(cat, status=Game.Status.WON, score=300, at=NOON + timedelta(hours=3))
    Game.objects.filter(player=cat).update(elapsed_ms=60_000)
    closed(dan, status=Game.Status.WON, score=299)
    # Between equal keys the earlier finish is listed first.
    assert standings() == [(1, "bob"), (1, "ann"), (1, "cat"), (4, "dan")]


def test_games_held_off_in_progress_abandoned_or_of_another_scenario_are_not_ranked(
    make_user,
) -> None:
    ranked, held, playing, left, elsewhere = (
        make_user(name) for name in ("ranked", "held", "playing", "left", "elsewhere")
    )
    closed(ranked, status=Game.Status.LOST, score=10)
    closed(held, status=Game.Status.WON, score=900, review_hold=Game.ReviewHold.HELD)
    scenario_play(player=playing, key=FIRST.key)
    closed(left, status=Game.Status.ABANDONED, score=900)
    closed(elsewhere, status=Game.Status.WON, score=900, scenario=SECOND)
    assert standings() == [(1, "ranked")]
    assert [row.username for row in board(key=SECOND.key).rows] == ["elsewhere"]


def test_a_won_game_ranks_with_its_final_score(player) -> None:
    game = scenario_play(player=player, key=FIRST.key)
    for move in scenario_certify(FIRST).moves:
        game.refresh_from_db()
        game_move_play(game_id=game.id, player=player, move=move, revision=game.revision)
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    (row,) = board(player).rows
    assert (row.rank, row.won, row.score, row.move_count) == (
        1,
        True,
        game.final_score,
        game.move_count,
    )
    assert row.is_viewer


def test_the_board_pages_by_fifty_and_finds_the_viewer_off_the_page(make_user) -> None:
    players = [make_user(f"p{index:02}") for index in range(PAGE_SIZE + 1)]
    for index, someone in enumerate(players):
        closed(someone, status=Game.Status.WON, score=1000 - index)
    viewer = players[-1]
    first = board(viewer)
    assert (first.total, first.num_pages, len(first.rows)) == (51, 2, 50)
    assert not first.viewer_on_page
    assert first.viewer_row is not None
    assert (first.viewer_row.rank, first.viewer_row.username) == (51, "p50")
    second = board(viewer, page=2)
    assert [(row.rank, row.username, row.is_viewer) for row in second.rows] == [(51, "p50", True)]
    assert board(viewer, page=9).number == 2


def url(key=FIRST.key):
    return reverse("codex:leaderboard", kwargs={"key": key})


def test_the_page_shows_a_visitor_the_figures_and_no_seed(make_user) -> None:
    closed(make_user("alice"), status=Game.Status.WON, score=1240, seconds=125, moves=133)
    response = Client().get(url())
    assert response.status_code == 200
    html = response.content.decode()
    assert FIRST.name in html
    assert FIRST.seed not in html
    rows = [[td.text for td in tr.select("td")] for tr in parse(html).select("#ranks tbody tr")]
    assert rows == [["1", "alice", "Won", "1240", "133", "2:05"]]
    assert parse(html).select_one("tr.me") is None


def test_the_viewers_row_is_highlighted_and_given_below_when_off_the_page(make_user) -> None:
    players = [make_user(f"p{index:02}") for index in range(PAGE_SIZE + 1)]
    for index, someone in enumerate(players):
        closed(someone, status=Game.Status.LOST, score=1000 - index, moves=40)
    client = Client()
    client.force_login(players[-1])
    first = parse(client.get(url()).content)
    assert len(first.select("#ranks tbody tr")) == 50
    assert first.select_one("tr.me") is None
    assert first.select_one("#your-rank").text == (
        "Your place: #51, not won with a ledger of 950 in 40 moves and 1:00."
    )
    second = client.get(url(), {"page": "2"}, HTTP_HX_REQUEST="true").content.decode()
    assert second.strip().startswith('<div id="ranks"')
    assert "<h1>" not in second
    last = parse(second)
    mine = last.select_one("tr.me")
    assert mine["aria-current"] == "true"
    assert [td.text for td in mine.select("td")][:2] == ["51", "p50"]
    assert last.select_one("#your-rank") is None
    assert Client().get(url(), {"page": "x"}).status_code == 200


def test_an_unknown_scenario_is_a_404() -> None:
    assert Client().get(url("no-such-scenario")).status_code == 404


def test_the_codex_page_links_every_scenarios_leaderboard(client) -> None:
    html = client.get(reverse("codex:home")).content.decode()
    for scenario in codex_scenarios():
        assert f'href="{url(scenario.key)}"' in html


def test_the_page_reads_the_board_in_one_query(make_user, django_assert_num_queries) -> None:
    for index in range(5):
        closed(make_user(f"p{index}"), status=Game.Status.WON, score=100 + index)
    with django_assert_num_queries(1):
        Client().get(url())
    client = Client()
    client.force_login(make_user("viewer"))
    with django_assert_num_queries(3):  # the session, the viewer, the board
        client.get(url())
