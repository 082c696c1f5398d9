"""The Master Architect of the Ascension Citadel: the title of the highest campaign
ledger, conferred by a task and passed on when another player overtakes the holder."""

from datetime import timedelta

import pytest
from django.db import IntegrityError
from django.urls import reverse
from django.utils import timezone

from codex.models import TitleReign
from codex.selectors import MASTER_ARCHITECT, campaign_ledger_leader, master_architect_reign
from codex.services import master_architect_update, scenario_play
from codex.tasks import master_architect_update_task
from games.codex import codex_scenarios
from games.models import Game

pytestmark = pytest.mark.django_db

START = timezone.now() - timedelta(days=1)
FIRST, SECOND = codex_scenarios()[0], codex_scenarios()[1]


def close(player, scenario, *, ledger, minute=0, status=Game.Status.WON, review_hold=""):
    game = scenario_play(player=player, key=scenario.key)
    Game.objects.filter(id=game.id).update(
        status=status,
        final_score=ledger,
        finished_at=START + timedelta(minutes=minute),
        review_hold=review_hold,
    )
    return game


def open_reigns():
    return list(
        TitleReign.objects.filter(code=MASTER_ARCHITECT, ended_at__isnull=True).values_list(
            "player__username", "figure"
        )
    )


def test_nobody_holds_it_before_a_positive_ledger(player) -> None:
    assert master_architect_update() is None
    close(player, FIRST, ledger=0, status=Game.Status.LOST)
    assert campaign_ledger_leader() is None
    assert master_architect_update() is None
    assert TitleReign.objects.count() == 0


def test_the_ledger_sums_each_scenarios_best(player, make_user) -> None:
    close(player, FIRST, ledger=300, minute=1)
    close(player, FIRST, ledger=200, minute=2)
    close(player, SECOND, ledger=150, minute=3)
    rival = make_user("bob")
    close(rival, FIRST, ledger=420, minute=4)
    leader = campaign_ledger_leader()
    assert (leader.player_id, leader.ledger) == (player.pk, 450)
    assert master_architect_update() == player.pk
    assert open_reigns() == [("alice", 450)]


def test_the_title_moves_to_whoever_overtakes_and_the_holders_ledger_follows(
    player, make_user
) -> None:
    close(player, FIRST, ledger=300, minute=1)
    master_architect_update()
    close(player, SECOND, ledger=50, minute=2)
    master_architect_update()
    assert open_reigns() == [("alice", 350)]
    rival = make_user("bob")
    close(rival, FIRST, ledger=360, minute=3)
    later = timezone.now() + timedelta(hours=1)
    assert master_architect_update(now=later) == rival.pk
    assert open_reigns() == [("bob", 360)]
    ended = TitleReign.objects.get(player=player)
    assert ended.ended_at == later
    reign = master_architect_reign()
    assert (reign.username, reign.ledger, reign.started_at) == ("bob", 360, later)


def test_between_equal_ledgers_the_first_to_reach_it_holds(player, make_user) -> None:
    rival = make_user("bob")
    close(rival, FIRST, ledger=400, minute=5)
    close(player, FIRST, ledger=400, minute=9)
    close(player, FIRST, ledger=400, minute=1)
    assert campaign_ledger_leader().player_id == player.pk


def test_a_game_held_off_by_review_leaves_the_ledger_and_the_title_moves(player, make_user) -> None:
    game = close(player, FIRST, ledger=500)
    rival = make_user("bob")
    close(rival, FIRST, ledger=100)
    master_architect_update()
    Game.objects.filter(id=game.id).update(review_hold=Game.ReviewHold.HELD)
    assert master_architect_update() == rival.pk
    assert open_reigns() == [("bob", 100)]


def test_running_it_again_changes_nothing_and_one_reign_stays_open(player) -> None:
    close(player, FIRST, ledger=500)
    for _ in range(3):
        master_architect_update_task.apply()
    assert TitleReign.objects.count() == 1
    with pytest.raises(IntegrityError):
        TitleReign.objects.create(
            code=MASTER_ARCHITECT, player=player, figure=1, started_at=timezone.now()
        )


def test_the_profile_shows_the_campaign_and_the_title(client, player) -> None:
    close(player, FIRST, ledger=640)
    master_architect_update()
    client.force_login(player)
    html = client.get(reverse("players:profile", args=[player.username])).content.decode()
    assert 'id="codex-campaign"' in html
    assert "Scenarios won: <strong>1 of 20</strong>" in html
    assert "Campaign ledger: <strong>640</strong>" in html
    assert "<strong>Master Architect of the Ascension Citadel</strong> since" in html


def test_the_codex_page_names_the_holder(client, player) -> None:
    html = client.get(reverse("codex:home")).content.decode()
    assert "awaits the first campaign ledger" in html
    close(player, FIRST, ledger=640)
    master_architect_update()
    html = client.get(reverse("codex:home")).content.decode()
    assert "Master Architect of the Ascension Citadel: <strong>alice</strong>" in html
    assert "campaign ledger of 640" in html


def test_an_abandoned_game_counts_for_no_ledger(player) -> None:
    close(player, FIRST, ledger=900, status=Game.Status.ABANDONED)
    assert campaign_ledger_leader() is None
