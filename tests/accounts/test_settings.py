"""The settings page: a POST form for the profile preferences."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Profile
from accounts.services import profile_update
from games.models import Game
from tests.accounts.conftest import checked_inputs, error_texts

pytestmark = pytest.mark.django_db

SETTINGS_URL = "/settings/"


def preferences(user):
    profile = Profile.objects.get(user=user)
    return (profile.public, profile.highlight_moves, profile.reduced_motion)


# The radio buttons checked for a new player: lattice backs, medium cards, the
# device's light or dark.
DEFAULT_LOOKS = {("card_back", "lattice"), ("card_size", "medium"), ("colour_scheme", "system")}

LOOKS_POST = {
    "visibility": "public",
    "felt": "aurora",
    "card_back": "summit",
    "card_size": "large",
    "colour_scheme": "dark",
    "four_colour_deck": "on",
    "sound": "on",
    "single_tap_moves": "on",
    "auto_foundation": "on",
}


def looks(user):
    profile = Profile.objects.get(user=user)
    return {
        name: getattr(profile, name)
        for name in (
            "felt",
            "card_back",
            "card_size",
            "colour_scheme",
            "four_colour_deck",
            "sound",
            "single_tap_moves",
            "auto_foundation",
        )
    }


def page_looks(response) -> dict[str, str]:
    """The looks a page carries on <html> and <body> (data-* attributes)."""
    html = response.content.decode()
    tags = re.search(r"<html[^>]*>", html).group(0) + re.search(r"<body[^>]*>", html).group(0)
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tags))


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
    # A new player starts public, without highlights or reduced motion, with the
    # default looks.
    assert checked_inputs(response) == {("visibility", "public")} | DEFAULT_LOOKS


def test_saving_settings_updates_the_profile_and_redirects(player_client, player):
    response = player_client.post(
        SETTINGS_URL, {"visibility": "private", "highlight_moves": "on", "reduced_motion": "on"}
    )

    assert response.status_code == 302
    assert response["Location"] == SETTINGS_URL
    assert preferences(player) == (False, True, True)

    page = player_client.get(SETTINGS_URL)
    assert "Your settings are saved." in page.content.decode()
    assert (
        checked_inputs(page)
        == {
            ("visibility", "private"),
            ("highlight_moves", "on"),
            ("reduced_motion", "on"),
        }
        | DEFAULT_LOOKS
    )


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


def test_a_new_player_gets_the_default_looks_on_every_page(player_client, player):
    assert page_looks(player_client.get("/")) == {
        "colour-scheme": "system",
        "felt": "game",
        "card-back": "lattice",
        "card-size": "medium",
        "four-colour": "off",
        "sound": "off",
        "reduced-motion": "off",
        "single-tap": "off",
        "auto-foundation": "off",
    }
    assert not Profile.objects.filter(user=player).exists()


def test_saved_looks_are_stored_and_shown_on_the_settings_page(player_client, player):
    response = player_client.post(SETTINGS_URL, LOOKS_POST)

    assert response.status_code == 302
    assert looks(player) == {
        "felt": "aurora",
        "card_back": "summit",
        "card_size": "large",
        "colour_scheme": "dark",
        "four_colour_deck": True,
        "sound": True,
        "single_tap_moves": True,
        "auto_foundation": True,
    }
    page = player_client.get(SETTINGS_URL)
    assert checked_inputs(page) == {
        ("visibility", "public"),
        ("card_back", "summit"),
        ("card_size", "large"),
        ("colour_scheme", "dark"),
        ("four_colour_deck", "on"),
        ("sound", "on"),
        ("single_tap_moves", "on"),
        ("auto_foundation", "on"),
    }
    assert '<option value="aurora" selected>' in page.content.decode()


@pytest.mark.parametrize("path", ["/", "/games/", "/play/spike/", "/rules/spike/"])
def test_saved_looks_are_rendered_on_every_page(player_client, player, path):
    player_client.post(SETTINGS_URL, LOOKS_POST)

    response = player_client.get(path, follow=True)

    assert response.status_code == 200
    assert page_looks(response) == {
        "colour-scheme": "dark",
        "felt": "aurora",
        "card-back": "summit",
        "card-size": "large",
        "four-colour": "on",
        "sound": "on",
        "reduced-motion": "off",
        "single-tap": "on",
        "auto-foundation": "on",
    }


def test_a_post_without_the_looks_keeps_them(player_client, player):
    player_client.post(SETTINGS_URL, LOOKS_POST)

    player_client.post(SETTINGS_URL, {"visibility": "private"})

    assert looks(player)["felt"] == "aurora"
    assert looks(player)["card_size"] == "large"
    # Unticked boxes are off: a checkbox sends nothing when it is off.
    assert looks(player)["sound"] is False


@pytest.mark.parametrize("field", ["felt", "card_back", "card_size", "colour_scheme"])
def test_an_unknown_look_is_refused_and_changes_nothing(player_client, player, field):
    player_client.post(SETTINGS_URL, LOOKS_POST)
    before = looks(player)

    response = player_client.post(SETTINGS_URL, {**LOOKS_POST, field: "disco", "sound": ""})

    assert response.status_code == 400
    assert any("disco is not one of the available choices" in e for e in error_texts(response))
    assert looks(player) == before


def test_profile_update_refuses_an_unknown_look_and_stores_nothing(player):
    with pytest.raises(ValidationError):
        profile_update(
            user=player, public=True, highlight_moves=False, reduced_motion=False, felt="disco"
        )
    assert not Profile.objects.filter(user=player).exists()


def profile_queries(queries) -> list[str]:
    return [query["sql"] for query in queries if "accounts_profile" in query["sql"]]


def test_a_page_reads_the_profile_once_and_a_visitors_page_not_at_all(player_client):
    with CaptureQueriesContext(connection) as as_player:
        player_client.get("/games/")
    with CaptureQueriesContext(connection) as as_visitor:
        response = Client().get("/")

    assert len(profile_queries(as_player.captured_queries)) == 1
    assert profile_queries(as_visitor.captured_queries) == []
    assert page_looks(response)["felt"] == "game"


def test_a_board_partial_does_not_read_the_looks(player_client, player):
    player_client.post("/play/klondike/new/")
    game_id = Game.objects.get(player=player).id
    with CaptureQueriesContext(connection) as full:
        player_client.get(f"/games/{game_id}/")
    with CaptureQueriesContext(connection) as partial:
        response = player_client.get(f"/games/{game_id}/", headers={"HX-Request": "true"})

    assert "data-felt" not in response.content.decode()
    # The page's <body> costs one read of the profile; the partial has no <body>.
    assert len(profile_queries(partial.captured_queries)) == (
        len(profile_queries(full.captured_queries)) - 1
    )
