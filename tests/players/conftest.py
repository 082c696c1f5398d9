import pytest

from tests.accounts.conftest import PASSWORD


@pytest.fixture
def alice(make_user):
    return make_user(username="alice", password=PASSWORD)
