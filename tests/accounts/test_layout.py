"""allauth's pages render inside the site's own layout."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def assert_in_site_layout(response, title):
    assert response.status_code == 200
    html = response.content.decode()
    assert '<header class="site-header">' in html
    assert '<main id="main">' in html
    assert "css/arena.css" in html
    page_title = re.search(r"<title>(.*?)</title>", html, flags=re.S).group(1)
    assert " ".join(page_title.split()) == f"{title} · Solitaire Arena"
    # allauth's bare fallback layout is not used.
    assert "Menu:" not in html


@pytest.mark.parametrize(
    ("url_name", "title"),
    [
        ("account_login", "Sign In"),
        ("account_signup", "Signup"),
        ("account_reset_password", "Password Reset"),
        ("account_reset_password_done", "Password Reset"),
        ("account_reset_password_from_key_done", "Change Password"),
    ],
)
def test_entrance_pages_use_the_site_layout(client, url_name, title):
    assert_in_site_layout(client.get(reverse(url_name)), title)


@pytest.mark.parametrize(
    ("url_name", "title"),
    [
        ("account_logout", "Sign Out"),
        ("account_change_password", "Change Password"),
        ("account_email", "Email Addresses"),
    ],
)
def test_account_pages_use_the_site_layout(player_client, url_name, title):
    assert_in_site_layout(player_client.get(reverse(url_name)), title)


def test_bad_reset_key_page_uses_the_site_layout(client):
    response = client.get("/accounts/password/reset/key/1-not-a-real-key/", follow=True)

    assert_in_site_layout(response, "Change Password")


def test_login_button_is_styled_as_the_primary_button(client):
    html = client.get(reverse("account_login")).content.decode()

    assert re.search(r'<button[^>]*type="submit"\s*class="button primary"', html)
    assert '<form method="post" class="panel"' in html
