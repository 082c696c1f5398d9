"""Quick-match pairing raced against itself on PostgreSQL's row locks: the beat's task
and the embedded path (a look at the lobby without a worker) run at once, several
times each, while two players wait in the queue, in every mode. Each pair waiting
makes exactly one match, with both players in it and both out of the queue; a pair
waiting in every mode's queue at once (each mode's own run racing too, as a join's)
makes one match in all, and leaves every queue.

The figures (pairing runs tried, pairs queued, matches made, duplicates) are printed
(`pytest -s`) and recorded as the test's properties (`--junitxml`)."""

import os
import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from matches import services
from matches.models import Match, PointsTable, QueueEntry
from matches.tasks import queue_pair_task

ROUNDS = int(os.environ.get("QUEUE_RACE_ROUNDS", "10"))
"""Pairs queued per mode, one after the other."""
RUNS_PER_RACER = 3
RACERS = ("beat", "beat", "embedded", "embedded")
MODES = ("steps_duel", "steps_sprint", "klondike")


def _pairing_run(role: str) -> None:
    if role == "beat":
        queue_pair_task.apply(throw=True)
    elif role == "embedded":
        services.queue_pair_all_if_embedded()
    else:  # a mode's own run, as the second player's join makes
        services.queue_pair(mode=role)


class PairingRacers:
    """Threads that live for every round (their database connections too), let go
    together on each: each makes RUNS_PER_RACER pairing runs in a row."""

    def __init__(self, roles: tuple[str, ...] = RACERS) -> None:
        self.go = threading.Barrier(len(roles) + 1)
        self.done = threading.Barrier(len(roles) + 1)
        self.stopping = False
        self.runs = 0
        self.errors: list[str] = []
        self._count = threading.Lock()
        self.threads = [threading.Thread(target=self._run, args=(role,)) for role in roles]
        for thread in self.threads:
            thread.start()

    def _run(self, role: str) -> None:
        try:
            while True:
                self.go.wait()
                if self.stopping:
                    return
                for _ in range(RUNS_PER_RACER):
                    try:
                        _pairing_run(role)
                    except Exception as error:
                        self.errors.append(repr(error))
                    with self._count:
                        self.runs += 1
                self.done.wait()
        finally:
            connection.close()

    def race(self) -> None:
        self.go.wait()
        self.done.wait()

    def stop(self) -> None:
        self.stopping = True
        self.go.wait()
        for thread in self.threads:
            thread.join()


def _wrong(new: list[Match], *, players: set[int]) -> list[str]:
    """What is wrong with the matches one waiting pair made (one match is right: both
    players seated in it, each with their board, and nobody left in the queue)."""
    if len(new) != 1:
        return [f"{len(new)} matches for one pair"]
    match = new[0]
    wrong = []
    if match.status != Match.Status.RUNNING:
        wrong.append(f"{match} is not running")
    if set(match.seats.values_list("player_id", flat=True)) != players:
        wrong.append(f"{match} does not seat the pair")
    if match.seats.filter(game__isnull=True).exists():
        wrong.append(f"{match} has a seat without its board")
    if QueueEntry.objects.exists():
        wrong.append("the pair is still in the queue")
    return wrong


@pytest.fixture
def every_mode_open(make_user, settings) -> None:
    """Klondike head-to-head opened by a test points table; what follows a settlement
    is not raced (no match settles here)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the race is exercised on PostgreSQL")
    settings.MATCH_SETTLED_TASKS = []
    table = PointsTable.objects.create(
        version=1, points={"waste_to_tableau": 5, "flip": 5}, note="The test table."
    )
    services.points_table_publish(table_id=table.pk, staff=make_user("stella", is_staff=True))


@pytest.mark.django_db(transaction=True)
def test_concurrent_pairing_runs_make_one_match_per_waiting_pair(
    player, make_user, every_mode_open, record_property
):
    bob = make_user("bob")
    made: Counter[str] = Counter()
    duplicates: Counter[str] = Counter()
    wrong: list[str] = []
    racers = PairingRacers()
    try:
        for mode in MODES:
            for _ in range(ROUNDS):
                before = set(Match.objects.values_list("id", flat=True))
                # Both wait already (the second's own pairing run is one of the racers'):
                # each run after the first finds the pair gone, or must leave it alone.
                joined = timezone.now() - timedelta(seconds=1)
                for user in (player, bob):
                    QueueEntry.objects.create(player=user, mode=mode, rating=1500, joined_at=joined)
                racers.race()
                new = list(Match.objects.filter(mode=mode).exclude(id__in=before))
                made[mode] += len(new)
                duplicates[mode] += max(0, len(new) - 1)
                wrong.extend(_wrong(new, players={player.pk, bob.pk}))
                QueueEntry.objects.all().delete()  # what a failed round left, for the next
                # Over before the pair queues again: a player with a match running is
                # not paired.
                Match.objects.filter(id__in=[m.id for m in new]).update(
                    status=Match.Status.FINISHED
                )
    finally:
        racers.stop()
    figures = {
        "pairing_runs": racers.runs,
        "pairs_queued": ROUNDS * len(MODES),
        "matches_made": sum(made.values()),
        "duplicates": sum(duplicates.values()),
    }
    for name, value in figures.items():
        record_property(name, value)
    print(
        f"\nquick-match race: {figures['pairing_runs']} pairing runs tried "
        f"({len(RACERS)} racers x {RUNS_PER_RACER} runs x {ROUNDS} rounds x {len(MODES)} "
        f"modes), {figures['pairs_queued']} pairs queued, {figures['matches_made']} matches "
        f"made ({dict(made)}), duplicates: {figures['duplicates']}"
    )
    assert racers.errors == []
    assert wrong == []
    assert figures["matches_made"] == figures["pairs_queued"]
    assert figures["duplicates"] == 0


@pytest.mark.django_db(transaction=True)
def test_a_pair_waiting_in_every_mode_is_paired_once_however_the_runs_race(
    player, make_user, every_mode_open, record_property
):
    bob = make_user("bob")
    made: Counter[str] = Counter()
    wrong: list[str] = []
    # The beat and the lobby's looks pair every mode in turn; each mode's own run (a
    # join's) pairs its mode alone, so two runs hold the pair's entries of two modes.
    racers = PairingRacers(RACERS + MODES)
    try:
        for _ in range(ROUNDS):
            before = set(Match.objects.values_list("id", flat=True))
            joined = timezone.now() - timedelta(seconds=1)
            for user in (player, bob):
                for mode in MODES:
                    QueueEntry.objects.create(player=user, mode=mode, rating=1500, joined_at=joined)
            racers.race()
            new = list(Match.objects.exclude(id__in=before))
            made.update(match.mode for match in new)
            wrong.extend(_wrong(new, players={player.pk, bob.pk}))
            QueueEntry.objects.all().delete()
            # A pair's match is over before the pair queues again (a player with a
            # match running is not paired).
            Match.objects.filter(id__in=[m.id for m in new]).update(status=Match.Status.FINISHED)
    finally:
        racers.stop()
    figures = {
        "pairing_runs": racers.runs,
        "pairs_queued": ROUNDS,
        "matches_made": sum(made.values()),
        "duplicates": max(0, sum(made.values()) - ROUNDS),
    }
    for name, value in figures.items():
        record_property(name, value)
    print(
        f"\nquick-match race, a pair in every mode's queue: {figures['pairing_runs']} pairing "
        f"runs tried ({len(RACERS) + len(MODES)} racers x {RUNS_PER_RACER} runs x {ROUNDS} "
        f"rounds), {figures['pairs_queued']} pairs queued, {figures['matches_made']} matches "
        f"made ({dict(made)}), duplicates: {figures['duplicates']}"
    )
    assert racers.errors == []
    assert wrong == []
    assert figures["matches_made"] == figures["pairs_queued"]
