"""A finish racing the deadline is settled in one transaction with exactly one
outcome: 1,000 simulated races of two seats finishing while the clock closes the
match, on PostgreSQL's row locks (SQLite serialises every write)."""

import contextlib
import random
import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.utils import timezone

from games import services as games_services
from games.errors import GameClosed
from games.models import Game
from matches import services
from matches.models import Match, Seat
from matches.services import settle
from tests.matches.helpers import sprint

RACES = int(__import__("os").environ.get("MATCH_RACES", "1000"))
CLOSED = {Game.Status.FINISHED, Game.Status.WON, Game.Status.LOST}


class Racers:
    """Three threads that live for every race (their database connections too): two
    seats finishing and the clock, let go together on each race."""

    def __init__(self) -> None:
        self.go = threading.Barrier(4)
        self.done = threading.Barrier(4)
        self.race: tuple[Match, list[Game], int] | None = None
        self.errors: list[str] = []
        self.threads = [threading.Thread(target=self._run, args=(role,)) for role in range(3)]
        for thread in self.threads:
            thread.start()

    def _act(self, role: int) -> None:
        assert self.race is not None
        match, games, clock_role = self.race
        if role == clock_role:
            services.match_close_if_time_up(match_id=match.id)
            return
        game = games[role if role < clock_role else role - 1]
        # GameClosed: the clock got there first, and this seat's game closed on time.
        with contextlib.suppress(GameClosed):
            games_services.game_finish(game_id=game.id, player=game.player, revision=0)

    def _run(self, role: int) -> None:
        try:
            while True:
                self.go.wait()
                if self.race is None:
                    return
                try:
                    self._act(role)
                except Exception as error:
                    self.errors.append(repr(error))
                self.done.wait()
        finally:
            connection.close()

    def run(self, match: Match, games: list[Game], clock_role: int) -> None:
        self.race = (match, games, clock_role)
        self.go.wait()
        self.done.wait()

    def stop(self) -> None:
        self.race = None
        self.go.wait()
        for thread in self.threads:
            thread.join()


@pytest.mark.django_db(transaction=True)
def test_a_thousand_finish_versus_timeout_races_have_one_outcome_each(
    player, make_user, monkeypatch, settings
):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the race is exercised on PostgreSQL")
    # What follows a close or a settlement (badges, review, ratings: tasks) is not raced.
    settings.GAME_CLOSED_TASKS = []
    settings.MATCH_SETTLED_TASKS = []
    rival = make_user("rival")
    settled: Counter[str] = Counter()
    dispatch = settle.match_settled_dispatch

    def counted(*, match_id):
        settled[str(match_id)] += 1
        dispatch(match_id=match_id)

    monkeypatch.setattr(settle, "match_settled_dispatch", counted)
    rng = random.Random(16)
    racers = Racers()
    matches = []
    try:
        for _ in range(RACES):
            match = sprint(player, rival)
            # Read before the deadline is set (with their players), so that the race
            # starts at once after it.
            games = [
                seat.game for seat in match.seats.select_related("game__player").order_by("number")
            ]
            # The deadline falls a moment before the race starts, or within the few
            # milliseconds a finish takes: either side may win it.
            deadline = timezone.now() + timedelta(microseconds=rng.randrange(-1000, 8000))
            Match.objects.filter(id=match.id).update(deadline_at=deadline)
            Game.objects.filter(track=Game.Track.MATCH, track_ref=str(match.id)).update(
                deadline_at=deadline
            )
            racers.run(match, games, clock_role=rng.randrange(3))
            # What the sweep does later for a match whose clock the race did not reach.
            services.match_close_if_time_up(match_id=match.id, now=deadline + timedelta(seconds=1))
            matches.append(match.id)
    finally:
        racers.stop()
    errors = racers.errors
    assert errors == []
    assert set(Match.objects.filter(id__in=matches).values_list("status", flat=True)) == {
        Match.Status.FINISHED
    }
    assert settled == Counter({str(match_id): 1 for match_id in matches})
    games = Game.objects.filter(track=Game.Track.MATCH)
    assert games.count() == 2 * RACES
    assert set(games.values_list("status", flat=True)) <= CLOSED
    assert not games.filter(final_score__isnull=True).exists()
    # Both sides won races: games finished by their player, and games the clock closed.
    assert games.filter(finished_at__lt=F("deadline_at")).exists()
    assert games.filter(finished_at=F("deadline_at")).exists()
    seats = Seat.objects.filter(match_id__in=matches)
    assert not seats.filter(placement__isnull=True).exists()
    assert not seats.filter(outcome="").exists()
