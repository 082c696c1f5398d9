"""Exact numbers of queries of the game actions and the history page (not
maxima): a change that adds one, an N+1 or a repeated read, fails here and has
to say why.

Every request of a signed-in player reads its user (AuthenticationMiddleware) and its
session from the cache (accounts/sessions.py); a game's action reads its user with the
game's locked row instead (accounts.session_user), so an action is its transaction
alone. An action is one transaction; the tests run inside a transaction, so its atomic()
is a SAVEPOINT and a RELEASE, counted here (in production it is BEGIN and COMMIT,
which Django does not send as queries).
The counts are the same on SQLite and PostgreSQL: the lock is the same SELECT,
with FOR UPDATE on PostgreSQL only.
"""

import pytest
from django.db import connection
from django.urls import reverse

from games import services
from games.engine import format_move, get_variant
from games.models import Game
from leaderboards.periods import today_utc
from leaderboards.services import daily_deal_play, daily_deals_ensure
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
SIGNED_IN = 1  # the user (the session is read from the cache)
# SAVEPOINT, the game's locked SELECT (which brings the player's row and their
# automatic-moves and highlighting settings), its one UPDATE, RELEASE SAVEPOINT.
ACTION = 4
LOOKS = 1  # a full page (not a board partial) prints the player's looks: the profile
KLONDIKE = get_variant("klondike")


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.id})


def sql(captured) -> list[str]:
    return [query["sql"] for query in captured.captured_queries]


def assert_one_locked_read_and_one_write(
    statements: list[str], *, user_with_the_game: bool = True
) -> None:
    """`user_with_the_game`: the session's user is read by the game's locked read, in
    no query of its own (a web action; the API reads its user as DRF does)."""
    game_queries = [q for q in statements if "games_game" in q]
    assert len(game_queries) == 2
    assert game_queries[0].startswith("SELECT")
    if user_with_the_game:
        assert [q for q in statements if "auth_user" in q] == [game_queries[0]]
    if connection.vendor == "postgresql":
        # Only the game row is locked; the player and profile come with it unlocked.
        assert game_queries[0].rstrip().endswith('FOR UPDATE OF "games_game"')
    assert game_queries[1].startswith("UPDATE")


@pytest.fixture
def game(player):
    """A Klondike game (its board's highlighting setting comes with the locked read)."""
    return start_with_deck(player, load_fixture("klondike_win.json")["deck"])


def test_a_move(player_client, game, django_assert_num_queries):
    with django_assert_num_queries(ACTION) as captured:
        response = player_client.post(url("move", game), {"move": "draw", "revision": 0}, **HX)
    assert response.status_code == 200
    assert_one_locked_read_and_one_write(sql(captured))
    assert sum("accounts_profile" in q for q in sql(captured)) == 1


def test_a_move_on_a_board_that_highlights_reads_the_profile_once(
    player_client, player, django_assert_num_queries
):
    spike = get_variant("spike")
    game = start_with_deck(player, load_fixture("spike_win.json")["deck"], variant="spike")
    move = format_move(spike.legal_moves(spike.load(game.state))[0])
    # The profile comes with the locked read and serves the highlighting setting too.
    with django_assert_num_queries(ACTION) as captured:
        response = player_client.post(url("move", game), {"move": move, "revision": 0}, **HX)
    assert response.status_code == 200
    assert_one_locked_read_and_one_write(sql(captured))
    assert sum("profile" in q for q in sql(captured)) == 1


def test_an_undo(player_client, game, django_assert_num_queries):
    player_client.post(url("move", game), {"move": "draw", "revision": 0}, **HX)
    with django_assert_num_queries(ACTION) as captured:
        response = player_client.post(url("undo", game), {"revision": 1}, **HX)
    assert response.status_code == 200
    assert_one_locked_read_and_one_write(sql(captured))


def test_a_tap(player_client, game, django_assert_num_queries):
    state = KLONDIKE.load(game.state)
    place = next(p for p in ("t1", "t2", "t3", "t4", "t5", "t6", "t7") if KLONDIKE.tap(state, p))
    with django_assert_num_queries(ACTION) as captured:
        response = player_client.post(url("tap", game), {"source": place, "revision": 0}, **HX)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.move_count == 1
    assert_one_locked_read_and_one_write(sql(captured))


def test_finishing_a_casual_game(
    player_client, game, django_assert_num_queries, django_capture_on_commit_callbacks
):
    # The closed board's review label is the game's own hold (no query more).
    with (
        django_capture_on_commit_callbacks() as after_commit,
        django_assert_num_queries(ACTION) as captured,
    ):
        response = player_client.post(url("finish", game), {"revision": 0, "confirm": "on"}, **HX)
    assert response.status_code == 200
    assert_one_locked_read_and_one_write(sql(captured))
    assert not any("reviews_gamereview" in query for query in sql(captured))
    # What follows a finish (achievements, the review) runs after the commit, on a
    # worker: one dispatch, and the finish counted (core.metrics), no query of their
    # own inside the request's transaction.
    assert len(after_commit) == 2


def test_finishing_a_ranked_daily_game_writes_its_result_in_the_same_transaction(
    player_client, player, django_assert_num_queries, django_capture_on_commit_callbacks
):
    deal = next(d for d in daily_deals_ensure(day=today_utc()) if d.variant == "klondike")
    game = daily_deal_play(player=player, deal=deal)
    assert game.is_ranked
    # + the result row (the close hook's INSERT), + its histogram bucket (one upsert).
    with (
        django_capture_on_commit_callbacks() as after_commit,
        django_assert_num_queries(ACTION + 2) as captured,
    ):
        response = player_client.post(url("finish", game), {"revision": 0, "confirm": "on"}, **HX)
    assert response.status_code == 200
    statements = sql(captured)
    assert_one_locked_read_and_one_write(statements)
    insert = statements.index(next(q for q in statements if q.startswith("INSERT")))
    assert "leaderboards_result" in statements[insert]
    assert "leaderboards_scorecount" in statements[insert + 1]  # the histogram's upsert
    assert statements[insert + 2].startswith("RELEASE SAVEPOINT")  # inside the transaction
    # The publish to the live ranks, the finish counted (core.metrics), the dispatch.
    assert len(after_commit) == 3


def test_the_history_page_reads_the_same_whatever_the_number_of_games(
    player_client, player, django_assert_num_queries
):
    for _ in range(11):
        finished = services.game_start(player=player, variant="klondike")
        services.game_finish(game_id=finished.id, player=player, revision=0)
    services.game_start(player=player, variant="spike")
    # The user; the games whose clock ran out (closed first);
    # the paginator's count; the figures (one aggregate, the games held apart); the
    # page of games (each with its review hold); the player's looks.
    for page in ("1", "2"):
        with django_assert_num_queries(SIGNED_IN + 4 + LOOKS):
            response = player_client.get(reverse("games:history") + "?page=" + page)
        assert response.status_code == 200
    assert response.content.count(b"<tr>") == 3  # header + the last 2 of 12
