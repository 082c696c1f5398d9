"""Match badges, declared like the others: a first match win, a Sprint clear, a Duel
won by 100 or more; judged once the match settles."""

from datetime import UTC, datetime
from uuid import uuid4

import pytest

from achievements import rules
from achievements.models import Award
from achievements.services import match_achievements_evaluate
from games import services as games_services
from matches.models import Seat
from tests.matches.helpers import games_of, sprint

pytestmark = pytest.mark.django_db


def facts(**match) -> rules.GameFacts:
    return rules.GameFacts(
        game_id=uuid4(),
        player_id=1,
        variant="steps",
        status=match.pop("status", "finished"),
        finished_at=datetime(2026, 12, 1, tzinfo=UTC),
        final_score=0,
        elapsed_ms=1000,
        move_count=1,
        undo_count=0,
        public={},
        wins_so_far=0,
        daily_streak=0,
        ranked_score=None,
        deal_top_score=None,
        **match,
    )


def test_the_match_rules():
    assert rules.match_win()(facts(match_mode="steps_sprint", match_outcome="win"))
    assert not rules.match_win()(facts(match_mode="steps_sprint", match_outcome="draw"))
    assert not rules.match_win()(facts())
    assert rules.sprint_clear()(facts(match_mode="steps_sprint", status="won"))
    assert not rules.sprint_clear()(facts(status="won"))
    duel = rules.duel_won_by(100)
    assert duel(facts(match_mode="steps_duel", match_outcome="win", match_margin=100))
    assert not duel(facts(match_mode="steps_duel", match_outcome="win", match_margin=99))
    assert not duel(facts(match_mode="steps_sprint", match_outcome="win", match_margin=300))


def test_a_settled_match_judges_every_seat_again_for_the_match_badges(
    player, make_user, django_capture_on_commit_callbacks
):
    bob = make_user("bob")
    match = sprint(player, bob)
    with django_capture_on_commit_callbacks(execute=True):
        for game in games_of(match):
            games_services.game_finish(game_id=game.id, player=game.player, revision=0)
    # Nobody played a card: a draw, and no match badge.
    assert set(Seat.objects.filter(match=match).values_list("outcome", flat=True)) == {"draw"}
    assert not Award.objects.filter(code="first-match-win").exists()
    # Had the player won it (the seat's outcome is what the badge reads):
    Seat.objects.filter(match=match, player=player).update(outcome=Seat.Outcome.WIN, score=10)
    assert match_achievements_evaluate(match_id=match.id) == ["first-match-win"]
    assert list(Award.objects.filter(code="first-match-win").values_list("player", flat=True)) == [
        player.pk
    ]
    # Judging again awards nothing twice.
    match_achievements_evaluate(match_id=match.id)
    assert Award.objects.filter(code="first-match-win").count() == 1
