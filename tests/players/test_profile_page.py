"""The profile page's figures against games made in the test: statistics with win
streaks, badges with counts and dates, the chart of recent results, the daily
calendar; and what a private profile hides (here and on leaderboards)."""

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.services import profile_update
from achievements.tasks import achievements_evaluate_task
from games.models import Game
from games.services import game_start
from games.specs import game_keys
from leaderboards.periods import today_utc
from players.charts import ResultPoint, score_chart
from players.selectors import profile_for_username, win_streaks
from tests.achievements.helpers import (
    closed_game,
    daily_deal,
    noon,
    play_dailies,
    ranked_result,
    spike_state,
)
from tests.players.test_profile import DASH, profile_url, table_row

pytestmark = pytest.mark.django_db

START = datetime(2025, 5, 1, 9, 0, tzinfo=UTC)
W, F, A = Game.Status.WON, Game.Status.FINISHED, Game.Status.ABANDONED

# (variant, status, score, elapsed ms, moves), in the order they closed.
HISTORY = [
    ("klondike", W, 100, 200_000, 50),
    ("klondike", W, 150, 130_000, 60),
    ("klondike", F, -20, 300_000, 40),
    ("klondike", W, 120, 95_000, 70),
    ("klondike", W, 80, 400_000, 30),
    ("klondike", W, 110, 180_000, 10),
    ("spike", W, 5400, 240_000, 38),
    ("klondike", A, 0, 10_000, 5),
    ("klondike", W, 90, 150_000, 20),
    ("spike", Game.Status.LOST, 2100, 300_000, 49),
]


@pytest.fixture
def history(alice):
    games = []
    for index, (variant, status, score, elapsed_ms, moves) in enumerate(HISTORY):
        state = None
        if variant == "spike":
            state = spike_state(
                cleared=5 if status == W else 3, stock_left=12 if status == W else 0
            )
        games.append(
            closed_game(
                alice,
                variant,
                status,
                finished_at=START + timedelta(days=index),
                score=score,
                elapsed_ms=elapsed_ms,
                move_count=moves,
                state=state,
                options={"mode": "classic"} if variant == "spike" else None,
            )
        )
    active = game_start(player=alice, variant="klondike")
    Game.objects.filter(pk=active.pk).update(move_count=7)
    return games


def test_statistics_per_game_and_overall(client, history):
    html = client.get(profile_url("alice")).content.decode()

    # Game, played, won, win rate, best score, fastest win, total moves, streaks.
    assert table_row(html, "klondike") == [
        "Klondike", "9", "6", "67%", "150", "1:35", "292", "1", "3",
    ]  # fmt: skip
    assert table_row(html, "spike") == [
        "Spike", "2", "1", "50%", "5400", "4:00", "87", "0", "1",
    ]  # fmt: skip
    for key in set(game_keys()) - {"klondike", "spike"}:
        assert table_row(html, key)[1:] == ["0", "0", "0%", DASH, DASH, "0", "0", "0"]
    assert table_row(html, "overall") == [
        "Overall", "11", "7", "64%", "5400", "1:35", "379", "0", "4",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("statuses", "current", "longest"),
    [
        ([], 0, 0),
        ([W], 1, 1),
        ([W, W, F, W], 1, 2),
        ([W, W, W, A, W, W], 2, 3),
        ([W, Game.Status.LOST], 0, 1),
    ],
)
def test_win_streaks(statuses, current, longest):
    streaks = win_streaks(statuses)
    assert (streaks.current, streaks.longest) == (current, longest)


def test_badges_with_counts_and_dates(client, alice, history):
    for game in history:
        achievements_evaluate_task.delay(str(game.id))
    second_gold = closed_game(
        alice,
        "spike",
        W,
        finished_at=START + timedelta(days=20),
        state=spike_state(cleared=5, stock_left=14),
        options={"mode": "classic"},
    )
    achievements_evaluate_task.delay(str(second_gold.id))

    html = client.get(profile_url("alice")).content.decode()

    badges = re.findall(r'<li class="badge-card" data-achievement="([a-z0-9-]+)">', html)
    assert badges[:3] == ["spike-summit-gold", "spike-summit-bronze", "first-win-klondike"]
    gold = badge_html(html, "spike-summit-gold")
    assert 'data-count="2"' in gold
    assert "First <time" in gold
    assert ">1 May 2025</time>" not in gold
    assert ">7 May 2025</time>" in gold  # the first gold: the seventh game
    assert ">21 May 2025</time>" in gold
    first_win = badge_html(html, "first-win-klondike")
    assert "Earned <time" in first_win
    assert ">1 May 2025</time>" in first_win
    assert "data-count" not in first_win  # a one-off badge has no count


def badge_html(html: str, code: str) -> str:
    match = re.search(rf'data-achievement="{code}">(.*?)</li>', html, flags=re.S)
    assert match, code
    return match.group(1)


def test_no_badges_yet(client, alice):
    assert "No badges yet." in client.get(profile_url("alice")).content.decode()


def test_the_chart_of_recent_results(client, history):
    html = client.get(profile_url("alice")).content.decode()

    klondike = chart_html(html, "klondike")
    assert 'role="img"' in klondike
    assert '<title id="chart-klondike-title">Klondike: recent results</title>' in klondike
    assert (
        "Final scores of the last 8 closed Klondike games, oldest first, from 01 May 2025 "
        "to 09 May 2025: highest 150, lowest -20, 6 won." in klondike
    )
    assert klondike.count('class="chart-won"') == 6
    assert klondike.count('class="chart-not-won"') == 2
    assert "<polyline" in klondike
    assert 'class="chart-zero"' in klondike  # scores on both sides of zero
    assert chart_html(html, "spike").count("<circle") == 1
    assert html.split('id="results-heading"')[1].count('<figure class="score-chart"') == 2
    assert "<script" not in html.split('id="results-heading"')[1]


def chart_html(html: str, variant: str) -> str:
    match = re.search(
        rf'<figure class="score-chart" data-variant="{variant}">(.*?)</figure>', html, re.S
    )
    assert match, variant
    return match.group(1)


def test_the_chart_shows_the_last_30_closed_games(client, alice):
    for day in range(35):
        closed_game(alice, "klondike", F, finished_at=START + timedelta(days=day), score=day)

    chart = chart_html(client.get(profile_url("alice")).content.decode(), "klondike")

    assert chart.count('class="chart-not-won"') == 30
    assert "highest 34, lowest 5" in chart


def test_chart_geometry():
    results = [
        ResultPoint(START, 10, True),
        ResultPoint(START + timedelta(days=1), -10, False),
        ResultPoint(START + timedelta(days=2), 30, True),
    ]
    chart = score_chart(key="klondike", name="Klondike", results=results)
    assert chart is not None
    xs = [point.x for point in chart.points]
    ys = [point.y for point in chart.points]
    assert xs == sorted(xs)
    assert xs[0] == chart.left
    assert xs[-1] == chart.right_edge
    assert ys[2] == chart.high_y < ys[0] < ys[1] == chart.low_y  # higher scores draw higher
    assert chart.zero_y is not None
    assert score_chart(key="klondike", name="Klondike", results=[]) is None
    single = score_chart(key="klondike", name="Klondike", results=results[:1])
    assert single is not None
    assert single.points[0].y == single.high_y == single.low_y


def test_the_daily_calendar(client, alice):
    play_dailies(alice, [date(2025, 6, 2), date(2025, 6, 3), date(2025, 7, 1)])

    html = client.get(profile_url("alice") + "?month=2025-06").content.decode()

    assert "Daily deals: June 2025" in html
    played = set(re.findall(r'<td class="played[^"]*" data-day="([0-9-]+)"', html))
    assert played == {"2025-06-02", "2025-06-03"}
    assert 'href="?month=2025-05"' in html
    assert 'href="?month=2025-07"' in html


def test_the_calendar_alone_for_htmx(client, alice):
    play_dailies(alice, [date(2025, 6, 2)])

    response = client.get(profile_url("alice") + "?month=2025-06", HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert html.lstrip().startswith('<section class="panel calendar" id="calendar"')
    assert "<html" not in html


def test_the_current_daily_streak(client, alice):
    today = today_utc()
    play_dailies(alice, [today - timedelta(days=n) for n in range(3)])

    page = client.get(profile_url("alice")).content.decode()

    assert '<strong id="daily-streak">3 days</strong>' in page
    assert f'data-day="{today:%Y-%m-%d}"' in page


def test_a_month_in_the_future_shows_this_month(alice):
    page = profile_for_username(
        username="alice", viewer=alice, month=date(2099, 1, 1), today=date(2025, 6, 18)
    )
    assert page.calendar is not None
    assert page.calendar.month == date(2025, 6, 1)
    assert page.calendar.next_month is None


# Privacy ------------------------------------------------------------------------------


def private(user):
    profile_update(user=user, public=False, highlight_moves=False, reduced_motion=False)


def test_a_private_profile_shows_others_the_name_only(client, alice, history, make_user):
    for game in history:
        achievements_evaluate_task.delay(str(game.id))
    play_dailies(alice, [date(2025, 6, 2)])
    private(alice)
    client.force_login(make_user("bob"))

    for url in (profile_url("alice"), profile_url("alice") + "?month=2025-06"):
        response = client.get(url, HTTP_HX_REQUEST="true")
        html = response.content.decode()
        assert response.status_code == 200
        assert "<h1>alice</h1>" in html
        assert "This profile is private." in html
        for hidden in ("Member since", "badge", "<svg", "chart", "calendar", "data-day", "Gold"):
            assert hidden not in html, hidden


def test_the_owner_sees_everything_on_a_private_profile(client, alice, history):
    achievements_evaluate_task.delay(str(history[0].id))
    private(alice)
    client.force_login(alice)

    html = client.get(profile_url("alice")).content.decode()

    assert 'data-achievement="first-win-klondike"' in html
    assert '<figure class="score-chart" data-variant="klondike">' in html
    assert 'id="calendar"' in html


def test_a_private_profile_reads_no_figures(alice, django_assert_num_queries):
    private(alice)
    with django_assert_num_queries(2):  # the user and the profile
        page = profile_for_username(username="alice", viewer=AnonymousUser())
    assert (page.rows, page.badges, page.charts, page.calendar) == ([], [], [], None)


def test_leaderboards_show_a_private_player_by_name_only(client, alice, make_user, monkeypatch):
    from leaderboards import redis_ranks

    monkeypatch.setattr(redis_ranks, "enabled", lambda: False)
    day = today_utc()
    game = closed_game(
        alice, "klondike", W, daily_deal=daily_deal(day), is_ranked=True, finished_at=noon(day)
    )
    ranked_result(game)
    private(alice)
    client.force_login(make_user("bob"))

    html = client.get(
        reverse("leaderboards:deal", kwargs={"day": f"{day:%Y-%m-%d}", "variant": "klondike"})
    ).content.decode()

    assert "<td>alice</td>" in html
    assert profile_url("alice") not in html
