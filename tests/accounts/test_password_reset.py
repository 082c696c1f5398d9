"""Password reset by e-mail, and what an unknown address gets (no enumeration)."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.accounts.conftest import PASSWORD, error_texts, without_csrf

pytestmark = pytest.mark.django_db

RESET_LINK = re.compile(r"https?://testserver(/accounts/password/reset/key/[^\s]+/)")


def request_reset(client, email):
    return client.post(reverse("account_reset_password"), {"email": email})


def test_reset_mail_link_sets_a_new_password_that_logs_in(client, alice):
    response = request_reset(client, "alice@example.com")

    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    link = RESET_LINK.search(message.body)
    assert link, message.body

    # The key in the link is swapped for a session-held one, then the form is shown.
    landing = client.get(link.group(1))
    assert landing.status_code == 302
    form_url = landing["Location"]
    assert client.get(form_url).status_code == 200

    new_password = "a-brand-new-secret-42"
    done = client.post(form_url, {"password1": new_password, "password2": new_password})
    assert done.status_code == 302
    assert done["Location"] == reverse("account_reset_password_from_key_done")

    alice.refresh_from_db()
    assert alice.check_password(new_password)
    assert not alice.check_password(PASSWORD)

    login = client.post(reverse("account_login"), {"login": "alice", "password": new_password})
    assert login.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_reset_link_works_once(client, alice):
    request_reset(client, "alice@example.com")
    link = RESET_LINK.search(mail.outbox[0].body).group(1)
    form_url = client.get(link)["Location"]
    client.post(form_url, {"password1": "first-new-secret-1", "password2": "first-new-secret-1"})

    again = client.get(link, follow=True)

    assert "The password reset link was invalid" in again.content.decode()
    alice.refresh_from_db()
    assert alice.check_password("first-new-secret-1")


def test_a_forged_reset_key_is_refused(client, alice):
    response = client.get("/accounts/password/reset/key/1-not-a-real-key/", follow=True)

    assert response.status_code == 200
    assert "The password reset link was invalid" in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_unknown_address_gets_the_same_answer_and_no_reset_link(client, alice):
    known = request_reset(client, "alice@example.com")
    unknown = request_reset(client, "nobody@example.com")

    # The page answers alike: the same redirect to the same "check your mail" page.
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == reverse("account_reset_password_done")
    assert error_texts(unknown) == []

    # With ACCOUNT_PREVENT_ENUMERATION allauth still mails the unknown address,
    # but only an "Unknown Account" notice: no reset link, nothing for anyone.
    to_unknown = [message for message in mail.outbox if message.to == ["nobody@example.com"]]
    assert len(to_unknown) == 1
    assert "Unknown Account" in to_unknown[0].subject
    assert not RESET_LINK.search(to_unknown[0].body)
    assert "/accounts/password/reset/key/" not in to_unknown[0].body
    # And alice got her real link, exactly one mail.
    to_alice = [message for message in mail.outbox if message.to == ["alice@example.com"]]
    assert len(to_alice) == 1
    assert RESET_LINK.search(to_alice[0].body)


def test_reset_done_page_is_the_same_for_known_and_unknown_addresses(client, alice):
    known = request_reset(client, "alice@example.com")
    known_page = client.get(known["Location"])
    unknown = request_reset(client, "nobody@example.com")
    unknown_page = client.get(unknown["Location"])

    assert known_page.status_code == unknown_page.status_code == 200
    assert without_csrf(known_page.content.decode()) == without_csrf(unknown_page.content.decode())
