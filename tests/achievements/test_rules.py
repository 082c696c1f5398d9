"""Every achievement's rule, both ways: first on the facts alone (pure), then on
games made in the database and judged by the evaluation task."""

import dataclasses
import uuid
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

import pytest
from django.utils import timezone

from achievements.declarations import ACHIEVEMENTS, BY_CODE, GAMES
from achievements.rules import GameFacts
from achievements.tasks import achievements_evaluate_task
from games.engine import get_variant, new_seed
from games.models import Game
from games.specs import game_keys
from matches.models import Match, Seat
from tests.achievements.helpers import (
    FIXTURES,
    awarded,
    closed_game,
    daily_deal,
    fixture_states,
    noon,
    play_dailies,
    ranked_result,
    spike_state,
)

BASE = GameFacts(
    game_id=uuid.uuid4(),
    player_id=1,
    variant="klondike",
    status="finished",
    finished_at=datetime(2025, 6, 18, 12, 0, tzinfo=UTC),
    final_score=0,
    elapsed_ms=600_000,
    move_count=80,
    undo_count=3,
    public={},
    wins_so_far=0,
    daily_streak=0,
    ranked_score=None,
    deal_top_score=None,
)


def facts(**changes) -> GameFacts:
    return dataclasses.replace(BASE, **changes)


def won(variant: str, **changes) -> GameFacts:
    return facts(**{"variant": variant, "status": "won", "wins_so_far": 1, **changes})


# code -> (facts that earn it, facts that do not)
PURE_CASES: dict[str, tuple[GameFacts, GameFacts]] = {
    "spike-summit-gold": (
        facts(variant="spike", public={"badge": "gold"}),
        facts(variant="spike", public={"badge": "silver"}),
    ),
    "spike-summit-silver": (
        facts(variant="spike", status="won", public={"badge": "silver"}),
        facts(variant="spike", status="won", public={"badge": "gold"}),
    ),
    "spike-summit-bronze": (
        facts(variant="spike", status="lost", public={"badge": "bronze"}),
        facts(variant="spike", status="lost", public={"badge": None}),
    ),
    "steps-flawless-ascension": (
        won("steps", public={"reserve_used_ever": False}),
        won("steps", public={"reserve_used_ever": True}),
    ),
    "steps-master-architect": (
        won("steps", ranked_score=900, deal_top_score=900),
        won("steps", ranked_score=880, deal_top_score=900),
    ),
    **{f"first-win-{key}": (won(key), facts(variant=key, status="lost")) for key in GAMES},
    "wins-10": (won("kingsley", wins_so_far=10), won("kingsley", wins_so_far=9)),
    "wins-100": (won("spike", wins_so_far=100), won("spike", wins_so_far=99)),
    "daily-streak-3": (facts(daily_streak=3), facts(daily_streak=2)),
    "daily-streak-7": (facts(daily_streak=7), facts(daily_streak=6)),
    "daily-streak-30": (facts(daily_streak=30), facts(daily_streak=29)),
    "klondike-under-3-minutes": (
        won("klondike", elapsed_ms=179_999),
        won("klondike", elapsed_ms=180_000),
    ),
    **{f"no-undo-win-{key}": (won(key, undo_count=0), won(key, undo_count=1)) for key in GAMES},
    "spiderette-all-four-runs": (
        facts(variant="spiderette", status="won", public={"removed_runs": ["D", "C", "H", "S"]}),
        facts(variant="spiderette", public={"removed_runs": ["D", "C", "H"]}),
    ),
    "first-match-win": (
        facts(match_mode="steps_sprint", match_outcome="win"),
        facts(match_mode="steps_sprint", match_outcome="draw"),
    ),
    "sprint-clear": (
        facts(variant="steps", status="won", match_mode="steps_sprint"),
        facts(variant="steps", status="won"),
    ),
    "duel-won-by-100": (
        facts(match_mode="steps_duel", match_outcome="win", match_margin=120),
        facts(match_mode="steps_duel", match_outcome="win", match_margin=99),
    ),
}


def test_every_declared_achievement_has_a_pure_case_both_ways():
    assert set(PURE_CASES) == set(BY_CODE)


@pytest.mark.parametrize("code", sorted(PURE_CASES))
def test_rule_on_facts_both_ways(code):
    earns, misses = PURE_CASES[code]
    rule = BY_CODE[code].rule
    assert rule(earns) is True
    assert rule(misses) is False


@pytest.mark.parametrize(
    "missing",
    [
        won("kingsley", elapsed_ms=60_000),  # another game
        facts(variant="klondike", status="finished", elapsed_ms=60_000),  # not a win
    ],
)
def test_klondike_under_3_minutes_needs_a_klondike_win(missing):
    assert BY_CODE["klondike-under-3-minutes"].rule(missing) is False


def test_master_architect_needs_a_ranked_result_and_a_win():
    rule = BY_CODE["steps-master-architect"].rule
    assert rule(won("steps")) is False  # practice: no ranked result
    assert rule(facts(variant="steps", ranked_score=900, deal_top_score=900)) is False


def test_wins_need_the_judged_game_to_be_a_win():
    assert BY_CODE["wins-10"].rule(facts(status="lost", wins_so_far=12)) is False


def test_every_game_of_the_engine_has_its_first_win_and_no_undo_badges():
    for key in game_keys():  # the site's games: an engine-only variant has no badges
        assert f"first-win-{key}" in BY_CODE
        assert f"no-undo-win-{key}" in BY_CODE


# On games in the database, judged by the task ------------------------------------

Scenario = Callable[..., Game]
TODAY = date(2025, 6, 18)


def days_back(count: int, *, gap_at: int | None = None) -> list[date]:
    """`count` days ending today (and one more, further back, when a day is skipped)."""
    days = [TODAY - timedelta(days=n) for n in range(count + (gap_at is not None))]
    return [day for n, day in enumerate(days) if n != gap_at]


def spike_game(player, cleared: int, stock_left: int, status=Game.Status.FINISHED) -> Game:
    return closed_game(
        player,
        "spike",
        status,
        state=spike_state(cleared=cleared, stock_left=stock_left),
        options={"mode": "classic"},
    )


def streak_game(days: int, gap: bool = False) -> Scenario:
    def scenario(player, make_user) -> Game:
        games = play_dailies(player, days_back(days, gap_at=1 if gap else None))
        return max(games, key=lambda game: game.finished_at)

    return scenario


def wins_game(count: int) -> Scenario:
    def scenario(player, make_user) -> Game:
        start = noon(TODAY) - timedelta(days=count)
        for n in range(count - 1):
            variant = ("klondike", "kingsley", "spike")[n % 3]
            closed_game(player, variant, finished_at=start + timedelta(hours=n))
        return closed_game(player, "spiderette", finished_at=noon(TODAY))

    return scenario


def architect_game(top: bool) -> Scenario:
    def scenario(player, make_user) -> Game:
        deal = daily_deal(TODAY, "steps")
        rival = closed_game(
            make_user("rival"),
            "steps",
            Game.Status.WON,
            daily_deal=deal,
            is_ranked=True,
            score=900,
            finished_at=noon(TODAY) - timedelta(hours=1),
        )
        ranked_result(rival)
        mine = closed_game(
            player,
            "steps",
            Game.Status.WON,
            daily_deal=deal,
            is_ranked=True,
            score=900 if top else 880,
            finished_at=noon(TODAY),
        )
        ranked_result(mine)
        return mine

    return scenario


def spiderette_game(runs: int) -> Scenario:
    def scenario(player, make_user) -> Game:
        states = fixture_states("spiderette_win.json")
        state = next(s for s in reversed(states) if len(s["removed"]) == runs)
        status = Game.Status.WON if runs == 4 else Game.Status.FINISHED
        return closed_game(player, "spiderette", status, state=state)

    return scenario


def spike_fixture_end(name: str, status: str) -> Scenario:
    def scenario(player, make_user) -> Game:
        state = fixture_states(name)[-1]
        return closed_game(player, "spike", status, state=state, options=state_options(state))

    return scenario


def state_options(state) -> dict:
    return {"mode": state["mode"]}


def first_win(key: str, earns: bool) -> Scenario:
    def scenario(player, make_user) -> Game:
        other = next(k for k in GAMES if k != key)
        closed_game(player, other, Game.Status.WON)  # a win in another game does not count
        return closed_game(player, key, Game.Status.WON if earns else Game.Status.LOST)

    return scenario


def no_undo_win(key: str, undos: int) -> Scenario:
    def scenario(player, make_user) -> Game:
        return closed_game(player, key, Game.Status.WON, undo_count=undos)

    return scenario


def klondike_win(elapsed_ms: int) -> Scenario:
    def scenario(player, make_user) -> Game:
        return closed_game(player, "klondike", Game.Status.WON, elapsed_ms=elapsed_ms)

    return scenario


def steps_flawless(reserve_used: bool) -> Scenario:
    def scenario(player, make_user) -> Game:
        # Steps' own fixtures (steps_duel_* are the Duel's).
        for fixture in sorted(FIXTURES.glob("steps_win*.json")):
            states = fixture_states(fixture.name)
            engine = get_variant("steps")
            public = engine.public_view(engine.load(states[-1]))
            if public.get("status") == "won" and public.get("reserve_used_ever") is reserve_used:
                return closed_game(player, "steps", Game.Status.WON, state=states[-1])
        pytest.fail(f"no Steps fixture wins {'with' if reserve_used else 'without'} a reserve slot")

    return scenario


def match_seat(mode: str, *, outcome: str, margin: int, cleared: bool = False) -> Scenario:
    """A seat's closed game in a settled match of the mode, its outcome and its margin
    over the other seat (the rows written straight, as a settlement leaves them)."""

    def scenario(player, make_user) -> Game:
        rival = make_user("rival")
        match = Match.objects.create(
            mode=mode,
            status=Match.Status.FINISHED,
            invite_code=new_seed(),
            created_by=player,
            seed=new_seed(),
            finished_at=timezone.now(),
        )
        variant = "steps" if mode.startswith("steps") else "klondike"
        status = Game.Status.WON if cleared else Game.Status.FINISHED
        game = closed_game(player, variant, status)
        Game.objects.filter(id=game.id).update(track=Game.Track.MATCH, track_ref=str(match.id))
        theirs = closed_game(rival, variant, Game.Status.FINISHED)
        Seat.objects.create(
            match=match,
            player=player,
            number=0,
            game=game,
            score=100 + margin,
            placement=1,
            outcome=outcome,
        )
        Seat.objects.create(
            match=match, player=rival, number=1, game=theirs, score=100, placement=2, outcome="loss"
        )
        game.refresh_from_db()
        return game

    return scenario


# code -> (a scenario that earns it, a scenario that does not)
DB_CASES: dict[str, tuple[Scenario, Scenario]] = {
    "spike-summit-gold": (
        spike_fixture_end("spike_win.json", Game.Status.WON),  # the engine says gold
        lambda player, make_user: spike_game(player, 5, 10, Game.Status.WON),  # silver
    ),
    "spike-summit-silver": (
        lambda player, make_user: spike_game(player, 5, 10, Game.Status.WON),
        lambda player, make_user: spike_game(player, 5, 11, Game.Status.WON),  # gold
    ),
    "spike-summit-bronze": (
        spike_fixture_end("spike_lost.json", Game.Status.LOST),  # lost with three spikes
        lambda player, make_user: spike_game(player, 2, 0),
    ),
    "steps-flawless-ascension": (steps_flawless(False), steps_flawless(True)),
    "steps-master-architect": (architect_game(top=True), architect_game(top=False)),
    **{f"first-win-{key}": (first_win(key, True), first_win(key, False)) for key in GAMES},
    "wins-10": (wins_game(10), wins_game(9)),
    "wins-100": (wins_game(100), wins_game(99)),
    "daily-streak-3": (streak_game(3), streak_game(3, gap=True)),
    "daily-streak-7": (streak_game(7), streak_game(6)),
    "daily-streak-30": (streak_game(30), streak_game(30, gap=True)),
    "klondike-under-3-minutes": (klondike_win(179_999), klondike_win(180_000)),
    **{f"no-undo-win-{key}": (no_undo_win(key, 0), no_undo_win(key, 2)) for key in GAMES},
    "spiderette-all-four-runs": (spiderette_game(4), spiderette_game(3)),
    "first-match-win": (
        match_seat("steps_sprint", outcome="win", margin=10),
        match_seat("steps_sprint", outcome="draw", margin=0),
    ),
    "sprint-clear": (
        match_seat("steps_sprint", outcome="win", margin=10, cleared=True),
        match_seat("steps_sprint", outcome="win", margin=10),
    ),
    "duel-won-by-100": (
        match_seat("steps_duel", outcome="win", margin=100),
        match_seat("steps_duel", outcome="win", margin=99),
    ),
}


def test_every_declared_achievement_has_a_database_case_both_ways():
    assert set(DB_CASES) == {achievement.code for achievement in ACHIEVEMENTS}


@pytest.mark.django_db
@pytest.mark.parametrize("code", sorted(DB_CASES))
def test_a_game_that_earns_it(code, player, make_user):
    game = DB_CASES[code][0](player, make_user)

    assert code in achievements_evaluate_task.delay(str(game.id)).get()

    awards = awarded(player, code)
    assert [(award.game_id, award.earned_at) for award in awards] == [(game.id, game.finished_at)]
    assert awards[0].repeatable is BY_CODE[code].repeatable


@pytest.mark.django_db
@pytest.mark.parametrize("code", sorted(DB_CASES))
def test_a_game_that_does_not_earn_it(code, player, make_user):
    game = DB_CASES[code][1](player, make_user)

    assert code not in achievements_evaluate_task.delay(str(game.id)).get()

    assert awarded(player, code) == []


@pytest.mark.django_db
def test_a_gold_summit_earns_gold_only(player):
    game = spike_fixture_end("spike_win.json", Game.Status.WON)(player, None)
    earned = achievements_evaluate_task.delay(str(game.id)).get()
    assert {code for code in earned if "summit" in code} == {"spike-summit-gold"}


@pytest.mark.django_db
def test_an_abandoned_spike_game_keeps_its_bronze(player):
    """Bronze is the badge at the end of the game, however it ended."""
    game = spike_game(player, 3, 0, Game.Status.ABANDONED)
    assert "spike-summit-bronze" in achievements_evaluate_task.delay(str(game.id)).get()


@pytest.mark.django_db
def test_the_daily_streak_counts_up_to_the_day_the_game_closed(player):
    """Days played after the judged game do not count for it (a backfill judges
    each game as of its own day)."""
    oldest, middle, today = sorted(play_dailies(player, days_back(3)), key=lambda g: g.finished_at)

    assert "daily-streak-3" not in achievements_evaluate_task.delay(str(oldest.id)).get()
    assert "daily-streak-3" not in achievements_evaluate_task.delay(str(middle.id)).get()
    assert "daily-streak-3" in achievements_evaluate_task.delay(str(today.id)).get()
    assert [award.game_id for award in awarded(player, "daily-streak-3")] == [today.id]


@pytest.mark.django_db
def test_wins_count_only_games_closed_up_to_the_judged_one(player):
    first = closed_game(player, "klondike", finished_at=noon(TODAY) - timedelta(days=30))
    for n in range(10):
        closed_game(player, "klondike", finished_at=noon(TODAY) + timedelta(hours=n))
    assert "wins-10" not in achievements_evaluate_task.delay(str(first.id)).get()


@pytest.mark.django_db
def test_an_active_game_is_not_judged(player):
    game = closed_game(player, "klondike")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE, finished_at=None)
    assert achievements_evaluate_task.delay(str(game.id)).get() == []


@pytest.mark.django_db
def test_a_game_the_engine_cannot_read_is_judged_on_its_figures(player):
    game = closed_game(player, "klondike", state={"variant": "klondike", "broken": True})
    earned = achievements_evaluate_task.delay(str(game.id)).get()
    assert "first-win-klondike" in earned


@pytest.mark.django_db
def test_a_higher_result_taken_off_the_leaderboards_does_not_block_master_architect(
    player, make_user
):
    from leaderboards.models import Result

    game = architect_game(top=False)(player, make_user)
    Result.objects.exclude(game=game).update(listed=False)

    assert "steps-master-architect" in achievements_evaluate_task.delay(str(game.id)).get()
