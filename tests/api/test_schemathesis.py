"""Schemathesis against the live schema: every operation, ours and allauth's, answers
as the schema says (no 5xx, a documented status, content type, body and headers),
signed in with a real session token, with the path naming real things (the player's
game of every variant, a variant, the player, today, a Codex scenario open and one
locked, a daily challenge of today and one whose proof is open).

Each operation runs as a subtest of one test, its cases drawn with the operation's
own Hypothesis strategy (`APIOperation.as_strategy`): schemathesis's lazy pytest
loader (`schemathesis.pytest.from_fixture`, the way to a schema known only once the
live server runs) reads `Function._nodeid`, which pytest 9.2 no longer has. A fixed
number of cases, derandomized: the same requests on every run."""

from typing import Any

import hypothesis
import pytest
import requests
import schemathesis
from django.utils import timezone
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.specs.openapi import checks as openapi_checks

from challenges.models import Challenge
from challenges.selectors import month_of, previous_month
from challenges.services import challenge_build
from games.codex import codex_scenarios
from games.specs import game_keys
from leaderboards.periods import today_utc
from matches.modes import match_mode_keys
from tests.api.conftest import PASSWORD
from tests.challenges.conftest import STEPS_SEED

pytestmark = pytest.mark.django_db(transaction=True)

LOGOUT = ("DELETE", "/api/v1/auth/session")
FIRST_TIER = next(scenario for scenario in codex_scenarios() if scenario.tier == 1)
LOCKED_TIER = next(scenario for scenario in codex_scenarios() if scenario.tier == 2)
CHECKS = [
    schemathesis.checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
    openapi_checks.response_headers_conformance,
]
EXAMPLES = hypothesis.settings(
    max_examples=15,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)


def _session_token(base_url: str, username: str) -> str:
    response = requests.post(
        f"{base_url}/api/v1/auth/login",
        json={"username": username, "password": PASSWORD},
        timeout=10,
    )
    assert response.status_code == 200, response.text
    return str(response.json()["meta"]["session_token"])


def _live_schema(base_url: str, *, token: str | None, real_values: dict[str, list[str]]) -> Any:
    schema = schemathesis.openapi.from_url(f"{base_url}/api/v1/schema")
    schema.config.update(
        base_url=base_url, headers={"X-Session-Token": token} if token is not None else None
    )

    @schema.hook
    def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any]) -> Any:
        """Each path parameter mostly names something real (the player's games, a
        variant, the player, today), and sometimes is the value drawn."""
        return st.fixed_dictionaries(
            {
                name: st.sampled_from([*real_values.get(name, []), drawn])
                for name, drawn in (path_parameters or {}).items()
            }
        )

    return schema


@pytest.fixture
def real_values(live_server, player) -> dict[str, list[str]]:
    """The player's game of every variant in progress, a match of theirs, and the other
    real path values."""
    token = _session_token(live_server.url, player.username)
    game_ids = []
    for variant in game_keys():
        response = requests.post(
            f"{live_server.url}/api/v1/games",
            json={"variant": variant},
            headers={"X-Session-Token": token},
            timeout=30,
        )
        assert response.status_code == 201, response.text
        game_ids.append(response.json()["id"])
    match = requests.post(
        f"{live_server.url}/api/v1/matches",
        json={"mode": "steps_sprint"},
        headers={"X-Session-Token": token},
        timeout=30,
    )
    assert match.status_code == 201, match.text
    # Today's challenge (playable), and one of last month (its proof open to everyone),
    # made on the challenges tests' fixed seed, which the solver wins in milliseconds.
    challenges = [
        challenge_build(
            day=day, variant="steps", difficulty=Challenge.Difficulty.EASY, seed=STEPS_SEED
        )
        for day in (today_utc(), previous_month(month_of(today_utc())))
    ]
    return {
        "game_id": game_ids,
        "variant": list(game_keys()),
        "username": [player.username],
        "day": [timezone.localdate().isoformat()],
        "match_id": [match.json()["id"]],
        "mode": list(match_mode_keys()),
        # A Codex scenario open to the player, and one of a tier still locked.
        "key": [FIRST_TIER.key, LOCKED_TIER.key],
        "challenge_id": [challenge.id for challenge in challenges],
    }


@pytest.fixture
def allauth_rate_limits_raised(settings):
    """allauth's per-user limits (5 password changes, 10 e-mail changes a minute) would
    answer most cases 429 (documented, but nothing else reached): raised for the run."""
    settings.ACCOUNT_RATE_LIMITS = {
        **settings.ACCOUNT_RATE_LIMITS,
        "change_password": "1000/m/user",
        "manage_email": "1000/m/user",
        "reauthenticate": "1000/m/user",
    }


def _operations(schema: Any) -> list[Any]:
    return [result.ok() for result in schema.get_all_operations()]


def _fuzz(operation: Any, call: Any) -> None:
    """EXAMPLES cases of the operation, valid ones and invalid ones, each checked."""

    @hypothesis.given(
        case=st.one_of(
            operation.as_strategy(GenerationMode.POSITIVE),
            operation.as_strategy(GenerationMode.NEGATIVE),
        )
    )
    @EXAMPLES
    def fuzzed(case: Any) -> None:
        call(case)

    fuzzed()


@pytest.mark.usefixtures("allauth_rate_limits_raised")
def test_every_operation_answers_as_the_schema_says(live_server, player, real_values, subtests):
    token = _session_token(live_server.url, player.username)
    schema = _live_schema(live_server.url, token=token, real_values=real_values)
    operations = [op for op in _operations(schema) if (op.method.upper(), op.path) != LOGOUT]
    labels = {operation.label for operation in operations}
    assert {
        "POST /api/v1/games/{game_id}/moves",
        "POST /api/v1/auth/login",
        "GET /api/v1/codex",
        "POST /api/v1/codex/{key}/play",
        "GET /api/v1/codex/{key}/leaderboard",
        "GET /api/v1/challenges",
        "POST /api/v1/challenges/{challenge_id}/play",
        "GET /api/v1/challenges/month",
        "GET /api/v1/challenges/{challenge_id}/proof",
        "GET /api/v1/challenges/leaderboard",
    } <= labels

    for operation in operations:
        with subtests.test(msg=operation.label):
            _fuzz(operation, lambda case: case.call_and_validate(checks=CHECKS))


def test_logging_out_answers_as_the_schema_says(live_server, player):
    """Each case logs out a session of its own: one logout would end the token of all."""
    schema = _live_schema(live_server.url, token=None, real_values={})
    (operation,) = [op for op in _operations(schema) if (op.method.upper(), op.path) == LOGOUT]

    def log_out(case: Any) -> None:
        token = _session_token(live_server.url, player.username)
        case.call_and_validate(headers={"X-Session-Token": token}, checks=CHECKS)

    _fuzz(operation, log_out)
