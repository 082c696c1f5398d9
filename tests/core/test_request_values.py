"""Each view reads its query and path values through core.params: what once was a
500 (a superscript digit, a month out of the calendar, NUL in a path) is now the
default or a 400, and the readable values still work."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from core.params import EARLIEST_MONTH
from games import services
from games.models import Game
from leaderboards.periods import today_utc
from leaderboards.services import daily_deals_ensure
from tests.achievements.helpers import closed_game
from tests.reviews.conftest import ensure_reviewers_group
from tests.reviews.helpers import finished_game

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "%C2%B2"


@pytest.fixture
def anonymous():
    return Client(raise_request_exception=False)


@pytest.fixture
def deal():
    return daily_deals_ensure(day=today_utc())[0]


def test_a_superscript_page_number_is_page_one_of_the_leaderboards(anonymous, deal):
    for path in (
        reverse("leaderboards:period", args=[deal.variant]),
        reverse("leaderboards:deal", args=[deal.date.isoformat(), deal.variant]),
    ):
        response = anonymous.get(f"{path}?page={SUPERSCRIPT_TWO}")
        assert response.status_code == 200, path
        assert response.context["board" if "daily" in path else "table"] is not None


@pytest.mark.parametrize(
    "sel", [f"t1/{SUPERSCRIPT_TWO}", f"w/{SUPERSCRIPT_TWO}", f"t{SUPERSCRIPT_TWO}", "t1%00"]
)
def test_an_unreadable_selection_selects_nothing(player_client, player, sel):
    game = services.game_start(player=player, variant="klondike")
    response = player_client.get(reverse("games:detail", args=[game.id]) + f"?sel={sel}")
    assert response.status_code == 200
    assert response.context["board"].selection is None


def test_a_readable_selection_still_selects(player_client, player):
    game = services.game_start(player=player, variant="klondike")
    response = player_client.get(reverse("games:detail", args=[game.id]) + "?sel=t7/1")
    assert response.context["board"].selection.source == "t7"


def test_an_unreadable_try_of_the_finish_toast_asks_again_from_the_first(player_client, player):
    game = closed_game(player, "klondike")  # no evaluation yet: the toast waits
    url = reverse("achievements:finish_toast", kwargs={"game_id": game.id})
    response = player_client.get(f"{url}?try={SUPERSCRIPT_TWO}")
    assert response.status_code == 200
    assert f'hx-get="{url}?try=2"' in response.content.decode()


@pytest.mark.parametrize("month", ["0001-01", "9999-12", "0000-01", "2024-13", "%C2%B2025-01"])
def test_a_month_out_of_the_calendar_shows_a_month_it_can(player_client, player, month):
    daily = player_client.get(f"{reverse('leaderboards:daily')}?month={month}")
    profile = player_client.get(f"{reverse('players:profile', args=['alice'])}?month={month}")
    this_month = today_utc().replace(day=1)
    assert daily.status_code == profile.status_code == 200
    shown = {daily.context["month"], profile.context["page"].calendar.month}
    assert shown <= {this_month, EARLIEST_MONTH}


def test_the_earliest_month_has_no_month_before_it_to_overflow_to(anonymous, player):
    response = anonymous.get(f"{reverse('players:profile', args=['alice'])}?month=0001-01")
    assert response.status_code == 200
    assert response.context["page"].calendar.month == EARLIEST_MONTH


def test_a_month_in_range_is_still_shown(player_client):
    last_month = (today_utc().replace(day=1) - timedelta(days=1)).replace(day=1)
    response = player_client.get(f"{reverse('leaderboards:daily')}?month={last_month:%Y-%m}")
    assert response.context["month"] == last_month


@pytest.mark.parametrize("name", ["%00", "ali%00ce", "a" * 151])
def test_a_username_that_cannot_exist_is_a_bad_request(anonymous, player, name):
    assert anonymous.get(f"/players/{name}/").status_code == 400


def test_the_daily_deal_day_must_be_written_year_month_day(anonymous, deal):
    assert anonymous.get(f"/daily/{deal.date:%Y%m%d}/{deal.variant}/").status_code == 404
    assert anonymous.get(f"/daily/{deal.date:%Y-%m-%d}%00/{deal.variant}/").status_code == 404
    assert anonymous.get(f"/daily/{deal.date:%Y-%m-%d}/{deal.variant}/").status_code == 200


def test_an_unknown_history_filter_and_page_fall_back(player_client, player):
    services.game_start(player=player, variant="klondike")
    response = player_client.get(f"{reverse('games:history')}?variant=%00&page={SUPERSCRIPT_TWO}")
    assert response.status_code == 200
    assert response.context["variant"] is None
    assert response.context["page"].number == 1
    assert Game.objects.filter(player=player).count() == 1


@pytest.mark.parametrize(
    ("step", "shown"),
    [("5", 5), ("%D9%A3", 0), (SUPERSCRIPT_TWO, 0), ("-1", 0), ("99", 12), ("9" * 5000, 12)],
)
def test_the_replay_step_is_read_as_ascii_digits_within_the_moves(make_user, step, shown):
    reviewer = make_user("rita", is_staff=True)
    reviewer.groups.add(ensure_reviewers_group())
    game = finished_game(make_user("alice"), moves=12)
    client = Client(raise_request_exception=False)
    client.force_login(reviewer)
    response = client.get(reverse("admin:games_game_replay", args=[game.pk]) + f"?step={step}")
    assert response.status_code == 200
    assert f"Step {shown} of 12" in response.content.decode()
