"""A failed login does the same password work whether or not the login exists.

The time of a login is the time of its password hashes; a known e-mail address that
cost one hash more than an unknown one told which addresses are registered. The
hashes are counted here with a counting hasher, so the figure cannot drift silently
(scripts/bench_login_timing.py measures the time with the production hasher).
"""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import authenticate
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import RequestFactory, override_settings

from tests.accounts.conftest import PASSWORD, error_texts

pytestmark = pytest.mark.django_db

LOGIN_URL = "/accounts/login/"


class CountingHasher(MD5PasswordHasher):
    """The test hasher, counting every hash it computes (verify computes one too)."""

    algorithm = "counting_md5"
    hashes = 0

    def encode(self, password: str, salt: str) -> str:
        CountingHasher.hashes += 1
        return super().encode(password, salt)


@pytest.fixture
def counting_hasher():
    with override_settings(PASSWORD_HASHERS=["tests.accounts.test_login_timing.CountingHasher"]):
        yield CountingHasher


@pytest.fixture
def alice_verified(counting_hasher, make_user):
    user = make_user(username="alice", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def hashes_of_login(client, login: str, password: str = "not-it") -> int:
    CountingHasher.hashes = 0
    response = client.post(LOGIN_URL, {"login": login, "password": password})
    assert response.status_code == 200
    assert len(error_texts(response)) == 1
    assert "not correct" in error_texts(response)[0]
    return CountingHasher.hashes


@pytest.mark.parametrize(
    ("known", "unknown"),
    [("alice@example.com", "nobody@example.com"), ("alice", "nobody")],
    ids=["e-mail", "username"],
)
def test_a_known_login_with_a_wrong_password_hashes_once_like_an_unknown_one(
    client, alice_verified, known, unknown
):
    assert hashes_of_login(client, known) == 1
    assert hashes_of_login(client, unknown) == 1


def test_an_unverified_address_costs_the_same(client, counting_hasher, make_user):
    make_user(username="bob", password=PASSWORD)  # User.email only, no EmailAddress row

    assert hashes_of_login(client, "bob@example.com") == 1
    assert hashes_of_login(client, "nobody@example.com") == 1


@pytest.mark.parametrize("login", ["alice", "alice@example.com", "nobody", "nobody@example.com"])
def test_authenticate_outside_the_form_hashes_once_too(alice_verified, login):
    """The admin and anything else calling authenticate() with a username."""
    CountingHasher.hashes = 0

    user = authenticate(RequestFactory().post("/"), username=login, password="not-it")

    assert user is None
    assert CountingHasher.hashes == 1


@pytest.mark.parametrize("login", ["alice", "alice@example.com"])
def test_the_right_password_still_logs_in(client, alice_verified, login):
    CountingHasher.hashes = 0

    response = client.post(LOGIN_URL, {"login": login, "password": PASSWORD})

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice_verified.pk)
    assert CountingHasher.hashes == 1


def test_an_inactive_account_with_the_right_password_gets_the_inactive_page(client, alice_verified):
    alice_verified.is_active = False
    alice_verified.save()

    response = client.post(LOGIN_URL, {"login": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == "/accounts/inactive/"
    assert "_auth_user_id" not in client.session
