"""Making challenges: only goals the solver's line reaches are kept, with the line up to
the move that meets them; a day's making is idempotent."""

from datetime import date

import pytest
from django.test import override_settings

from challenges import services
from challenges.errors import ChallengeRefused
from challenges.models import Challenge
from challenges.tasks import challenge_day_create_task, challenges_create_task
from games.engine import get_variant
from games.engine.goals import goal_of, goal_proof_length, line_facts

from .conftest import DAY, STEPS_SEED

pytestmark = pytest.mark.django_db


def test_a_challenge_is_stored_with_the_proof_of_its_goal(make_challenge) -> None:
    challenge = make_challenge(goal={"kind": "foundation_rank", "rank": "A", "count": 2})
    steps = get_variant("steps")
    state = steps.deal(steps.deck_of_seed(STEPS_SEED))
    timeline = line_facts(steps, state, challenge.proof_line)
    goal = goal_of(challenge.goal, steps)
    assert goal_proof_length(goal, timeline) == len(challenge.proof_line)
    assert 0 < len(challenge.proof_line) < challenge.line_length
    assert challenge.stars == 1
    assert challenge.rules_version == steps.rules_version


def test_a_goal_the_solver_cannot_reach_is_refused(make_challenge) -> None:
    with pytest.raises(ChallengeRefused, match="does not reach “Reach 99999 on the Architect"):
        make_challenge(goal={"kind": "score", "count": 99_999})
    assert not Challenge.objects.exists()


@pytest.mark.parametrize(
    ("goal", "message"),
    [
        ({"kind": "runs_removed", "count": 1}, "Steps has no runs_removed goal"),
        ({"kind": "foundation_rank", "rank": "Z", "count": 1}, "needs a rank"),
        ({"kind": "teleport"}, "Unknown goal kind"),
    ],
)
def test_a_bad_goal_is_refused_with_the_reason(make_challenge, goal, message) -> None:
    with pytest.raises(ChallengeRefused, match=message):
        make_challenge(goal=goal)
    assert not Challenge.objects.exists()


def test_a_deal_the_solver_does_not_win_is_refused(make_challenge) -> None:
    with (
        override_settings(CHALLENGE_SEED_BUDGET_MS=1),
        pytest.raises(
            ChallengeRefused, match="The solver won no Spiderette deal within its budget"
        ),
    ):
        services.challenge_build(
            day=DAY, variant="spiderette", difficulty=1, seed="hard-to-say", goal={"kind": "win"}
        )


def test_a_challenge_made_twice_is_the_same_row(make_challenge) -> None:
    first = make_challenge(goal={"kind": "win"})
    second = make_challenge(goal={"kind": "foundation_cards", "count": 5})
    assert first == second
    assert Challenge.objects.count() == 1


def test_a_day_gets_three_challenges_of_a_game_by_the_solvers_effort() -> None:
    made = services.challenges_day_make(day=DAY, variant="spike")
    assert [challenge.difficulty for challenge in made] == [1, 2, 3]
    assert made[0].solver_nodes <= made[1].solver_nodes <= made[2].solver_nodes
    assert len(made[2].proof_line) == made[2].line_length
    assert all(len(c.proof_line) < c.line_length for c in made[:2])
    assert len({challenge.seed for challenge in made}) == 3
    assert services.challenges_day_make(day=DAY, variant="spike") == made
    assert Challenge.objects.count() == 3


def test_the_tasks_make_the_next_days_challenges_once(monkeypatch) -> None:
    monkeypatch.setattr(services.making, "challenge_games", lambda: ["steps", "spike"])
    monkeypatch.setattr("challenges.services.challenge_games", lambda: ["steps", "spike"])
    monkeypatch.setattr("challenges.tasks.today_utc", lambda: date(2026, 12, 1))
    assert challenges_create_task.delay(days_ahead=1).get() == ["steps", "spike"]
    assert Challenge.objects.filter(date=DAY).count() == 6
    ids = challenge_day_create_task.delay(DAY.isoformat(), "steps").get()
    assert sorted(ids) == sorted(
        Challenge.objects.filter(variant="steps").values_list("id", flat=True)
    )
    challenges_create_task.delay(days_ahead=1).get()
    assert Challenge.objects.count() == 6


def test_every_game_of_the_site_has_challenges() -> None:
    assert services.challenge_games() == ["klondike", "kingsley", "spiderette", "steps", "spike"]


def test_the_page_has_missing_challenges_made_off_the_request_once(monkeypatch) -> None:
    queued = []
    monkeypatch.setattr(services.making, "challenge_games", lambda: ["spike"])
    monkeypatch.setattr(
        services.making.threading,
        "Thread",
        lambda target, args, **kwargs: type("T", (), {"start": lambda self: queued.append(args)})(),
    )
    with override_settings(CHALLENGE_MAKE_ON_READ=True):
        assert services.challenges_prepare_soon(day=DAY)
        assert services.challenges_prepare_soon(day=DAY)
    assert queued == [(DAY, ["spike"])]
    services.challenges_day_make(day=DAY, variant="spike")
    assert not services.challenges_prepare_soon(day=DAY)
