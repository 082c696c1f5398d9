"""Staff log in through the players' login page, and so through the same throttle."""

import pytest
from django.urls import reverse

from tests.accounts.conftest import PASSWORD, error_texts

pytestmark = pytest.mark.django_db

ADMIN_LOGIN_URL = "/admin/login/"
TOO_MANY = "Too many failed login attempts. Try again later."
BAD_CREDENTIALS = "The username and/or password you specified are not correct."


@pytest.fixture
def staff(make_user):
    return make_user(username="keeper", password=PASSWORD, is_staff=True, is_superuser=True)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_thirty_wrong_passwords_then_the_right_one_do_not_log_in_at_the_admin(client, staff):
    for _attempt in range(30):
        client.post(ADMIN_LOGIN_URL, {"username": "keeper", "password": "wrong"})

    response = client.post(
        ADMIN_LOGIN_URL, {"username": "keeper", "password": PASSWORD, "next": "/admin/"}
    )

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert not logged_in(client)
    assert client.get("/admin/").status_code == 302


def test_the_admin_login_sends_to_the_players_login_page(client):
    response = client.get(f"{ADMIN_LOGIN_URL}?next=/admin/games/game/")

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next=%2Fadmin%2Fgames%2Fgame%2F"


def test_a_post_to_the_admin_login_checks_no_password(client, staff):
    response = client.post(ADMIN_LOGIN_URL, {"username": "keeper", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert not logged_in(client)


def test_staff_failures_are_throttled_like_players(client, staff):
    login_url = f"{reverse('account_login')}?next=/admin/"
    answers = [
        error_texts(client.post(login_url, {"login": "keeper", "password": "wrong"}))
        for _attempt in range(30)
    ]
    assert answers[:5] == [[BAD_CREDENTIALS]] * 5
    assert answers[5:] == [[TOO_MANY]] * 25

    refused = client.post(login_url, {"login": "keeper", "password": PASSWORD})

    # The 31st login of the minute from one address meets allauth's "login" limit.
    assert refused.status_code == 429
    assert not logged_in(client)


def test_after_five_failures_the_right_password_is_refused_too(client, staff):
    login_url = f"{reverse('account_login')}?next=/admin/"
    for _attempt in range(5):
        client.post(login_url, {"login": "keeper", "password": "wrong"})

    refused = client.post(login_url, {"login": "keeper", "password": PASSWORD})

    assert error_texts(refused) == [TOO_MANY]
    assert not logged_in(client)


def test_staff_log_in_on_the_players_page_and_reach_the_admin(client, staff):
    response = client.post(
        f"{reverse('account_login')}?next=/admin/", {"login": "keeper", "password": PASSWORD}
    )

    assert response.status_code == 302
    assert response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_a_logged_in_player_without_staff_rights_gets_403_at_the_admin_login(client, make_user):
    client.force_login(make_user(username="player"))

    assert client.get(ADMIN_LOGIN_URL).status_code == 403
