import pytest

from leaderboards import redis_ranks


@pytest.fixture(autouse=True)
def _fresh_redis_breaker():
    """A test that made Redis unreachable must not leave the next one skipping it."""
    redis_ranks.breaker_reset()
    yield
    redis_ranks.breaker_reset()


@pytest.fixture(params=["database", pytest.param("redis", id="redis")])
def source(request, settings):
    """Run a test on both paths of the live ranks: straight from the database
    (the embedded default), and from Redis sorted sets when REDIS_URL is set."""
    if request.param == "redis":
        if not settings.REDIS_URL:
            pytest.skip("needs REDIS_URL (a real Redis); CI runs these tests with and without it")
    else:
        settings.REDIS_URL = ""
    return request.param
