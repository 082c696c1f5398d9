"""The daily page, playing a daily deal, and the leaderboard pages: full pages
without JavaScript, partials for HTMX."""

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Game
from leaderboards import services
from leaderboards.models import DailyDeal, PeriodBest, Result
from leaderboards.periods import today_utc
from tests.leaderboards.helpers import Figures, deal_of, insert_results, play_daily_and_finish

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
NAMES = ["Kingsley", "Klondike", "Spiderette", "Spike", "Steps"]


def deal_url(deal, **query) -> str:
    url = reverse("leaderboards:deal", args=[deal.date.isoformat(), deal.variant])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def rows(html: bytes) -> list[list[str]]:
    """The cells of every leaderboard row, as text."""
    text = html.decode()
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", text, re.S)
        if "<td>" in row and "colspan" not in row
    ]


class TestDailyPage:
    def test_needs_a_login(self, client):
        response = client.get(reverse("leaderboards:daily"))
        assert response.status_code == 302
        assert "login" in response["Location"]

    def test_the_first_look_deals_today_once(self, player_client):
        assert not DailyDeal.objects.exists()
        player_client.get(reverse("leaderboards:daily"))
        player_client.get(reverse("leaderboards:daily"))
        assert DailyDeal.objects.filter(date=today_utc()).count() == len(NAMES)
        assert DailyDeal.objects.count() == len(NAMES)

    def test_lists_todays_deals_with_countdown_streak_and_calendar(self, player_client):
        page = player_client.get(reverse("leaderboards:daily"))
        html = page.content.decode()
        assert page.status_code == 200
        assert "<html" in html
        variants = ["kingsley", "klondike", "spiderette", "spike", "steps"]
        for variant, name in zip(variants, NAMES, strict=True):
            assert f'data-daily="{variant}"' in html
            assert name in html
        assert re.search(r'data-countdown="\d+"', html)
        assert "00:00 UTC" in html
        assert re.search(r'id="streak">0 days<', html)
        assert 'id="calendar"' in html
        assert html.count("Not played") == len(NAMES)

    def test_shows_the_players_result_rank_and_practice_and_streak(self, player_client, player):
        deal = deal_of("klondike")
        ranked = play_daily_and_finish(player, deal)
        play_daily_and_finish(player, deal)
        page = player_client.get(reverse("leaderboards:daily")).content.decode()
        klondike_row = re.search(r'data-daily="klondike">(.*?)</tr>', page, re.S).group(1)
        assert f"Finished · {ranked.final_score}" in klondike_row
        assert "(1 practice)" in klondike_row
        assert "#1" in klondike_row
        assert ">Practice<" in klondike_row
        assert re.search(r'id="streak">1 day<', page)
        assert "played" in page

    def test_the_calendar_pages_by_month_and_htmx_gets_the_calendar_alone(self, player_client):
        month = (today_utc().replace(day=1) - timedelta(days=1)).strftime("%Y-%m")
        partial = player_client.get(reverse("leaderboards:daily") + f"?month={month}", **HX)
        html = partial.content.decode()
        assert "<html" not in html
        assert html.lstrip().startswith('<section class="panel calendar" id="calendar"')
        assert 'hx-get="?month=' in html
        assert "Later" in html  # back towards this month
        full = player_client.get(reverse("leaderboards:daily") + "?month=not-a-month")
        assert full.status_code == 200
        assert "Later" not in full.content.decode()  # no month after this one


class TestPlay:
    def url(self, variant="klondike"):
        return reverse("leaderboards:daily_play", args=[variant])

    def test_the_first_play_is_the_ranked_attempt_and_again_resumes(self, player_client, player):
        first = player_client.post(self.url())
        again = player_client.post(self.url())
        game = Game.objects.get(player=player)
        assert first.status_code == 302
        assert first["Location"] == reverse("games:detail", kwargs={"game_id": game.id})
        assert again["Location"] == first["Location"]
        assert game.is_ranked
        assert (game.track, game.track_ref) == ("daily", deal_of("klondike").track_ref)
        board = player_client.get(first["Location"]).content.decode()
        assert 'id="daily-label"' in board
        assert "ranked attempt" in board

    def test_after_the_ranked_attempt_it_is_practice(self, player_client, player):
        play_daily_and_finish(player, deal_of("klondike"))
        response = player_client.post(self.url())
        practice = Game.objects.get(player=player, is_ranked=False)
        assert response["Location"] == reverse("games:detail", kwargs={"game_id": practice.id})
        board = player_client.get(response["Location"]).content.decode()
        assert "practice" in board
        assert "ranked attempt" not in board
        assert Result.objects.count() == 1

    def test_unknown_game_is_404_and_get_is_refused(self, player_client):
        assert player_client.post(self.url("chess")).status_code == 404
        assert player_client.get(self.url()).status_code == 405

    def test_needs_a_login(self, client):
        assert client.post(self.url()).status_code == 302
        assert not Game.objects.exists()


class TestDealLeaderboard:
    def test_pages_by_fifty_with_and_without_htmx(self, client):
        deal = deal_of("klondike")
        insert_results(deal, [Figures(won=True, score=1_000 - i) for i in range(60)])
        first = client.get(deal_url(deal))
        html = first.content.decode()
        assert "<html" in html
        assert "60 ranked results." in html
        assert len(rows(first.content)) == 50
        assert rows(first.content)[0][:4] == ["1", "p0000", "Won", "1000"]
        assert 'href="?page=2"' in html
        assert 'hx-get="?page=2"' in html
        assert "Page 1 of 2" in html
        second = client.get(deal_url(deal, page=2), **HX)
        partial = second.content.decode()
        assert "<html" not in partial
        assert partial.lstrip().startswith('<div id="ranks">')
        assert [r[0] for r in rows(second.content)] == [str(n) for n in range(51, 61)]
        assert 'hx-get="?page=1"' in partial
        assert "?page=3" not in partial
        no_js = client.get(deal_url(deal, page=2))
        assert "<html" in no_js.content.decode()
        assert rows(no_js.content) == rows(second.content)

    def test_the_players_own_row_shows_outside_the_top_fifty(self, client):
        deal = deal_of("klondike")
        results = insert_results(deal, [Figures(score=1_000 - i) for i in range(65)])
        me = results[62].player
        client.force_login(me)
        html = client.get(deal_url(deal)).content.decode()
        assert "Your result:" in html
        mine = re.findall(r'<tr class="me" aria-current="true">(.*?)</tr>', html, re.S)
        assert len(mine) == 1
        assert "<td>63</td><td>p0062</td>" in mine[0]
        on_page_two = client.get(deal_url(deal, page=2)).content.decode()
        assert "Your result:" not in on_page_two
        assert on_page_two.count('class="me"') == 1

    def test_a_practice_game_does_not_appear(self, client, player):
        deal = deal_of("klondike")
        play_daily_and_finish(player, deal)
        play_daily_and_finish(player, deal)
        assert len(rows(client.get(deal_url(deal)).content)) == 1

    @pytest.mark.parametrize(
        "day", ["2026-02-30", "yesterday", "1999-01-01", "2999-01-01"], ids=str
    )
    def test_unknown_days_are_404(self, client, day):
        deal_of("klondike")
        url = reverse("leaderboards:deal", args=[day, "klondike"])
        assert client.get(url).status_code == 404

    def test_unknown_game_is_404(self, client):
        deal = deal_of("klondike")
        url = reverse("leaderboards:deal", args=[deal.date.isoformat(), "chess"])
        assert client.get(url).status_code == 404

    def test_a_future_deal_made_early_stays_hidden(self, client):
        tomorrow = deal_of("klondike", today_utc() + timedelta(days=1))
        assert client.get(deal_url(tomorrow)).status_code == 404

    def test_todays_board_deals_today_where_no_task_ran(self, client):
        url = reverse("leaderboards:deal", args=[today_utc().isoformat(), "spike"])
        assert client.get(url).status_code == 200
        assert DailyDeal.objects.filter(date=today_utc()).count() == len(NAMES)


class TestPeriodLeaderboard:
    def test_week_and_all_time_read_the_materialised_tables(self, client):
        insert_results(deal_of("klondike"), [Figures(won=True, score=s) for s in (5, 9)])
        old = deal_of("klondike", today_utc() - timedelta(days=30))
        insert_results(old, [Figures(won=True, score=50)], prefix="old")
        url = reverse("leaderboards:period", args=["klondike"])
        services.period_rankings_compute_all(today=today_utc())
        week = client.get(url + "?period=week")
        assert [r[:4] for r in rows(week.content)] == [
            ["1", "p0001", "Won", "9"],
            ["2", "p0000", "Won", "5"],
        ]
        every = client.get(url + "?period=all")
        assert [r[1] for r in rows(every.content)] == ["old0000", "p0001", "p0000"]
        assert rows(client.get(url + "?period=decade").content) == rows(week.content)

    def test_pages_with_htmx_and_without(self, client):
        insert_results(deal_of("spike"), [Figures(score=500 - i) for i in range(55)])
        services.period_rankings_compute_all(today=today_utc())
        url = reverse("leaderboards:period", args=["spike"])
        first = client.get(url + "?period=all").content.decode()
        assert 'href="?period=all&amp;page=2"' in first or 'href="?period=all&page=2"' in first
        partial = client.get(url + "?period=all&page=2", **HX)
        assert "<html" not in partial.content.decode()
        assert [r[0] for r in rows(partial.content)] == [str(n) for n in range(51, 56)]

    def test_unknown_game_is_404(self, client):
        assert client.get(reverse("leaderboards:period", args=["chess"])).status_code == 404

    def test_with_a_worker_pages_only_read_what_beat_computed(self, client, settings):
        settings.CELERY_TASK_ALWAYS_EAGER = False
        insert_results(deal_of("klondike"), [Figures(score=5)])
        url = reverse("leaderboards:period", args=["klondike"])
        assert "No results yet." in client.get(url).content.decode()
        assert not PeriodBest.objects.exists()

    def test_without_a_worker_the_page_computes_a_missing_or_stale_table(self, client):
        deal = deal_of("klondike")
        insert_results(deal, [Figures(score=5)])
        url = reverse("leaderboards:period", args=["klondike"])
        assert [r[1] for r in rows(client.get(url).content)] == ["p0000"]
        computed = PeriodBest.objects.get().computed_at
        insert_results(deal, [Figures(score=9)], prefix="late")
        assert [r[1] for r in rows(client.get(url).content)] == ["p0000"]  # fresh: read only
        assert PeriodBest.objects.get().computed_at == computed
        PeriodBest.objects.update(computed_at=computed - timedelta(minutes=6))
        assert [r[1] for r in rows(client.get(url).content)] == ["late0000", "p0000"]


def test_no_page_shows_a_deal_seed(player_client, player):
    deals = services.daily_deals_ensure(day=today_utc())
    for deal in deals:
        play_daily_and_finish(player, deal)
    services.period_rankings_compute_all(today=today_utc())
    pages = [reverse("leaderboards:daily")]
    pages += [deal_url(deal) for deal in deals]
    pages += [reverse("leaderboards:period", args=[deal.variant]) for deal in deals]
    pages += [reverse("games:detail", kwargs={"game_id": g.id}) for g in Game.objects.all()]
    pages += [reverse("games:history")]
    for url in pages:
        html = player_client.get(url).content.decode()
        for deal in deals:
            assert deal.seed not in html, url


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_plays_deal_one_ranked_game(player):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the race is exercised on PostgreSQL")
    deal = deal_of("klondike")
    start = threading.Barrier(2)
    responses: list[tuple[int, str]] = []

    def play() -> None:
        client = Client()
        client.force_login(player)
        start.wait()
        try:
            response = client.post(reverse("leaderboards:daily_play", args=["klondike"]))
            responses.append((response.status_code, response.get("Location", "")))
        finally:
            connection.close()

    threads = [threading.Thread(target=play) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    game = Game.objects.get(player=player, track=Game.Track.DAILY, track_ref=deal.track_ref)
    location = reverse("games:detail", kwargs={"game_id": game.id})
    assert responses == [(302, location), (302, location)]
    assert game.is_ranked
    assert game.is_active
