"""The replay viewer shows every card of a deal: while a daily deal is live, a
reviewer who has an attempt of their own at it cannot open its replays."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leaderboards.models import DailyDeal, Result
from reviews.models import AuditEntry, Flag, GameReview
from tests.leaderboards.helpers import deal_of
from tests.reviews.helpers import committed, finished_game, start

pytestmark = pytest.mark.django_db

CARD = re.compile(r'<span class="replay-card[^"]*"[^>]*>([A2-9JQK]|10)')


def replay(user, game):
    client = Client()
    client.force_login(user)
    return client.get(reverse("admin:games_game_replay", args=[game.pk]) + "?step=0")


@pytest.fixture
def deal():
    return deal_of("klondike")


@pytest.fixture
def played(make_user, deal):
    """Another player's closed ranked game of today's deal."""
    return finished_game(make_user("bob"), moves=12, deal=deal)


def test_a_reviewer_with_an_attempt_at_the_live_deal_is_refused(reviewer, played, deal):
    start(reviewer, deal=deal)  # the reviewer's own ranked attempt, still open
    response = replay(reviewer, played)
    assert response.status_code == 403
    html = response.content.decode()
    assert response.templates[0].name == "admin/reviews/replay_refused.html"
    tomorrow = deal.date + timedelta(days=1)
    assert (
        f"You have an attempt of your own at the klondike daily deal of {deal.date:%Y-%m-%d}, "
        "which is still live" in html
    )
    assert f"open for you on {tomorrow:%Y-%m-%d} at 00:00 UTC" in html
    assert CARD.findall(html) == []
    assert played.move_log[0] not in html


def test_a_practice_attempt_counts_too_and_so_does_the_reviewers_own_game(reviewer, deal):
    ranked = finished_game(reviewer, moves=5, deal=deal)
    practice = finished_game(reviewer, moves=3, deal=deal)
    assert ranked.is_ranked
    assert not practice.is_ranked
    assert replay(reviewer, ranked).status_code == 403
    assert replay(reviewer, practice).status_code == 403


def test_a_reviewer_without_an_attempt_sees_the_replay(reviewer, played):
    response = replay(reviewer, played)
    assert response.status_code == 200
    assert len(CARD.findall(response.content.decode())) == 52 + 1  # and the legend's


def test_after_the_day_the_replay_opens(reviewer, played, deal, monkeypatch):
    start(reviewer, deal=deal)
    assert replay(reviewer, played).status_code == 403
    next_day = timezone.now() + timedelta(days=1)
    monkeypatch.setattr(timezone, "now", lambda: next_day)
    response = replay(reviewer, played)
    assert response.status_code == 200
    assert len(CARD.findall(response.content.decode())) == 52 + 1


def test_an_attempt_at_another_deal_or_a_casual_game_changes_nothing(reviewer, make_user):
    start(reviewer, deal=deal_of("kingsley"))
    casual = finished_game(make_user("bob"), moves=12)
    assert replay(reviewer, casual).status_code == 200
    daily = finished_game(make_user("carol"), moves=12, deal=deal_of("klondike"))
    assert replay(reviewer, daily).status_code == 200


def test_staff_without_the_permission_still_get_a_plain_403(staff, played):
    response = replay(staff, played)
    assert response.status_code == 403
    assert "attempt of your own" not in response.content.decode()


class TestLookedThenPlayed:
    """The viewer cannot know whether a reviewer without an attempt will play the
    deal later: it writes down that they looked, and their ranked result at that
    deal is flagged and off the boards until another reviewer decides."""

    def test_a_ranked_result_after_opening_a_replay_of_the_live_deal_is_flagged(
        self, reviewer, played, deal
    ):
        assert replay(reviewer, played).status_code == 200
        assert replay(reviewer, played).status_code == 200  # one entry, however many steps
        [entry] = AuditEntry.objects.filter(action=AuditEntry.Action.REPLAY_VIEWED)
        assert entry.actor == reviewer
        assert entry.game_id == played.id
        assert entry.note == (
            f"Opened the replay while the klondike daily deal of {deal.date:%Y-%m-%d} was live."
        )
        with committed():
            own = finished_game(reviewer, moves=12, deal=deal)
        assert own.is_ranked
        flag = Flag.objects.get(game=own)
        assert flag.kind == Flag.Kind.DEAL_SEEN
        assert flag.details.startswith(
            f"The player opened the replay of game {str(played.id)[:8]} of this daily deal"
        )
        assert Result.objects.get(game=own).listed is False
        assert GameReview.objects.get(game=own).state == GameReview.State.UNDER_REVIEW

    def test_a_reviewer_who_did_not_look_is_not_flagged(self, reviewer, played, deal):
        with committed():
            own = finished_game(reviewer, moves=12, deal=deal)
        assert not Flag.objects.filter(game=own).exists()
        assert Result.objects.get(game=own).listed is True

    def test_a_replay_of_a_deal_whose_day_is_over_is_not_written_down(self, reviewer, played, deal):
        DailyDeal.objects.filter(id=deal.id).update(date=deal.date - timedelta(days=1))
        assert replay(reviewer, played).status_code == 200
        assert not AuditEntry.objects.filter(action=AuditEntry.Action.REPLAY_VIEWED).exists()
