"""Sign-up, log-in, log-out, throttling and enumeration: allauth's flows as configured."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from tests.accounts.conftest import PASSWORD, error_texts, without_csrf

pytestmark = pytest.mark.django_db

LOGIN_URL = "/accounts/login/"
BAD_CREDENTIALS = "The username and/or password you specified are not correct."
# allauth words the error after what was typed (an e-mail address), not after what exists.
BAD_EMAIL_CREDENTIALS = "The email address and/or password you specified are not correct."
TOO_MANY = "Too many failed login attempts. Try again later."


def logged_in_user_id(client):
    return client.session.get("_auth_user_id")


def test_sign_up_through_the_form_creates_the_account_and_logs_in(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "Newcomer@Example.com",
            "password1": "a-long-enough-secret",
            "password2": "a-long-enough-secret",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = get_user_model().objects.get(username="newcomer")
    assert user.check_password("a-long-enough-secret")
    assert user.email.lower() == "newcomer@example.com"
    assert EmailAddress.objects.filter(user=user, email__iexact="newcomer@example.com").exists()
    assert logged_in_user_id(client) == str(user.pk)


def test_sign_up_with_mismatched_passwords_creates_nothing(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a-long-enough-secret",
            "password2": "another-long-secret",
        },
    )

    assert response.status_code == 200
    assert "You must type the same password each time." in error_texts(response)
    assert not get_user_model().objects.filter(username="newcomer").exists()
    assert logged_in_user_id(client) is None


@pytest.mark.parametrize("login", ["alice", "alice@example.com", "ALICE@example.com"])
def test_log_in_with_username_or_email(client, alice, login):
    response = client.post(LOGIN_URL, {"login": login, "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert logged_in_user_id(client) == str(alice.pk)


def test_log_out_needs_a_post(client, alice):
    client.force_login(alice)

    page = client.get(reverse("account_logout"))
    assert page.status_code == 200
    assert logged_in_user_id(client) == str(alice.pk), "a GET must not log out"

    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert logged_in_user_id(client) is None


def test_wrong_password_and_unknown_user_get_the_same_answer(client, make_user):
    make_user(username="real-player", password=PASSWORD)

    wrong_password = client.post(LOGIN_URL, {"login": "real-player", "password": "not-it"})
    unknown_user = client.post(LOGIN_URL, {"login": "ghost-player", "password": "not-it"})

    assert wrong_password.status_code == unknown_user.status_code == 200
    assert error_texts(wrong_password) == error_texts(unknown_user) == [BAD_CREDENTIALS]
    # Apart from the echoed login and the CSRF token the two pages are the same, byte for byte.
    first = without_csrf(wrong_password.content.decode()).replace("real-player", "X")
    second = without_csrf(unknown_user.content.decode()).replace("ghost-player", "X")
    assert first == second
    assert logged_in_user_id(client) is None


def test_unknown_email_and_wrong_password_get_the_same_answer(client, alice):
    wrong_password = client.post(LOGIN_URL, {"login": "alice@example.com", "password": "not-it"})
    unknown_email = client.post(LOGIN_URL, {"login": "nobody@example.com", "password": "not-it"})

    assert wrong_password.status_code == unknown_email.status_code == 200
    assert error_texts(wrong_password) == error_texts(unknown_email) == [BAD_EMAIL_CREDENTIALS]
    first = without_csrf(wrong_password.content.decode()).replace("alice@", "X@")
    second = without_csrf(unknown_email.content.decode()).replace("nobody@", "X@")
    assert first == second


def test_failed_logins_are_throttled_per_account(client, alice):
    for _attempt in range(5):
        response = client.post(LOGIN_URL, {"login": "alice", "password": "wrong"})
        assert error_texts(response) == [BAD_CREDENTIALS]

    # The sixth attempt is refused before the password is even checked:
    # the right password does not get in either.
    refused = client.post(LOGIN_URL, {"login": "alice", "password": PASSWORD})

    # allauth answers a throttled login with a form error on the login page
    # (status 200), not with a 429; the 429 page belongs to its per-IP "login"
    # limit (30/m/ip), which is not what stops this guessing.
    assert refused.status_code == 200
    assert error_texts(refused) == [TOO_MANY]
    assert logged_in_user_id(client) is None
    assert isinstance(refused.wsgi_request.user, AnonymousUser)


def test_throttle_is_per_account_not_global(client, alice, make_user):
    bob = make_user(username="bob", password=PASSWORD)
    for _attempt in range(5):
        client.post(LOGIN_URL, {"login": "alice", "password": "wrong"})

    response = client.post(LOGIN_URL, {"login": "bob", "password": PASSWORD})

    assert response.status_code == 302
    assert logged_in_user_id(client) == str(bob.pk)


def test_successful_logins_do_not_use_up_the_failure_budget(client, alice):
    for _round in range(3):
        client.post(LOGIN_URL, {"login": "alice", "password": PASSWORD})
        client.post(reverse("account_logout"))
    for _attempt in range(4):
        client.post(LOGIN_URL, {"login": "alice", "password": "wrong"})

    response = client.post(LOGIN_URL, {"login": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert logged_in_user_id(client) == str(alice.pk)


def test_failed_logins_are_throttled_per_address(client, make_user):
    """10 failures a minute from one address, whichever accounts they name."""
    for number in range(10):
        client.post(LOGIN_URL, {"login": f"guess{number}", "password": "wrong"})
    carol = make_user(username="carol", password=PASSWORD)

    refused = client.post(LOGIN_URL, {"login": "carol", "password": PASSWORD})

    assert error_texts(refused) == [TOO_MANY]
    assert logged_in_user_id(client) is None
    assert carol.pk is not None


def test_sign_up_with_a_taken_email_makes_no_second_account(client, alice):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "impostor",
            "email": "ALICE@example.com",
            "password1": "a-long-enough-secret",
            "password2": "a-long-enough-secret",
        },
    )

    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="impostor").exists()
    assert logged_in_user_id(client) is None


ATTACKER = "203.0.113.9"
ELSEWHERE = "198.51.100.7"


def test_failures_from_one_address_do_not_lock_the_account_elsewhere(client, alice):
    for _attempt in range(5):
        response = client.post(
            LOGIN_URL, {"login": "alice", "password": "wrong"}, REMOTE_ADDR=ATTACKER
        )
        assert error_texts(response) == [BAD_CREDENTIALS]
    attacker_refused = client.post(
        LOGIN_URL, {"login": "alice", "password": "wrong"}, REMOTE_ADDR=ATTACKER
    )
    assert error_texts(attacker_refused) == [TOO_MANY]

    # Alice, from her own address, gets in with her password...
    from_alice = client.post(
        LOGIN_URL, {"login": "alice", "password": PASSWORD}, REMOTE_ADDR=ELSEWHERE
    )
    assert from_alice.status_code == 302
    assert logged_in_user_id(client) == str(alice.pk)
    client.post(reverse("account_logout"), REMOTE_ADDR=ELSEWHERE)

    # ...while the attacker's address stays throttled for her account, right password or not.
    still_refused = client.post(
        LOGIN_URL, {"login": "alice", "password": PASSWORD}, REMOTE_ADDR=ATTACKER
    )
    assert error_texts(still_refused) == [TOO_MANY]
    assert logged_in_user_id(client) is None


def test_the_per_address_limit_still_counts_failures_across_accounts(client, make_user):
    """Spreading guesses over many accounts from one address is still cut at 10 a minute."""
    make_user(username="dave", password=PASSWORD)
    for number in range(10):
        client.post(
            LOGIN_URL, {"login": f"guess{number}", "password": "wrong"}, REMOTE_ADDR=ATTACKER
        )

    refused = client.post(LOGIN_URL, {"login": "dave", "password": PASSWORD}, REMOTE_ADDR=ATTACKER)
    elsewhere = client.post(
        LOGIN_URL, {"login": "dave", "password": PASSWORD}, REMOTE_ADDR=ELSEWHERE
    )

    assert error_texts(refused) == [TOO_MANY]
    assert elsewhere.status_code == 302


def test_ipv6_addresses_of_one_network_share_the_account_budget(client, alice):
    """An attacker rotating through the addresses of one /64 is one address."""
    for host in range(5):
        client.post(
            LOGIN_URL, {"login": "alice", "password": "wrong"}, REMOTE_ADDR=f"2001:db8::{host + 1}"
        )

    refused = client.post(
        LOGIN_URL, {"login": "alice", "password": PASSWORD}, REMOTE_ADDR="2001:db8::99"
    )
    elsewhere = client.post(
        LOGIN_URL, {"login": "alice", "password": PASSWORD}, REMOTE_ADDR="2001:db8:1::1"
    )

    assert error_texts(refused) == [TOO_MANY]
    assert elsewhere.status_code == 302
