"""Helpers for the achievement tests: closed games made straight in the database
(with engine states where a rule reads the position), daily deals, results."""

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.test import TestCase
from django.utils import timezone

from achievements.declarations import BY_CODE
from achievements.models import Award
from games.engine import get_variant, new_seed, parse_move, shuffled_deck
from games.engine.spike import SPIKE_BONUS, SPIKE_SPANS, STOCK_BONUS
from games.models import Game
from leaderboards.models import DailyDeal, Result

FIXTURES = Path(__file__).resolve().parent.parent / "engine" / "fixtures"


def noon(day: date) -> datetime:
    """Midday UTC of a day: daily deals change at 00:00 UTC."""
    return datetime(day.year, day.month, day.day, 12, 0, tzinfo=UTC)


def committed():
    """Run the on-commit hooks (the achievement task) as a real commit would."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def dealt_state(variant: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A fresh deal's snapshot (EngineError for a game the engine does not know)."""
    engine = get_variant(variant)
    return engine.dump(engine.deal(shuffled_deck(new_seed()), engine.normalize_options(options)))


def fixture_states(name: str) -> list[dict[str, Any]]:
    """Every snapshot along a replay fixture, the deal first and the end last."""
    case = json.loads((FIXTURES / name).read_text())
    engine = get_variant(case["variant"])
    state = engine.deal(case["deck"], case["options"])
    states = [engine.dump(state)]
    for move in case["moves"]:
        state = engine.apply(state, parse_move(move)).state
        states.append(engine.dump(state))
    return states


def spike_state(*, cleared: int, stock_left: int) -> dict[str, Any]:
    """A Spike snapshot with the first `cleared` spikes played off to the waste and
    the stock drawn down to `stock_left` cards (a valid position for the engine)."""
    engine = get_variant("spike")
    dump = engine.dump(engine.deal(shuffled_deck(new_seed()), {"mode": "classic"}))
    spikes, stock, waste = list(dump["spikes"]), list(dump["stock"]), list(dump["waste"])
    for span in SPIKE_SPANS[:cleared]:
        for position in span:
            waste.append(spikes[position])
            spikes[position] = None
    while len(stock) > stock_left:
        waste.append(stock.pop())
    played = sum(card is None for card in spikes)
    score = SPIKE_BONUS * cleared + 100 * played
    if cleared == len(SPIKE_SPANS):
        score += STOCK_BONUS * len(stock)
    dump.update(spikes=spikes, stock=stock, waste=waste, score=score, streak=0)
    engine.load(dump)  # the engine accepts it
    return dump


def closed_game(
    player: User,
    variant: str = "klondike",
    status: str = Game.Status.WON,
    *,
    finished_at: datetime | None = None,
    elapsed_ms: int = 240_000,
    undo_count: int = 0,
    state: dict[str, Any] | None = None,
    daily_deal: DailyDeal | None = None,
    is_ranked: bool = False,
    score: int = 0,
    move_count: int = 50,
    options: dict[str, Any] | None = None,
) -> Game:
    """A closed game written straight to the database: no task runs for it."""
    finished = finished_at or timezone.now()
    started = finished - timedelta(milliseconds=elapsed_ms)
    return Game.objects.create(
        player=player,
        variant=variant,
        options=options or {},
        seed=new_seed(),
        track=Game.Track.DAILY if daily_deal is not None else Game.Track.CASUAL,
        track_ref=daily_deal.track_ref if daily_deal is not None else "",
        is_ranked=is_ranked,
        state=dealt_state(variant, options) if state is None else state,
        status=status,
        score=score,
        final_score=score,
        move_count=move_count,
        undo_count=undo_count,
        elapsed_ms=elapsed_ms,
        started_at=started,
        last_action_at=finished,
        finished_at=finished,
    )


def daily_deal(day: date, variant: str = "klondike") -> DailyDeal:
    deal, _created = DailyDeal.objects.get_or_create(
        date=day, variant=variant, defaults={"seed": new_seed()}
    )
    return deal


def play_dailies(player: User, days: list[date], variant: str = "klondike") -> list[Game]:
    """A finished ranked daily game on each of these days."""
    return [
        closed_game(
            player,
            variant,
            Game.Status.FINISHED,
            finished_at=noon(day),
            daily_deal=daily_deal(day, variant),
            is_ranked=True,
        )
        for day in days
    ]


def ranked_result(game: Game) -> Result:
    """The ranked result of a daily game, as leaderboards would record it."""
    assert game.track == Game.Track.DAILY
    assert game.finished_at is not None
    return Result.objects.create(
        game=game,
        daily_deal_id=int(game.track_ref),
        player=game.player,
        variant=game.variant,
        won=game.status == Game.Status.WON,
        score=game.final_score if game.final_score is not None else game.score,
        elapsed_ms=game.elapsed_ms,
        move_count=game.move_count,
        rank_key=(game.final_score or 0) + (10**9 if game.status == Game.Status.WON else 0),
        finished_at=game.finished_at,
    )


def awarded(player: User, code: str) -> list[Award]:
    return list(Award.objects.filter(player=player, code=code).order_by("earned_at", "id"))


def codes_of(player: User) -> set[str]:
    return set(Award.objects.filter(player=player).values_list("code", flat=True))


def assert_declared(code: str) -> None:
    assert code in BY_CODE, code
