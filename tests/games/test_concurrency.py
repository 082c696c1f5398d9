"""Two requests on one game at the same moment: the row lock lets one through."""

import threading
import time

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from games import services
from games.errors import StaleAction
from games.models import Game


@pytest.mark.django_db(transaction=True)
def test_simultaneous_moves_on_one_board_apply_exactly_once(player):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the row lock is exercised on PostgreSQL")
    game = services.game_start(player=player, variant="klondike")
    start = threading.Barrier(4)
    outcomes: list[str] = []

    def submit() -> None:
        start.wait()
        try:
            services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
            outcomes.append("applied")
        except StaleAction:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    game.refresh_from_db()
    assert sorted(outcomes) == ["applied", "stale", "stale", "stale"]
    assert game.move_log == ["draw"]
    assert game.revision == 1
    assert Game.objects.get(id=game.id).move_count == 1


def _waiting_for_a_lock() -> int:
    """How many other connections to this database wait for a lock right now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def _wait_until(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the second deal never waited for the first"
        time.sleep(0.02)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("already_playing", [True, False], ids=["over-a-game", "first-game"])
def test_a_deal_that_waited_for_another_gets_the_game_the_other_dealt(player, already_playing):
    """The first deal is held open after its insert; the second waits for it (on
    the old game's row lock, or on the insert of the first game), then must get
    the first deal's game instead of failing on the one-active-game rule."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the race is exercised on PostgreSQL")
    old = services.game_start(player=player, variant="klondike") if already_playing else None
    inserted, release = threading.Event(), threading.Event()
    dealt: dict[str, Game] = {}
    failures: list[BaseException] = []

    def first() -> None:
        try:
            with transaction.atomic():
                dealt["first"] = services.game_start(player=player, variant="klondike")
                inserted.set()
                release.wait(10)
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    def second() -> None:
        try:
            dealt["second"] = services.game_start(player=player, variant="klondike")
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    threads[0].start()
    assert inserted.wait(10)
    threads[1].start()
    _wait_until(lambda: _waiting_for_a_lock() == 1)
    release.set()
    for thread in threads:
        thread.join()
    assert failures == []
    assert dealt["second"].id == dealt["first"].id
    assert Game.objects.get(player=player, status=Game.Status.ACTIVE).id == dealt["first"].id
    assert Game.objects.filter(player=player).count() == (2 if already_playing else 1)
    if old is not None:
        old.refresh_from_db()
        assert old.status == Game.Status.ABANDONED


def _race(player, url: str, clients: int = 10) -> list[tuple[int, str]]:
    """`clients` POSTs to `url` from one player's session at the same moment (with
    `confirm=on`, which New deal and Restart this deal ask for and Play ignores)."""
    start = threading.Barrier(clients)
    answers: list[tuple[int, str]] = []

    def post() -> None:
        client = Client(raise_request_exception=False)
        client.force_login(player)
        start.wait()
        try:
            response = client.post(url, {"confirm": "on"})
            answers.append((response.status_code, response.get("Location", "")))
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def _detail(game_id) -> str:
    return reverse("games:detail", kwargs={"game_id": game_id})


def _assert_every_deal_went_to_a_request(answers, dealt: list[Game]) -> None:
    """No request failed, one game of the track is active, and every game the race
    dealt went to a request: a request that lost the race to deal got the game
    that won it (which a later request may then have replaced)."""
    assert len(answers) == 10
    assert {status for status, _ in answers} == {302}, answers
    assert {location for _, location in answers} == {_detail(game.id) for game in dealt}
    assert [game.status for game in dealt].count(Game.Status.ACTIVE) == 1
    assert {game.status for game in dealt} <= {Game.Status.ACTIVE, Game.Status.ABANDONED}


@pytest.mark.django_db(transaction=True)
def test_ten_simultaneous_new_deals_give_no_error_and_one_active_game(player):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the race is exercised on PostgreSQL")
    old = services.game_start(player=player, variant="klondike")
    answers = _race(player, reverse("games:new_deal", args=["klondike"]))
    dealt = list(Game.objects.filter(player=player).exclude(id=old.id))
    _assert_every_deal_went_to_a_request(answers, dealt)
    old.refresh_from_db()
    assert old.status == Game.Status.ABANDONED


@pytest.mark.django_db(transaction=True)
def test_ten_simultaneous_restarts_give_no_error_and_one_active_restart(player):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the race is exercised on PostgreSQL")
    original = services.game_start(player=player, variant="klondike")
    answers = _race(player, reverse("games:restart", kwargs={"game_id": original.id}))
    dealt = list(Game.objects.filter(player=player).exclude(id=original.id))
    _assert_every_deal_went_to_a_request(answers, dealt)
    assert {(game.seed, game.restart_of_id) for game in dealt} == {(original.seed, original.id)}


@pytest.mark.django_db(transaction=True)
def test_ten_simultaneous_plays_deal_one_game_and_all_resume_it(player):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write; the race is exercised on PostgreSQL")
    answers = _race(player, reverse("games:play", args=["kingsley"]))
    game = Game.objects.get(player=player)
    assert game.is_active
    assert answers == [(302, _detail(game.id))] * 10
