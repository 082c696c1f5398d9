"""The daily page's figures: streak, calendar, countdown and each deal's entry."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from games import services as game_services
from leaderboards import selectors
from leaderboards.services import daily_deal_play
from tests.leaderboards.helpers import deal_of, play_daily_and_finish, start_daily

pytestmark = pytest.mark.django_db

TODAY = date(2026, 3, 18)  # a Wednesday


def play_on(player, *days, variant="klondike"):
    for day in days:
        daily_deal_play(player=player, deal=deal_of(variant, day))


def ago(days: int) -> date:
    return TODAY - timedelta(days=days)


def test_no_daily_game_no_streak(player):
    game_services.game_start(player=player, variant="klondike")  # a casual game
    assert selectors.daily_streak(player=player, today=TODAY) == 0


def test_the_streak_counts_consecutive_days_up_to_today(player):
    play_on(player, TODAY, ago(1), ago(2), ago(4))
    assert selectors.daily_streak(player=player, today=TODAY) == 3


def test_today_still_open_keeps_yesterdays_streak(player):
    play_on(player, ago(1), ago(2))
    assert selectors.daily_streak(player=player, today=TODAY) == 2


def test_a_missed_day_ends_the_streak(player):
    play_on(player, ago(2), ago(3))
    assert selectors.daily_streak(player=player, today=TODAY) == 0


def test_several_games_or_attempts_in_a_day_count_once(player):
    play_on(player, TODAY, variant="klondike")
    play_on(player, TODAY, variant="spike")
    play_daily_and_finish(player, deal_of("klondike", ago(1)))
    play_daily_and_finish(player, deal_of("klondike", ago(1)))  # practice
    assert selectors.daily_streak(player=player, today=TODAY) == 2


def test_other_players_days_do_not_count(player, make_user):
    play_on(make_user("bob"), TODAY, ago(1))
    assert selectors.daily_streak(player=player, today=TODAY) == 0


def test_the_calendar_is_the_month_in_weeks_from_monday(player):
    deal_of("klondike", date(2026, 3, 1))
    play_on(player, date(2026, 3, 2), date(2026, 2, 28), date(2026, 4, 1))
    weeks = selectors.daily_calendar(player=player, month=date(2026, 3, 1), today=TODAY)
    days = [day for week in weeks for day in week if day is not None]
    assert all(len(week) == 7 for week in weeks)
    assert [d.day for d in days] == [date(2026, 3, n) for n in range(1, 32)]
    assert weeks[0][:6] == [None] * 6  # 1 March 2026 is a Sunday
    assert weeks[0][6].day == date(2026, 3, 1)
    assert [d.day for d in days if d.played] == [date(2026, 3, 2)]
    assert [d.day for d in days if d.has_deals] == [date(2026, 3, 1), date(2026, 3, 2)]
    assert [d.day for d in days if d.is_today] == [TODAY]


def test_the_countdown_runs_to_midnight_utc():
    assert selectors.seconds_to_next_deals(now=datetime(2026, 3, 18, 23, 59, 30, tzinfo=UTC)) == 30
    assert selectors.seconds_to_next_deals(now=datetime(2026, 3, 18, 0, 0, tzinfo=UTC)) == 86_400
    # 01:00 in UTC+2 is 23:00 UTC the day before: one hour to go, not 23.
    one_am_plus_two = datetime(2026, 3, 19, 1, 0, tzinfo=timezone(timedelta(hours=2)))
    assert selectors.seconds_to_next_deals(now=one_am_plus_two) == 3_600


def test_the_overview_shows_each_deal_with_the_players_result(player, make_user):
    klondike, spike = deal_of("klondike"), deal_of("spike")
    bob = make_user("bob")
    play_daily_and_finish(bob, klondike)
    ranked = play_daily_and_finish(player, klondike)
    play_daily_and_finish(player, klondike)  # practice
    start_daily(player, spike)
    deals = [klondike, spike, deal_of("kingsley")]
    entries = {e.deal.variant: e for e in selectors.daily_overview(deals=deals, player=player)}
    assert entries["klondike"].ranked_game == ranked
    assert entries["klondike"].attempts == 2
    assert entries["klondike"].rank == selectors.player_rank(deal=klondike, player=player)
    assert entries["klondike"].rank is not None
    assert entries["klondike"].name == "Klondike"
    assert entries["spike"].ranked_game is not None
    assert entries["spike"].ranked_game.is_active
    assert entries["spike"].rank is None  # still playing: not ranked yet
    assert (entries["kingsley"].ranked_game, entries["kingsley"].attempts) == (None, 0)
