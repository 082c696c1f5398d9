"""A daily deal's leaderboard and the weekly and all-time tables: public, paged in
the API's one envelope, with the viewer's own row wherever it is."""

from datetime import timedelta

import pytest

from leaderboards.models import DailyDeal, PeriodBest
from leaderboards.periods import period_start, today_utc
from tests.api.conftest import ApiClient, error_codes
from tests.leaderboards.helpers import Figures, deal_of, insert_results

pytestmark = pytest.mark.django_db

ROW_FIELDS = {"rank", "username", "won", "score", "elapsed_seconds", "move_count", "is_viewer"}
ENVELOPE = {"count", "page", "num_pages", "next", "previous", "results", "viewer_row"}


def deal_path(deal: DailyDeal) -> str:
    return f"/api/v1/daily/{deal.date.isoformat()}/{deal.variant}/leaderboard"


def ranked_field(count: int, *, player=None) -> DailyDeal:
    """Today's Klondike deal with `count` results, scores count..1 (and the player's
    result last of all, when given)."""
    deal = deal_of("klondike")
    insert_results(deal, [Figures(won=True, score=1000 + n) for n in range(count, 0, -1)])
    if player is not None:
        insert_results(deal, [Figures(score=5, elapsed_ms=90_500, move_count=88)], players=[player])
    return deal


class TestDealLeaderboard:
    def test_a_visitor_sees_the_rows_and_the_deal_without_its_seed(self, anonymous_api):
        deal = ranked_field(2)
        DailyDeal.objects.filter(pk=deal.pk).update(
            verdict=DailyDeal.Verdict.WON, par=97, difficulty=2
        )
        response = anonymous_api.get(deal_path(deal))
        assert response.status_code == 200
        body = response.json()
        assert set(body) == ENVELOPE | {"day", "variant", "name", "certificate"}
        assert body["count"] == 2
        assert body["page"] == 1
        assert body["num_pages"] == 1
        assert body["next"] is None
        assert body["previous"] is None
        assert body["viewer_row"] is None
        assert body["day"] == deal.date.isoformat()
        assert body["variant"] == "klondike"
        assert body["name"] == "Klondike"
        assert body["certificate"] == {
            "certified": True,
            "par": 97,
            "difficulty": 2,
            "difficulty_word": body["certificate"]["difficulty_word"],
            "replay_open": False,
        }
        assert isinstance(body["certificate"]["difficulty_word"], str)
        assert body["results"][0] == {
            "rank": 1,
            "username": "p0000",
            "won": True,
            "score": 1002,
            "elapsed_seconds": 60,
            "move_count": 100,
            "is_viewer": False,
        }
        assert [row["rank"] for row in body["results"]] == [1, 2]
        assert deal.seed not in response.content.decode()
        assert "seed" not in response.content.decode()

    def test_pages_link_to_their_neighbours(self, anonymous_api):
        deal = ranked_field(120)
        path = deal_path(deal)
        first = anonymous_api.get(path).json()
        assert (first["count"], first["page"], first["num_pages"]) == (120, 1, 3)
        assert first["previous"] is None
        assert first["next"] == f"http://testserver{path}?page=2"
        assert len(first["results"]) == 50
        second = anonymous_api.get(path, page=2).json()
        assert second["previous"] == f"http://testserver{path}"
        assert second["next"] == f"http://testserver{path}?page=3"
        assert second["results"][0]["rank"] == 51
        last = anonymous_api.get(path, page=3).json()
        assert last["previous"] == f"http://testserver{path}?page=2"
        assert last["next"] is None
        assert [row["rank"] for row in last["results"]] == list(range(101, 121))
        beyond = anonymous_api.get(path, page=9).json()
        assert beyond["page"] == 3

    def test_the_viewer_row_is_there_also_off_the_page(self, api, player):
        deal = ranked_field(60, player=player)
        body = api.get(deal_path(deal)).json()
        assert not any(row["is_viewer"] for row in body["results"])
        assert body["viewer_row"] == {
            "rank": 61,
            "username": "alice",
            "won": False,
            "score": 5,
            "elapsed_seconds": 90,
            "move_count": 88,
            "is_viewer": True,
        }
        on_page = api.get(deal_path(deal), page=2).json()
        assert on_page["results"][-1] == on_page["viewer_row"]

    def test_a_browser_session_has_its_viewer_row(self, player_client, player):
        deal = ranked_field(1, player=player)
        body = player_client.get(deal_path(deal)).json()
        assert body["viewer_row"]["username"] == "alice"
        assert body["results"][1]["is_viewer"] is True

    def test_a_viewer_without_a_result_has_none(self, api):
        body = api.get(deal_path(ranked_field(3))).json()
        assert body["viewer_row"] is None

    def test_todays_deals_are_dealt_where_no_task_made_them(self, anonymous_api):
        today = today_utc().isoformat()
        response = anonymous_api.get(f"/api/v1/daily/{today}/spike/leaderboard")
        assert response.status_code == 200
        assert response.json()["count"] == 0
        assert DailyDeal.objects.filter(date=today_utc(), variant="spike").exists()

    @pytest.mark.parametrize(
        "path",
        [
            "{tomorrow}/klondike",
            "{yesterday}/klondike",
            "{today}/freecell",
            "2025-13-01/klondike",
            "yesterday/klondike",
        ],
    )
    def test_a_deal_that_is_not_is_404(self, anonymous_api, path):
        today = today_utc()
        day_path = path.format(
            today=today, tomorrow=today + timedelta(days=1), yesterday=today - timedelta(days=1)
        )
        response = anonymous_api.get(f"/api/v1/daily/{day_path}/leaderboard")
        assert response.status_code == 404
        assert error_codes(response) == ["not_found"]
        assert not DailyDeal.objects.exclude(date=today).exists()

    def test_a_past_deal_is_found(self, anonymous_api):
        deal = deal_of("klondike", today_utc() - timedelta(days=3))
        response = anonymous_api.get(deal_path(deal))
        assert response.status_code == 200
        assert response.json()["day"] == deal.date.isoformat()

    def test_a_dead_token_is_401_even_here(self):
        deal = ranked_field(1)
        response = ApiClient(token="no-such-session").get(deal_path(deal))
        assert response.status_code == 401
        assert error_codes(response) == ["invalid_session_token"]


class TestPeriodLeaderboard:
    def test_this_weeks_table_by_default(self, anonymous_api):
        ranked_field(2)
        response = anonymous_api.get("/api/v1/leaderboards/klondike")
        assert response.status_code == 200
        body = response.json()
        assert set(body) == ENVELOPE | {"variant", "name", "period", "period_start"}
        assert body["period"] == "week"
        assert body["period_start"] == period_start("week", today_utc()).isoformat()
        assert (body["variant"], body["name"]) == ("klondike", "Klondike")
        assert (body["count"], body["page"], body["num_pages"]) == (2, 1, 1)
        assert (body["next"], body["previous"], body["viewer_row"]) == (None, None, None)
        assert body["results"] == [
            {
                "rank": 1,
                "username": "p0000",
                "won": True,
                "score": 1002,
                "elapsed_seconds": 60,
                "move_count": 100,
                "is_viewer": False,
            },
            {
                "rank": 2,
                "username": "p0001",
                "won": True,
                "score": 1001,
                "elapsed_seconds": 60,
                "move_count": 100,
                "is_viewer": False,
            },
        ]

    def test_the_all_time_table(self, anonymous_api):
        ranked_field(1)
        body = anonymous_api.get("/api/v1/leaderboards/klondike", period="all").json()
        assert body["period"] == "all"
        assert body["period_start"] == "2000-01-01"
        assert body["count"] == 1
        assert PeriodBest.objects.filter(period="all").count() == 1

    def test_pages_and_the_viewer_row_off_the_page(self, api, player):
        ranked_field(55, player=player)
        path = "/api/v1/leaderboards/klondike"
        first = api.get(path).json()
        assert (first["count"], first["num_pages"]) == (56, 2)
        assert first["next"] == f"http://testserver{path}?page=2"
        assert first["previous"] is None
        assert not any(row["is_viewer"] for row in first["results"])
        assert first["viewer_row"] == {
            "rank": 56,
            "username": "alice",
            "won": False,
            "score": 5,
            "elapsed_seconds": 90,
            "move_count": 88,
            "is_viewer": True,
        }
        second = api.get(path, page=2, period="week").json()
        assert second["previous"] == f"http://testserver{path}?period=week"
        assert second["next"] is None
        assert second["results"][-1] == first["viewer_row"]

    def test_with_a_worker_the_read_leaves_the_table_to_beat(self, anonymous_api, settings):
        settings.CELERY_TASK_ALWAYS_EAGER = False
        ranked_field(2)
        body = anonymous_api.get("/api/v1/leaderboards/klondike").json()
        assert body["count"] == 0
        assert not PeriodBest.objects.exists()

    def test_an_unknown_period_is_malformed(self, anonymous_api):
        ranked_field(1)
        response = anonymous_api.get("/api/v1/leaderboards/klondike", period="month")
        assert response.status_code == 400
        assert response.json()["errors"][0]["code"] == "malformed"
        assert response.json()["errors"][0]["param"] == "period"
        assert not PeriodBest.objects.exists()

    def test_a_game_without_a_daily_deal_is_404(self, anonymous_api):
        response = anonymous_api.get("/api/v1/leaderboards/freecell")
        assert response.status_code == 404
        assert error_codes(response) == ["not_found"]
