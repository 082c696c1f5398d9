import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.db import connection

from games import specs

# The challenges' fixtures (challenges made by the solver on fixed seeds, the server's
# clock), and the two ways a review holds a result (tests/reviews/holds.py).
from tests.challenges.conftest import clock, make_challenge  # noqa: F401
from tests.reviews.holds import hold  # noqa: F401
from tests.specs import override_game_specs

reviewers_migration = importlib.import_module("reviews.migrations.0002_reviewers_group")


def ensure_reviewers_group() -> Group:
    """The "Reviewers" group comes from a data migration. A transactional test
    elsewhere in the suite flushes the database, migration data included, so
    the migration's own (idempotent) function puts it back when a test needs it."""
    reviewers_migration.create_group(apps, SimpleNamespace(connection=connection))
    return Group.objects.get(name="Reviewers")


@pytest.fixture(params=["database", pytest.param("redis", id="redis")])
def source(request, settings):
    """Both paths of the leaderboards: the database alone (the embedded default)
    and Redis live ranks when REDIS_URL is set."""
    if request.param == "redis":
        if not settings.REDIS_URL:
            pytest.skip("needs REDIS_URL (a real Redis); CI runs these tests with and without it")
    else:
        settings.REDIS_URL = ""
    return request.param


@pytest.fixture
def reviewer(make_user):
    """A staff account in the "Reviewers" group that migration 0002 created."""
    user = make_user("rita", is_staff=True)
    user.groups.add(ensure_reviewers_group())
    return user


@pytest.fixture
def staff(make_user):
    """Staff without the review permission."""
    return make_user("stan", is_staff=True)


@pytest.fixture
def reviewer_client(client, reviewer):
    client.force_login(reviewer)
    return client


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


@pytest.fixture(autouse=True)
def _no_speed_rules_unless_asked(settings, monkeypatch):
    """Games in tests are played at machine speed, which the speed rules would
    flag: they are off here, and tests/reviews/test_flags.py sets them."""
    settings.REVIEW_MIN_SECONDS_PER_MOVE = 0
    override_game_specs(
        monkeypatch, **{key: {"min_win_seconds": None} for key in specs.game_keys()}
    )
