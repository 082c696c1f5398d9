"""A player's profile: statistics, badges, this month's challenge stars, the Codex
campaign and the Master Architect reigns for everyone when public, for the owner alone
when private (others get the name and nothing else)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import profile_update
from achievements.models import Award
from challenges.selectors import month_of
from codex.selectors import codex_campaign, player_reigns
from codex.services import master_architect_update
from games.models import Game
from games.services import game_start
from games.specs import game_keys
from leaderboards.periods import today_utc
from players.selectors import player_challenge_month
from tests.achievements.test_challenge_badges import earn
from tests.api.conftest import ApiClient, error_codes
from tests.codex.test_codex import tier, won_row

pytestmark = pytest.mark.django_db

PRIVATE_FIELDS = {"username", "is_owner", "is_public", "stats_visible"}
VISIBLE_FIELDS = {
    "member_since",
    "stats",
    "overall",
    "badges",
    "challenges",
    "codex",
    "master_architect_reigns",
}
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
    assert set(body) == PRIVATE_FIELDS | VISIBLE_FIELDS
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


@pytest.fixture
def alice_in_the_challenges_and_the_codex(player, make_user):
    """42 stars this month, two scenarios won (ledgers 640 and 200), and two reigns as
    Master Architect: one that bob ended, and the one she holds again."""
    earn(player, month_of(today_utc()), 42)
    first, second = tier(1)[:2]
    won_row(player, first, score=640)
    master_architect_update()
    won_row(make_user("bob"), first, score=700)
    master_architect_update()
    won_row(player, second, score=200)
    master_architect_update()
    return player


def test_the_profile_shows_the_challenge_month_the_campaign_and_the_reigns(
    anonymous_api, alice_in_the_challenges_and_the_codex
):
    player = alice_in_the_challenges_and_the_codex
    response = anonymous_api.get("/api/v1/players/alice")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == PRIVATE_FIELDS | VISIBLE_FIELDS
    month = player_challenge_month(player=player, today=today_utc())
    assert body["challenges"] == {
        "month": f"{today_utc():%Y-%m}",
        "stars": 42,
        "next_badge": {"code": "challenges-silver", "title": "Silver challenger", "stars": 120},
        "to_go": 78,
    }
    assert (month.stars, month.to_go) == (42, 78)
    campaign = codex_campaign(player=player)
    codex = body["codex"]
    assert {key: codex[key] for key in codex if key != "tiers"} == {
        "won": 2,
        "scenarios": 20,
        "stars": campaign.stars,
        "max_stars": 60,
        "ledger": 840,
    }
    assert codex["tiers"] == [
        {
            "tier": entry.tier,
            "name": entry.name,
            "unlocked": entry.unlocked,
            "won": entry.won,
            "scenarios": 5,
        }
        for entry in campaign.tiers
    ]
    assert [(t["won"], t["unlocked"]) for t in codex["tiers"]] == [
        (2, True),
        (0, False),
        (0, False),
        (0, False),
    ]
    reigns = player_reigns(player_id=player.pk)
    shown = body["master_architect_reigns"]
    assert [(reign["ledger"], reign["ended_at"] is None) for reign in shown] == [
        (840, True),
        (640, False),
    ]
    assert shown[0]["started_at"] == reigns[0].started_at.isoformat().replace("+00:00", "Z")
    assert shown[1]["ended_at"] == reigns[1].ended_at.isoformat().replace("+00:00", "Z")


def test_a_new_player_has_bronze_ahead_no_campaign_and_no_reign(anonymous_api, player):
    body = anonymous_api.get("/api/v1/players/alice").json()
    assert body["challenges"]["stars"] == 0
    assert body["challenges"]["next_badge"]["code"] == "challenges-bronze"
    assert body["challenges"]["to_go"] == 30
    assert (body["codex"]["won"], body["codex"]["stars"], body["codex"]["ledger"]) == (0, 0, 0)
    assert body["master_architect_reigns"] == []


def test_once_gold_is_reached_no_star_badge_is_left_to_go_for(anonymous_api, player):
    earn(player, month_of(today_utc()), 300)
    challenges = anonymous_api.get("/api/v1/players/alice").json()["challenges"]
    assert (challenges["stars"], challenges["next_badge"], challenges["to_go"]) == (300, None, 0)


def test_a_private_profile_shows_others_nothing_of_the_challenges_or_the_codex(
    alice_in_the_challenges_and_the_codex, make_user
):
    private(alice_in_the_challenges_and_the_codex)
    make_user("carol")
    carol = ApiClient()
    assert carol.log_in("carol").status_code == 200
    for viewer in (carol, ApiClient()):
        assert viewer.get("/api/v1/players/alice").json() == {
            "username": "alice",
            "is_owner": False,
            "is_public": False,
            "stats_visible": False,
        }


def test_the_owner_sees_their_private_challenges_and_codex(
    api, alice_in_the_challenges_and_the_codex
):
    private(alice_in_the_challenges_and_the_codex)
    body = api.get("/api/v1/players/alice").json()
    assert set(body) == PRIVATE_FIELDS | VISIBLE_FIELDS
    assert body["challenges"]["stars"] == 42
    assert body["codex"]["ledger"] == 840
    assert len(body["master_architect_reigns"]) == 2


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
