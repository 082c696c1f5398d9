"""The solver's proof of a challenge: closed while it is live and, during its month,
to those who did not complete it; stepped through to the move that meets the goal."""

from datetime import UTC, date, datetime

import pytest
from django.test import Client
from django.urls import reverse

from challenges.models import Completion
from games.engine import get_variant
from games.models import Game

from .conftest import DAY, play_line
from .pages import page as parse

pytestmark = pytest.mark.django_db

TWO_ACES = {"kind": "foundation_rank", "rank": "A", "count": 2}


def proof_url(challenge) -> str:
    return reverse("challenges:proof", kwargs={"challenge_id": challenge.id})


def completed(challenge, player, client) -> None:
    client.force_login(player)
    client.post(reverse("challenges:play", kwargs={"challenge_id": challenge.id}))
    game = Game.objects.get(player=player, track_ref=challenge.track_ref)
    play_line(game=game, player=player, line=challenge.proof_line)
    assert Completion.objects.filter(player=player, challenge=challenge).exists()


def no_line_in(html: str, challenge) -> None:
    assert challenge.seed not in html
    for move in challenge.proof_line:
        assert f">{move}<" not in html


def test_the_proof_is_closed_while_the_challenge_is_live(client, player, make_challenge, clock):
    challenge = make_challenge(goal=TWO_ACES)
    completed(challenge, player, client)
    response = client.get(proof_url(challenge))
    assert response.status_code == 404
    no_line_in(response.content.decode(), challenge)
    home = client.get(reverse("challenges:home")).content.decode()
    assert proof_url(challenge) not in home


def test_after_the_day_it_opens_to_a_completer_only(client, make_user, make_challenge, clock):
    challenge = make_challenge(goal=TWO_ACES)
    finisher, other = make_user("finisher"), make_user("other")
    completed(challenge, finisher, client)
    clock.now = datetime(2026, 12, 3, 0, 0, 1, tzinfo=UTC)
    assert client.get(proof_url(challenge)).status_code == 200
    day = client.get(reverse("challenges:home"), {"day": DAY.isoformat()}).content.decode()
    assert proof_url(challenge) in day
    outsider = Client()
    outsider.force_login(other)
    closed = outsider.get(proof_url(challenge))
    assert closed.status_code == 404
    no_line_in(closed.content.decode(), challenge)
    assert Client().get(proof_url(challenge)).status_code == 404


def test_after_the_month_it_opens_to_everyone(client, make_challenge, clock):
    challenge = make_challenge(goal=TWO_ACES)
    clock.now = datetime(2027, 1, 1, 0, 0, 1, tzinfo=UTC)
    assert client.get(proof_url(challenge)).status_code == 200


def test_the_proof_steps_through_to_the_move_that_meets_the_goal(client, make_challenge, clock):
    challenge = make_challenge(goal=TWO_ACES)
    clock.now = datetime(2027, 1, 2, tzinfo=UTC)
    line = challenge.proof_line
    start = parse(client.get(proof_url(challenge)).content)
    assert "Play two aces to the foundations" in start.select_one("#goal-words").text
    assert "Aces to the foundations: 0 of 2" in start.select_one("#step").text
    assert start.select_one("#goal-met") is None
    moves = start.select(".par-moves li")
    assert [move.text.removesuffix(" meets the goal") for move in moves] == line
    assert ["goal-move" in move.classes for move in moves] == [False] * (len(line) - 1) + [True]
    assert "meets the goal" in moves[-1].text
    before = parse(client.get(proof_url(challenge), {"step": len(line) - 1}).content)
    assert before.select_one("#goal-met") is None
    assert before.select_one("#next-step")["href"] == f"?step={len(line)}"
    end = parse(client.get(proof_url(challenge), {"step": 10_000}).content)
    assert end.select_one("#current-move").text == line[-1]
    assert "Aces to the foundations: done" in end.select_one("#step").text
    assert end.select_one("#goal-met").text == "Goal met"
    assert end.select_one("#next-step") is None
    # The board is the engine's public view of the position, inside a closed fieldset.
    assert end.select_one("fieldset.replay-board")["disabled"] == ""
    bad = client.get(proof_url(challenge), {"step": "two"})
    assert bad.status_code == 200
    assert parse(bad.content).select_one("#first-step") is None


def test_the_proof_replays_under_the_challenges_own_rules(make_challenge, clock):
    from challenges.proof import challenge_proof

    challenge = make_challenge(goal=TWO_ACES)
    shown = challenge_proof(challenge_id=challenge.id, player=None, step=1, today=date(2027, 1, 2))
    engine = get_variant(challenge.variant, rules_version=challenge.rules_version)
    state = engine.deal(engine.deck_of_seed(challenge.seed), challenge.options)
    state = engine.play(state, challenge.proof_line[0]).state
    assert shown.replay.board.public == engine.public_view(state)
    assert shown.goal_step == len(challenge.proof_line)


def test_an_unknown_challenge_has_no_proof(client, clock):
    assert client.get(reverse("challenges:proof", kwargs={"challenge_id": 999})).status_code == 404
