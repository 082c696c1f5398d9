"""Today's daily deals with the player's entry on each, and playing one."""

import json

import pytest
from django.test import Client

from games.models import Game
from leaderboards import services
from leaderboards.models import DailyDeal
from leaderboards.periods import today_utc
from tests.api.conftest import error_codes
from tests.api.test_games import STATE_FIELDS
from tests.leaderboards.helpers import deal_of, play_daily_and_finish, start_daily

pytestmark = pytest.mark.django_db

ENTRY_FIELDS = {"variant", "name", "attempts", "rank", "ranked_game", "certificate"}
CERTIFICATE_FIELDS = {"certified", "par", "difficulty", "difficulty_word", "replay_open"}


def seeds_absent(response) -> None:
    text = response.content.decode()
    for deal in DailyDeal.objects.all():
        assert deal.seed not in text
    assert "seed" not in text


class TestToday:
    def test_lists_todays_deals_before_any_play(self, api):
        response = api.get("/api/v1/daily")
        assert response.status_code == 200
        body = response.json()
        assert set(body) == {"day", "deals", "streak", "seconds_to_next"}
        assert body["day"] == today_utc().isoformat()
        assert body["streak"] == 0
        assert 0 < body["seconds_to_next"] <= 86_400
        assert [entry["variant"] for entry in body["deals"]] == services.daily_deal_games()
        klondike = next(entry for entry in body["deals"] if entry["variant"] == "klondike")
        assert klondike == {
            "variant": "klondike",
            "name": "Klondike",
            "attempts": 0,
            "rank": None,
            "ranked_game": None,
            "certificate": {
                "certified": False,
                "par": None,
                "difficulty": None,
                "difficulty_word": None,
                "replay_open": False,
            },
        }
        assert DailyDeal.objects.filter(date=today_utc()).count() == len(body["deals"])
        seeds_absent(response)

    def test_shows_the_ranked_game_its_rank_attempts_and_streak(self, api, player):
        deal = deal_of("klondike")
        DailyDeal.objects.filter(pk=deal.pk).update(
            verdict=DailyDeal.Verdict.WON, par=97, difficulty=3
        )
        ranked = play_daily_and_finish(player, deal)
        start_daily(player, deal)
        response = api.get("/api/v1/daily")
        body = response.json()
        klondike = next(entry for entry in body["deals"] if entry["variant"] == "klondike")
        assert set(klondike) == ENTRY_FIELDS
        assert klondike["attempts"] == 2
        assert klondike["rank"] == 1
        assert klondike["ranked_game"] == {
            "id": str(ranked.id),
            "state": "finished",
            "final_score": ranked.final_score,
            "review": None,
        }
        assert set(klondike["certificate"]) == CERTIFICATE_FIELDS
        assert klondike["certificate"]["certified"] is True
        assert klondike["certificate"]["par"] == 97
        assert klondike["certificate"]["difficulty"] == 3
        assert klondike["certificate"]["replay_open"] is False
        assert body["streak"] == 1
        seeds_absent(response)

    def test_a_browser_session_reads_it(self, player_client):
        response = player_client.get("/api/v1/daily")
        assert response.status_code == 200
        assert response.json()["streak"] == 0

    def test_no_credentials_is_401_and_deals_nothing(self, anonymous_api):
        response = anonymous_api.get("/api/v1/daily")
        assert response.status_code == 401
        assert error_codes(response) == ["not_authenticated"]
        assert not DailyDeal.objects.exists()


class TestPlay:
    def test_deals_the_ranked_attempt_then_resumes_it(self, api, player):
        response = api.post("/api/v1/daily/klondike/play")
        assert response.status_code == 201
        state = response.json()
        assert set(state) == STATE_FIELDS
        assert state["track"] == "daily"
        assert state["is_ranked"] is True
        assert state["is_active"] is True
        game = Game.objects.get(player=player)
        assert state["id"] == str(game.id)
        assert game.track_ref == deal_of("klondike").track_ref
        seeds_absent(response)

        again = api.post("/api/v1/daily/klondike/play")
        assert again.status_code == 201
        assert again.json()["id"] == state["id"]
        assert Game.objects.filter(player=player).count() == 1

    def test_a_later_attempt_is_practice(self, api, player):
        play_daily_and_finish(player, deal_of("spike"))
        response = api.post("/api/v1/daily/spike/play")
        assert response.status_code == 201
        assert response.json()["is_ranked"] is False
        assert Game.objects.filter(player=player).count() == 2

    def test_a_browser_session_plays(self, player_client, player):
        response = player_client.post("/api/v1/daily/steps/play", content_type="application/json")
        assert response.status_code == 201
        assert Game.objects.get(player=player).variant == "steps"

    @pytest.mark.parametrize("variant", ["freecell", "no-such-game"])
    def test_a_game_without_a_daily_deal_is_404(self, api, player, variant):
        response = api.post(f"/api/v1/daily/{variant}/play")
        assert response.status_code == 404
        assert error_codes(response) == ["not_found"]
        assert not Game.objects.exists()

    def test_no_credentials_is_401_and_plays_nothing(self, anonymous_api):
        response = anonymous_api.post("/api/v1/daily/klondike/play")
        assert response.status_code == 401
        assert error_codes(response) == ["not_authenticated"]
        assert not Game.objects.exists()

    def test_a_browser_session_without_its_csrf_token_is_refused(self, player):
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(player)
        response = browser.post(
            "/api/v1/daily/klondike/play", json.dumps({}), content_type="application/json"
        )
        assert response.status_code == 403
        assert error_codes(response) == ["csrf_failed"]
        assert not Game.objects.exists()
