"""The daily deals: one a day per game, the same for everyone, with a secret seed."""

import threading
from datetime import date, timedelta

import pytest
from django.db import IntegrityError, connection, transaction

from games.engine import get_variant
from leaderboards import services
from leaderboards.models import DailyDeal
from leaderboards.periods import today_utc
from leaderboards.tasks import daily_deals_create_task
from tests.specs import override_game_specs

pytestmark = pytest.mark.django_db

GAMES = ["kingsley", "klondike", "spiderette", "spike", "steps"]


def test_the_task_creates_one_deal_per_configured_game_for_today():
    ids = daily_deals_create_task.delay().get()
    deals = DailyDeal.objects.filter(id__in=ids)
    assert sorted(deal.variant for deal in deals) == GAMES
    assert {deal.date for deal in deals} == {today_utc()}


def test_running_the_task_twice_creates_nothing_extra():
    first = daily_deals_create_task.delay().get()
    second = daily_deals_create_task.delay().get()
    assert first == second
    assert DailyDeal.objects.count() == len(GAMES)


def test_a_late_run_creates_the_day_it_is_given_once():
    yesterday = today_utc() - timedelta(days=1)
    late = daily_deals_create_task.delay(yesterday.isoformat()).get()
    again = daily_deals_create_task.delay(yesterday.isoformat()).get()
    assert late == again
    assert set(DailyDeal.objects.values_list("date", flat=True)) == {yesterday}
    today = daily_deals_create_task.delay().get()
    assert set(today).isdisjoint(late)
    assert DailyDeal.objects.count() == 2 * len(GAMES)


def test_a_deal_made_elsewhere_in_the_meantime_is_kept():
    # Another process (the task, or a first request) created one deal first:
    # ensuring the day keeps it rather than failing or making a second.
    day = date(2026, 3, 2)
    existing = DailyDeal.objects.create(date=day, variant="klondike", options={}, seed="s" * 32)
    deals = services.daily_deals_ensure(day=day)
    assert existing.id in [deal.id for deal in deals]
    assert DailyDeal.objects.get(date=day, variant="klondike").seed == "s" * 32


def test_the_database_allows_one_deal_per_game_and_day():
    day = date(2026, 3, 2)
    DailyDeal.objects.create(date=day, variant="klondike", seed="a")
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyDeal.objects.create(date=day, variant="klondike", seed="b")


def test_each_deal_has_its_own_unpredictable_seed():
    deals = services.daily_deals_ensure(day=date(2026, 3, 2))
    deals += services.daily_deals_ensure(day=date(2026, 3, 3))
    seeds = [deal.seed for deal in deals]
    assert len(set(seeds)) == len(seeds)
    assert all(len(seed) >= 32 for seed in seeds)
    assert date(2026, 3, 2).isoformat() not in "".join(seeds)


def test_deals_carry_each_games_configured_options():
    deals = {deal.variant: deal for deal in services.daily_deals_ensure(day=today_utc())}
    assert deals["spike"].options["mode"] == "classic"
    for variant, deal in deals.items():
        assert deal.options == get_variant(variant).normalize_options(deal.options)


def test_a_game_joins_the_daily_deals_by_its_spec(monkeypatch):
    override_game_specs(
        monkeypatch, **{key: {"has_daily_deal": key == "klondike"} for key in GAMES}
    )
    assert services.daily_deal_games() == ["klondike"]
    assert [d.variant for d in services.daily_deals_ensure(day=today_utc())] == ["klondike"]


@pytest.mark.django_db(transaction=True)
def test_requests_racing_to_create_the_day_make_one_deal_per_game():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the race is exercised on PostgreSQL")
    start = threading.Barrier(4)
    seen: list[list[int]] = []
    errors: list[BaseException] = []

    def ensure() -> None:
        start.wait()
        try:
            seen.append([deal.id for deal in services.daily_deals_ensure(day=date(2026, 5, 1))])
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=ensure) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(seen) == 4
    assert all(ids == seen[0] for ids in seen)
    assert DailyDeal.objects.count() == len(GAMES)
