"""Certified daily deals: the evening task draws seeds until the game's solver wins one,
and stores the verdict, par, time, nodes, difficulty and line on the deal."""

import logging
import time
from datetime import timedelta
from io import StringIO
from unittest import mock

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse

from games.engine import replay
from games.engine.solvers import LOST, UNKNOWN, WON
from leaderboards import certification, services
from leaderboards.models import DailyDeal
from leaderboards.periods import today_utc
from leaderboards.tasks import (
    daily_deal_certify_task,
    daily_deals_certify_task,
    daily_deals_create_task,
)
from tests.leaderboards.certify_helpers import (
    refuse_solving,
    remove_solver,
    requires_solver,
    script_solver,
)
from tests.leaderboards.helpers import committed, deal_of, start_daily
from tests.specs import override_game_specs

pytestmark = pytest.mark.django_db

GAMES = ["klondike", "kingsley", "spiderette", "steps", "spike"]


def ahead(days: int = 2):
    """A day whose deal is not sealed whatever the time of day the test runs at."""
    return today_utc() + timedelta(days=days)


def only_spike(monkeypatch):
    """The daily deals of Spike alone: the fan-out tests solve one fast game."""
    override_game_specs(
        monkeypatch, **{key: {"has_daily_deal": False} for key in GAMES if key != "spike"}
    )


def assert_certified_by_its_line(deal: DailyDeal) -> None:
    """The stored certificate is the solver's: the line wins the deal from its seed."""
    assert deal.verdict == DailyDeal.Verdict.WON
    assert deal.solver_line
    assert deal.par == len(deal.solver_line)
    assert deal.difficulty in range(1, 6)
    assert deal.solve_ms is not None
    assert deal.solve_ms >= 0
    assert deal.solver_nodes is not None
    assert deal.solver_nodes > 0
    assert deal.seeds_tried >= 1
    outcome = replay(
        {
            "variant": deal.variant,
            "options": deal.options,
            "seed": deal.seed,
            "moves": deal.solver_line,
        }
    )
    assert outcome["error"] is None
    assert outcome["status"] == "won"
    assert outcome["moves_applied"] == deal.par


@requires_solver("spike")
def test_the_task_certifies_a_deal_with_the_real_solver_and_stores_its_certificate():
    day = ahead()
    deal_id = daily_deal_certify_task.delay(day.isoformat(), "spike").get()
    deal = DailyDeal.objects.get(id=deal_id)
    assert (deal.date, deal.variant, deal.options) == (day, "spike", {"mode": "classic"})
    assert_certified_by_its_line(deal)


@requires_solver("spike")
def test_the_evening_run_hands_out_one_task_per_game_for_tomorrow_and_todays_missing(
    monkeypatch,
):
    only_spike(monkeypatch)
    today = today_utc()
    day = ahead()
    handed = daily_deals_certify_task.delay(day.isoformat()).get()
    assert handed == [f"{day.isoformat()}:spike", f"{today.isoformat()}:spike"]
    # Both ran in-process: tomorrow's was drawn and certified, and today's, missing,
    # was searched for before it was created, so it was created certified.
    for deal_day in (day, today):
        assert_certified_by_its_line(DailyDeal.objects.get(date=deal_day, variant="spike"))
    # The next evening's run leaves today's alone: it has been tried.
    assert daily_deals_certify_task.delay(ahead(3).isoformat()).get() == [
        f"{ahead(3).isoformat()}:spike"
    ]


def test_the_evening_run_certifies_tomorrow_by_default(monkeypatch):
    only_spike(monkeypatch)
    with mock.patch.object(daily_deal_certify_task, "delay") as delay:
        handed = daily_deals_certify_task.delay().get()
    tomorrow = (today_utc() + timedelta(days=1)).isoformat()
    assert f"{tomorrow}:spike" in handed
    delay.assert_any_call(tomorrow, "spike")


@pytest.mark.parametrize("variant", GAMES)
def test_every_games_solver_certifies_or_leaves_a_consistent_uncertified_deal(variant, settings):
    """Each game's real solver, once registered, within a short budget: a won deal's
    line replays to a win from its seed; otherwise the deal says unknown, with no line."""
    if variant not in certification.solvers():
        pytest.skip(f"no {variant} solver registered yet")
    settings.DAILY_CERTIFY_BUDGET_MS = {variant: 5_000}
    settings.DAILY_CERTIFY_TIME_MS = 15_000
    deal = certification.daily_deal_prepare(day=ahead(), variant=variant)
    if deal.verdict == DailyDeal.Verdict.WON:
        assert_certified_by_its_line(deal)
    else:
        assert variant != "spike"  # its exact solver decides a deal in milliseconds
        assert deal.verdict == DailyDeal.Verdict.UNKNOWN
        assert (deal.par, deal.difficulty, deal.solver_line) == (None, None, [])
        assert deal.seeds_tried >= 1


@requires_solver("spike")
def test_a_retry_leaves_a_certified_deal_as_it_is(monkeypatch):
    day = ahead()
    first = DailyDeal.objects.get(id=daily_deal_certify_task.delay(day.isoformat(), "spike").get())
    refuse_solving(monkeypatch, ["spike"])
    again = daily_deal_certify_task.delay(day.isoformat(), "spike").get()
    assert again == first.id
    deal = DailyDeal.objects.get(id=again)
    assert (deal.seed, deal.solver_line, deal.par, deal.difficulty, deal.seeds_tried) == (
        first.seed,
        first.solver_line,
        first.par,
        first.difficulty,
        first.seeds_tried,
    )
    assert DailyDeal.objects.filter(date=day).count() == 1


def test_without_a_win_the_deal_is_kept_uncertified_and_a_warning_names_it(
    monkeypatch, settings, caplog
):
    settings.DAILY_CERTIFY_MAX_TRIES = 3
    solver = script_solver(monkeypatch, "kingsley", [UNKNOWN, UNKNOWN, UNKNOWN])
    day = ahead()
    with caplog.at_level(logging.WARNING, logger="leaderboards.certification"):
        deal = certification.daily_deal_prepare(day=day, variant="kingsley")
    assert len(solver.calls) == 3
    assert deal.verdict == DailyDeal.Verdict.UNKNOWN
    assert deal.seeds_tried == 3
    assert (deal.par, deal.difficulty, deal.solver_line) == (None, None, [])
    assert deal.solver_nodes == 30
    assert deal.solve_ms == 1
    warning = " ".join(r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
    assert "kingsley" in warning
    assert day.isoformat() in warning
    assert "NOT certified" in warning


def test_the_uncertified_fallback_keeps_a_seed_not_proved_lost(monkeypatch, settings):
    settings.DAILY_CERTIFY_MAX_TRIES = 3
    script_solver(monkeypatch, "kingsley", [LOST, UNKNOWN, LOST])
    seeds = iter(["seed-one", "seed-two", "seed-three"])
    plan = certification.certify_plan(variant="kingsley")
    found = certification.certificate_search(
        variant="kingsley", options={}, plan=plan, draw_seed=lambda: next(seeds)
    )
    assert (found.seed, found.solution.verdict, found.seeds_tried) == ("seed-two", UNKNOWN, 3)
    assert not found.certified


def test_a_win_stops_the_draw(monkeypatch, settings):
    settings.DAILY_CERTIFY_MAX_TRIES = 10
    solver = script_solver(monkeypatch, "kingsley", [UNKNOWN, LOST, WON])
    deal = certification.daily_deal_prepare(day=ahead(), variant="kingsley")
    assert len(solver.calls) == 3
    assert (deal.verdict, deal.seeds_tried, deal.par) == (DailyDeal.Verdict.WON, 3, 0)


def test_the_search_keeps_to_the_games_time(monkeypatch, settings):
    settings.DAILY_CERTIFY_BUDGET_MS = {"kingsley": 800}
    settings.DAILY_CERTIFY_TIME_MS = 2_500
    settings.DAILY_CERTIFY_MAX_TRIES = 1_000
    solver = script_solver(monkeypatch, "kingsley", [])
    found = certification.certificate_search(
        variant="kingsley", options={}, plan=certification.certify_plan(variant="kingsley")
    )
    # Every seed's budget is the game's budget or what is left; another seed is drawn
    # while a second is left.
    assert all(budget.ms is not None and budget.ms <= 800 for budget in solver.calls)
    assert found.seeds_tried == len(solver.calls) >= 2


def test_an_uncertified_deal_is_played_as_any_deal(monkeypatch, settings, player):
    settings.DAILY_CERTIFY_MAX_TRIES = 2
    script_solver(monkeypatch, "kingsley", [])
    deal = certification.daily_deal_prepare(day=today_utc(), variant="kingsley")
    assert deal.verdict == DailyDeal.Verdict.UNKNOWN
    game = start_daily(player, deal)
    assert (game.seed, game.track_ref) == (deal.seed, deal.track_ref)


def test_a_live_deal_never_tried_is_certified_on_its_own_seed(monkeypatch, player):
    deal = deal_of("kingsley")  # dealt by a request: live, uncertified
    start_daily(player, deal)
    solver = script_solver(monkeypatch, "kingsley", [WON])
    certified = daily_deal_certify_task.delay(deal.date.isoformat(), "kingsley").get()
    deal_after = DailyDeal.objects.get(id=certified)
    assert certified == deal.id
    assert deal_after.seed == deal.seed
    assert deal_after.verdict == DailyDeal.Verdict.WON
    assert deal_after.seeds_tried == 1
    # Its one seed gets the game's whole time rather than one seed's budget.
    plan = certification.certify_plan(variant="kingsley")
    assert solver.calls[0].ms > plan.budget_ms


def test_a_live_deal_already_tried_is_left_alone(monkeypatch, settings):
    settings.DAILY_CERTIFY_MAX_TRIES = 1
    script_solver(monkeypatch, "kingsley", [UNKNOWN])
    deal = certification.daily_deal_prepare(day=today_utc(), variant="kingsley")
    refuse_solving(monkeypatch, ["kingsley"])
    again = certification.daily_deal_certify(deal_id=deal.id)
    assert (again.seed, again.verdict) == (deal.seed, DailyDeal.Verdict.UNKNOWN)


def test_a_deal_a_request_dealt_during_the_search_is_kept_and_gets_the_time_left(
    monkeypatch, settings
):
    settings.DAILY_CERTIFY_TIME_MS = 5_000
    solver = script_solver(monkeypatch, "kingsley", [WON, UNKNOWN])
    dealt = []

    def request_meanwhile(variant, state, budget):
        if not dealt:  # a player opens the daily page while the search runs
            dealt.append(deal_of("kingsley"))
            time.sleep(1.5)
        return type(solver).search(solver, variant, state, budget)

    monkeypatch.setattr(solver, "search", request_meanwhile)
    deal = certification.daily_deal_prepare(day=today_utc(), variant="kingsley")
    assert deal.id == dealt[0].id
    assert deal.seed == dealt[0].seed  # the seed players may have seen stays
    assert deal.verdict == DailyDeal.Verdict.UNKNOWN
    assert len(solver.calls) == 2
    assert solver.calls[1].ms <= 5_000 - 1_500  # not the game's whole time again


def test_a_deal_sealed_during_its_search_keeps_its_seed(monkeypatch):
    deal = deal_of("kingsley", ahead())
    script_solver(monkeypatch, "kingsley", [WON, WON])
    answers = iter([False, True])  # open when the search starts, sealed when it ends
    monkeypatch.setattr(certification, "deal_sealed", lambda **_: next(answers, True))
    certified = certification.daily_deal_certify(deal_id=deal.id)
    assert certified.seed == deal.seed
    assert certified.verdict == DailyDeal.Verdict.WON


def test_a_deal_is_sealed_shortly_before_its_day_begins():
    day = ahead(1)
    opens = certification.deal_opens_at(day)
    assert not certification.deal_sealed(day=day, now=opens - timedelta(minutes=3))
    assert certification.deal_sealed(day=day, now=opens - timedelta(minutes=1))
    assert certification.deal_sealed(day=day - timedelta(days=1), now=opens)


def test_a_game_without_a_solver_gets_its_deal_uncertified(monkeypatch, caplog):
    remove_solver(monkeypatch, "spiderette")
    with caplog.at_level(logging.WARNING, logger="leaderboards.certification"):
        for day in (ahead(), today_utc()):
            deal = certification.daily_deal_prepare(day=day, variant="spiderette")
            assert deal.verdict == DailyDeal.Verdict.NOT_CERTIFIED
            assert deal.seed
    assert "no solver" in caplog.text


def test_a_daily_page_request_never_runs_a_solver(monkeypatch, player_client):
    refuse_solving(monkeypatch, GAMES)
    response = player_client.get(reverse("leaderboards:daily"))
    assert response.status_code == 200
    deals = DailyDeal.objects.filter(date=today_utc())
    assert deals.count() == len(GAMES)
    assert set(deals.values_list("verdict", flat=True)) == {DailyDeal.Verdict.NOT_CERTIFIED}
    assert response.content.decode().count("Not certified") == len(GAMES)


def test_with_a_worker_deals_made_by_a_request_are_handed_to_the_certification(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    with mock.patch.object(daily_deal_certify_task, "apply_async") as enqueue, committed():
        services.daily_deals_ensure(day=today_utc())
    handed = sorted(call.args[0][1] for call in enqueue.call_args_list)
    assert handed == sorted(GAMES)
    assert {call.args[0][0] for call in enqueue.call_args_list} == {today_utc().isoformat()}
    with mock.patch.object(daily_deal_certify_task, "apply_async") as enqueue, committed():
        services.daily_deals_ensure(day=today_utc())
    enqueue.assert_not_called()  # nothing new was dealt


def test_the_midnight_run_hands_todays_untried_deals_to_the_certification(settings):
    services.daily_deals_ensure(day=today_utc())  # in-process: nothing enqueued
    DailyDeal.objects.filter(variant="spike").update(verdict=DailyDeal.Verdict.WON, par=40)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    with mock.patch.object(daily_deal_certify_task, "apply_async") as enqueue:
        daily_deals_create_task()
    handed = sorted(call.args[0][1] for call in enqueue.call_args_list)
    assert handed == sorted(key for key in GAMES if key != "spike")


def test_the_schedule_certifies_in_the_evening_and_keeps_the_midnight_safety_net():
    schedule = settings.CELERY_BEAT_SCHEDULE
    evening = schedule["daily-deals-certify"]
    assert evening["task"] == "leaderboards.tasks.daily_deals_certify_task"
    assert evening["schedule"] == crontab(minute=0, hour=22)
    assert schedule["daily-deals"]["schedule"] == crontab(minute=0, hour=0)


def test_a_games_certification_fits_in_ten_minutes_of_one_worker():
    for variant in GAMES:
        plan = certification.certify_plan(variant=variant)
        assert plan.budget_ms <= plan.time_ms
    time_s = settings.DAILY_CERTIFY_TIME_MS / 1000
    assert time_s + 30 <= daily_deal_certify_task.soft_time_limit <= 600
    assert daily_deal_certify_task.soft_time_limit < daily_deal_certify_task.time_limit


def test_difficulty_bands_have_words():
    assert [certification.difficulty_word(band) for band in range(1, 6)] == [
        "Easy",
        "Moderate",
        "Hard",
        "Very hard",
        "Fiendish",
    ]
    assert certification.difficulty_word(None) is None


@requires_solver("spike")
def test_the_command_certifies_in_process_for_the_embedded_default(monkeypatch):
    only_spike(monkeypatch)
    out = StringIO()
    call_command("daily_deals_certify", "--day", ahead().isoformat(), "--pure-python", stdout=out)
    deal = DailyDeal.objects.get(date=ahead(), variant="spike")
    assert_certified_by_its_line(deal)
    assert f"{ahead().isoformat()} spike: certified winnable, par {deal.par}" in out.getvalue()
    # Today's Spike deal was missing, so it was certified too.
    assert DailyDeal.objects.get(date=today_utc(), variant="spike").verdict == WON


def test_the_command_refuses_a_bad_day_or_game():
    with pytest.raises(CommandError, match="--day"):
        call_command("daily_deals_certify", "--day", "2026-02-30")
    with pytest.raises(CommandError, match="No daily deal for chess"):
        call_command("daily_deals_certify", "--game", "chess")
