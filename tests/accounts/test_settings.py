"""The settings page: a POST form for the profile preferences."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from accounts.services import profile_update
from tests.accounts.conftest import checked_inputs, error_texts

pytestmark = pytest.mark.django_db

SETTINGS_URL = "/settings/"


def preferences(user):
    profile = Profile.objects.get(user=user)
    return (profile.public, profile.highlight_moves, profile.reduced_motion)


def test_url_is_the_settings_page():
    assert reverse("accounts:settings") == SETTINGS_URL


def test_settings_need_a_login(client):
    response = client.get(SETTINGS_URL)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={SETTINGS_URL}"


def test_posting_settings_needs_a_login(client, alice):
    response = client.post(SETTINGS_URL, {"visibility": "private"})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert not Profile.objects.exists()


def test_settings_page_shows_the_form_and_account_links(player_client):
    response = player_client.get(SETTINGS_URL)

    assert response.status_code == 200
    html = response.content.decode()
    assert 'method="post"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert 'name="visibility" value="public"' in html
    assert 'name="highlight_moves"' in html
    assert 'name="reduced_motion"' in html
    assert reverse("account_change_password") in html
    assert reverse("account_email") in html
    # A new player starts public, without highlights or reduced motion.
    assert checked_inputs(response) == {("visibility", "public")}


def test_saving_settings_updates_the_profile_and_redirects(player_client, player):
    response = player_client.post(
        SETTINGS_URL, {"visibility": "private", "highlight_moves": "on", "reduced_motion": "on"}
    )

    assert response.status_code == 302
    assert response["Location"] == SETTINGS_URL
    assert preferences(player) == (False, True, True)

    page = player_client.get(SETTINGS_URL)
    assert "Your settings are saved." in page.content.decode()
    assert checked_inputs(page) == {
        ("visibility", "private"),
        ("highlight_moves", "on"),
        ("reduced_motion", "on"),
    }


def test_unticked_boxes_turn_preferences_off(player_client, player):
    profile_update(user=player, public=False, highlight_moves=True, reduced_motion=True)

    response = player_client.post(SETTINGS_URL, {"visibility": "public"})

    assert response.status_code == 302
    assert preferences(player) == (True, False, False)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (
            {"visibility": "everyone-and-their-dog", "reduced_motion": "on"},
            "Select a valid choice. everyone-and-their-dog is not one of the available choices.",
        ),
        ({"highlight_moves": "on"}, "This field is required."),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(player_client, player, data, error):
    profile_update(user=player, public=False, highlight_moves=False, reduced_motion=False)

    response = player_client.post(SETTINGS_URL, data)

    assert response.status_code == 400
    assert error in error_texts(response)
    assert "Your settings were not saved" in response.content.decode()
    assert preferences(player) == (False, False, False)


def test_settings_post_without_csrf_token_is_forbidden(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)

    response = client.post(SETTINGS_URL, {"visibility": "private", "highlight_moves": "on"})

    assert response.status_code == 403
    assert not Profile.objects.filter(user=player).exists()


def test_settings_post_with_csrf_token_is_accepted(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    client.get(SETTINGS_URL)
    token = client.cookies["csrftoken"].value

    response = client.post(SETTINGS_URL, {"visibility": "private", "csrfmiddlewaretoken": token})

    assert response.status_code == 302
    assert preferences(player) == (False, False, False)


def test_a_private_profile_is_hidden_after_saving_settings(player_client, player, client):
    player_client.post(SETTINGS_URL, {"visibility": "private"})
    player_client.logout()

    html = client.get(reverse("players:profile", args=[player.username])).content.decode()

    assert "This profile is private." in html
