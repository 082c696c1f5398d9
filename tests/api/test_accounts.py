"""Accounts for an app: allauth headless's app client under /api/v1/auth/, the one
account system of the site (the web's rules, throttle and mails), and CSRF as DRF
and allauth define it for token and cookie clients."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from games.models import Game
from tests.api.conftest import PASSWORD, ApiClient, error_codes

pytestmark = pytest.mark.django_db

RESET_KEY = re.compile(r"/accounts/password/reset/key/([^\s/]+)/")


def sign_up(api: ApiClient, username: str = "carol", **fields):
    body = {"username": username, "email": f"{username}@example.com", "password": PASSWORD}
    return api.post("/api/v1/auth/signup", {**body, **fields})


def test_sign_up_gives_a_session_token_that_plays(anonymous_api):
    response = sign_up(anonymous_api)
    assert response.status_code == 200
    body = response.json()
    assert body["data"]["user"]["username"] == "carol"
    token = body["meta"]["session_token"]
    app = ApiClient(token=token)
    assert app.post("/api/v1/games", {"variant": "klondike"}).status_code == 201
    assert Game.objects.get().player.username == "carol"


def test_sign_up_keeps_the_sites_username_rules(anonymous_api, make_user):
    make_user("alice")
    lookalike = sign_up(anonymous_api, "\u0430lice")  # a Cyrillic a
    assert lookalike.status_code == 400
    assert lookalike.json()["errors"][0]["param"] == "username"
    weak = sign_up(anonymous_api, "dave", password="123")
    assert weak.status_code == 400
    assert weak.json()["errors"][0]["param"] == "password"
    assert not User.objects.filter(username__in=["\u0430lice", "dave"]).exists()


def test_log_in_and_the_current_session(player):
    app = ApiClient()
    response = app.log_in(player.username)
    assert response.status_code == 200
    session = app.get("/api/v1/auth/session")
    assert session.status_code == 200
    assert session.json()["data"]["user"]["username"] == player.username
    by_email = ApiClient().post("/api/v1/auth/login", {"email": player.email, "password": PASSWORD})
    assert by_email.status_code == 200


def test_a_wrong_password_is_refused_in_the_one_error_shape(player):
    response = ApiClient().post(
        "/api/v1/auth/login", {"username": player.username, "password": "wrong-horse"}
    )
    assert response.status_code == 400
    body = response.json()
    assert body["status"] == 400
    assert {"code", "message"} <= set(body["errors"][0])
    assert "meta" not in body


def test_failed_logins_are_throttled_as_on_the_web(player, make_user):
    app = ApiClient()
    wrong = {"username": player.username, "password": "wrong-horse"}
    for _attempt in range(5):
        failed = app.post("/api/v1/auth/login", wrong)
        assert failed.status_code == 400
        assert "Retry-After" not in failed
    # As on the web page, the sixth is refused before the password is checked: the right
    # one does not get in either (allauth answers it as a refused login, with its code).
    right = app.post("/api/v1/auth/login", {"username": player.username, "password": PASSWORD})
    assert right.status_code == 400
    assert [error["code"] for error in right.json()["errors"]] == ["too_many_login_attempts"]
    # When to try again: the longest window of the limits (5 in 300 s for a login).
    assert right["Retry-After"] == "300"
    assert "meta" not in right.json() or not right.json()["meta"].get("session_token")
    # Per login and address: another player logs in from the same address.
    make_user("bob")
    assert ApiClient().log_in("bob").status_code == 200


def test_log_out_answers_200_and_ends_the_token(api):
    assert api.get("/api/v1/games").status_code == 200
    logged_out = api.delete("/api/v1/auth/session")
    assert logged_out.status_code == 200
    body = logged_out.json()
    assert body["status"] == 200
    assert body["meta"]["is_authenticated"] is False
    assert "session_token" not in body["meta"]
    refused = api.get("/api/v1/games")
    assert refused.status_code == 401
    assert error_codes(refused) == ["invalid_session_token"]


def test_log_out_without_a_session_is_allauths_401(anonymous_api):
    response = anonymous_api.delete("/api/v1/auth/session")
    assert response.status_code == 401
    assert response.json()["meta"]["is_authenticated"] is False


NEW_PASSWORD = "another-long-secret-77"


def test_a_password_change_answers_with_the_new_token_and_ends_the_old(api, player):
    old_token = api.token
    changed = api.post(
        "/api/v1/account/password/change",
        {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
    )
    assert changed.status_code == 200
    new_token = changed.json()["meta"]["session_token"]
    assert new_token
    assert new_token != old_token
    assert ApiClient(token=new_token).get("/api/v1/games").status_code == 200
    refused = ApiClient(token=old_token).get("/api/v1/games")
    assert refused.status_code == 401
    assert error_codes(refused) == ["invalid_session_token"]
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)


def test_another_devices_token_is_refused_as_dead_from_its_first_request(api, player):
    other_device = ApiClient()
    assert other_device.log_in(player.username).status_code == 200
    changed = api.post(
        "/api/v1/account/password/change",
        {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
    )
    assert changed.status_code == 200
    for _request in range(2):
        refused = other_device.get("/api/v1/games")
        assert refused.status_code == 401
        assert error_codes(refused) == ["invalid_session_token"]


def test_a_disabled_accounts_token_is_refused_as_dead(api, player):
    player.is_active = False
    player.save(update_fields=["is_active"])
    refused = api.get("/api/v1/games")
    assert refused.status_code == 401
    assert error_codes(refused) == ["invalid_session_token"]


def test_allauths_endpoints_answer_a_dead_token_410_as_allauths_protocol_says(api):
    api.delete("/api/v1/auth/session")
    for response in (
        api.get("/api/v1/auth/session"),
        api.post("/api/v1/auth/login", {"username": "alice", "password": PASSWORD}),
    ):
        assert response.status_code == 410
        assert response.json()["status"] == 410
        assert response.json()["meta"]["is_authenticated"] in (None, False)


def test_password_reset_by_the_mailed_key(anonymous_api, player):
    requested = anonymous_api.post("/api/v1/auth/password/request", {"email": player.email})
    assert requested.status_code == 200
    (message,) = mail.outbox
    key = RESET_KEY.search(message.body).group(1)
    new_password = "a-brand-new-secret-42"
    reset = anonymous_api.post(
        "/api/v1/auth/password/reset", {"key": key, "password": new_password}
    )
    # allauth's answer: the password is set and the app is not logged in by it (401).
    assert reset.status_code == 401
    assert reset.json()["meta"]["is_authenticated"] is False
    player.refresh_from_db()
    assert player.check_password(new_password)
    assert ApiClient().log_in(player.username, new_password).status_code == 200


def test_an_unknown_address_gets_the_same_answer_and_no_mail(anonymous_api):
    response = anonymous_api.post("/api/v1/auth/password/request", {"email": "no@example.com"})
    assert response.status_code == 200
    assert all(m.to == ["no@example.com"] for m in mail.outbox)


def test_a_token_client_needs_no_csrf_token(player):
    app = ApiClient()
    app.client = Client(enforce_csrf_checks=True)
    app.log_in(player.username)
    assert app.post("/api/v1/games", {"variant": "klondike"}).status_code == 201


def test_a_browser_session_writes_only_with_its_csrf_token(player):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    assert browser.get("/api/v1/games").status_code == 200
    refused = browser.post(
        "/api/v1/games", {"variant": "klondike"}, content_type="application/json"
    )
    assert refused.status_code == 403
    assert refused.json()["errors"][0]["code"] == "csrf_failed"
    assert not Game.objects.exists()
    browser.get("/settings/")  # any page sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    allowed = browser.post(
        "/api/v1/games",
        {"variant": "klondike"},
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )
    assert allowed.status_code == 201
