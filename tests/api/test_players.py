"""A player's profile: statistics and badges for everyone when public, for the
owner alone when private (others get the name and nothing else)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import profile_update
from achievements.models import Award
from games.models import Game
from games.services import game_start
from games.specs import game_keys
from tests.api.conftest import ApiClient, error_codes

pytestmark = pytest.mark.django_db

PRIVATE_FIELDS = {"username", "is_owner", "is_public", "stats_visible"}
ROW_FIELDS = {
    "key",
    "name",
    "played",
    "won",
    "win_rate",
    "best_score",
    "fastest_win_seconds",
    "total_moves",
    "current_win_streak",
    "longest_win_streak",
}


@pytest.fixture
def alice_with_a_win_and_badges(player):
    """A won Klondike game (score 512, 2:05, 93 moves) and Spike's Silver Summit twice."""
    won = game_start(player=player, variant="klondike")
    finished_at = timezone.now()
    Game.objects.filter(pk=won.pk).update(
        status=Game.Status.WON,
        score=512,
        final_score=512,
        elapsed_ms=125_900,
        move_count=93,
        finished_at=finished_at,
    )
    # The games that earned them are left out: their figures would join the statistics.
    for days_ago in (2, 0):
        Award.objects.create(
            player=player,
            code="spike-summit-silver",
            repeatable=True,
            game=None,
            earned_at=finished_at - timedelta(days=days_ago),
        )
    return player


def private(player) -> None:
    profile_update(user=player, public=False, highlight_moves=False, reduced_motion=False)


def test_a_public_profile_shows_its_statistics_and_badges(
    anonymous_api, alice_with_a_win_and_badges
):
    player = alice_with_a_win_and_badges
    response = anonymous_api.get("/api/v1/players/alice")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == PRIVATE_FIELDS | {"member_since", "stats", "overall", "badges"}
    assert body["username"] == "alice"
    assert (body["is_owner"], body["is_public"], body["stats_visible"]) == (False, True, True)
    assert body["member_since"] == player.date_joined.isoformat().replace("+00:00", "Z")
    assert [row["key"] for row in body["stats"]] == list(game_keys())
    klondike = body["stats"][list(game_keys()).index("klondike")]
    assert klondike == {
        "key": "klondike",
        "name": "Klondike",
        "played": 1,
        "won": 1,
        "win_rate": 1.0,
        "best_score": 512,
        "fastest_win_seconds": 125,
        "total_moves": 93,
        "current_win_streak": 1,
        "longest_win_streak": 1,
    }
    assert set(body["overall"]) == ROW_FIELDS
    assert (body["overall"]["key"], body["overall"]["played"]) == ("overall", 1)
    (badge,) = body["badges"]
    assert set(badge) == {
        "code",
        "title",
        "description",
        "game",
        "icon",
        "repeatable",
        "count",
        "first_earned_at",
        "last_earned_at",
    }
    assert (badge["code"], badge["title"], badge["game"]) == (
        "spike-summit-silver",
        "Silver Summit",
        "spike",
    )
    assert (badge["count"], badge["repeatable"], badge["icon"]) == (2, True, "summit-silver")
    assert badge["first_earned_at"] < badge["last_earned_at"]


def test_a_private_profile_shows_others_the_name_and_nothing_else(
    alice_with_a_win_and_badges, make_user
):
    private(alice_with_a_win_and_badges)
    make_user("bob")
    bob = ApiClient()
    assert bob.log_in("bob").status_code == 200
    for viewer in (bob, ApiClient()):
        response = viewer.get("/api/v1/players/alice")
        assert response.status_code == 200
        assert response.json() == {
            "username": "alice",
            "is_owner": False,
            "is_public": False,
            "stats_visible": False,
        }


def test_the_owner_sees_their_private_profile_whole(api, alice_with_a_win_and_badges):
    private(alice_with_a_win_and_badges)
    body = api.get("/api/v1/players/alice").json()
    assert (body["is_owner"], body["is_public"], body["stats_visible"]) == (True, False, True)
    assert body["overall"]["won"] == 1
    assert [badge["code"] for badge in body["badges"]] == ["spike-summit-silver"]


def test_a_browser_session_is_the_owner(player_client, player):
    private(player)
    body = player_client.get("/api/v1/players/alice").json()
    assert (body["is_owner"], body["stats_visible"]) == (True, True)
    assert body["badges"] == []


def test_a_name_in_another_case_answers_with_the_players_own(anonymous_api, make_user):
    make_user("Alice_B")
    response = anonymous_api.get("/api/v1/players/alice_b")
    assert response.status_code == 200
    assert response.json()["username"] == "Alice_B"


def test_an_unknown_player_is_404(anonymous_api, player):
    response = anonymous_api.get("/api/v1/players/nobody")
    assert response.status_code == 404
    assert error_codes(response) == ["not_found"]


def test_a_name_no_player_can_have_is_malformed(anonymous_api, player):
    response = anonymous_api.get("/api/v1/players/al%00ice")
    assert response.status_code == 400
    assert error_codes(response) == ["malformed"]


def test_a_dead_token_is_401(player):
    response = ApiClient(token="no-such-session").get("/api/v1/players/alice")
    assert response.status_code == 401
    assert error_codes(response) == ["invalid_session_token"]
