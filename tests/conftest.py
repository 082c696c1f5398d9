import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _clear_cache():
    """Rate-limit counters live in the cache (Redis in CI): start every test clean."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def make_user(django_user_model):
    def make(username: str = "alice", password: str = "correct-horse-battery", **extra):
        return django_user_model.objects.create_user(
            username=username, email=f"{username}@example.com", password=password, **extra
        )

    return make


@pytest.fixture
def player(make_user):
    return make_user()


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client
