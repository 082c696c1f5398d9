"""Helpers for the leaderboard tests: daily games played through the services,
and many results inserted straight into the database."""

from dataclasses import dataclass
from datetime import date, datetime, timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import TestCase
from django.utils import timezone

from games import services as game_services
from games.engine import get_variant
from games.models import Game
from leaderboards import services
from leaderboards.models import DailyDeal, Result
from leaderboards.periods import today_utc
from leaderboards.services import daily_deal_play
from tests.games.helpers import load_fixture

requires_redis = pytest.mark.skipif(
    not settings.REDIS_URL,
    reason="needs REDIS_URL (a real Redis); CI runs these tests with and without it",
)


def deal_of(variant: str = "klondike", day: date | None = None) -> DailyDeal:
    """The day's deal of a game (today's by default), created as the task would."""
    deals = services.daily_deals_ensure(day=day or today_utc())
    return next(deal for deal in deals if deal.variant == variant)


def committed():
    """Run the on-commit hooks (the publish to the live ranks) as a real commit would."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def start_daily(player: User, deal: DailyDeal) -> Game:
    with committed():
        return daily_deal_play(player=player, deal=deal)


def finish(game: Game) -> Game:
    game.refresh_from_db()
    with committed():
        game_services.game_finish(game_id=game.id, player=game.player, revision=game.revision)
    game.refresh_from_db()
    return game


def play_daily_and_finish(player: User, deal: DailyDeal) -> Game:
    return finish(start_daily(player, deal))


def replay_fixture(game: Game, fixture: str) -> Game:
    """Deal the fixture's cards into the game, then play its moves to the end."""
    case = load_fixture(fixture)
    engine = get_variant(game.variant)
    state = engine.deal(case["deck"], game.options)
    game.state = engine.dump(state)
    game.score = engine.score(state)
    game.save(update_fields=["state", "score"])
    with committed():
        for revision, move in enumerate(case["moves"], start=game.revision):
            game_services.game_move_play(
                game_id=game.id, player=game.player, move=move, revision=revision
            )
    game.refresh_from_db()
    return game


@dataclass(frozen=True)
class Figures:
    won: bool = False
    score: int = 0
    elapsed_ms: int = 60_000
    move_count: int = 100


def insert_results(
    deal: DailyDeal,
    figures: list[Figures],
    *,
    prefix: str = "p",
    finished_at: datetime | None = None,
    players: list[User] | None = None,
) -> list[Result]:
    """Players, finished ranked games and their results, written in bulk (as many
    as a test needs) with the rank key the deal's rule gives, and the deal's
    histogram of scores rebuilt (a bulk write bypasses `result_record`)."""
    if players is None:
        players = User.objects.bulk_create(
            [User(username=f"{prefix}{index:04d}") for index in range(len(figures))]
        )
    rule = services.ranking_rule_for(deal.variant)
    when = finished_at or timezone.now()
    games = Game.objects.bulk_create(
        [
            Game(
                player=user,
                variant=deal.variant,
                options=deal.options,
                seed=deal.seed,
                track=Game.Track.DAILY,
                track_ref=deal.track_ref,
                is_ranked=True,
                state={},
                status=Game.Status.WON if figure.won else Game.Status.FINISHED,
                score=figure.score,
                final_score=figure.score,
                elapsed_ms=figure.elapsed_ms,
                move_count=figure.move_count,
                started_at=when - timedelta(milliseconds=figure.elapsed_ms),
                last_action_at=when,
                finished_at=when,
            )
            for user, figure in zip(players, figures, strict=True)
        ]
    )
    results = []
    for game, figure in zip(games, figures, strict=True):
        result = Result(
            game=game,
            daily_deal=deal,
            player=game.player,
            variant=deal.variant,
            won=figure.won,
            score=figure.score,
            elapsed_ms=figure.elapsed_ms,
            move_count=figure.move_count,
            finished_at=when,
        )
        result.rank_key = rule.rank_key(result)
        results.append(result)
    created = Result.objects.bulk_create(results)
    services.score_counts_rebuild(deal_id=deal.id)
    return created
