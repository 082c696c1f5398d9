"""The player's own account (/me) and settings (/me/settings): read, and changed
through the web's settings form, by a session token or a browser session."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from accounts.forms import ProfileSettingsForm
from accounts.models import Profile
from accounts.services import profile_update
from tests.api.conftest import ApiClient, error_codes

pytestmark = pytest.mark.django_db

DEFAULTS = {
    "public": True,
    "felt": "game",
    "card_back": "lattice",
    "card_size": "medium",
    "colour_scheme": "system",
    "four_colour_deck": False,
    "sound": False,
    "highlight_moves": False,
    "reduced_motion": False,
    "single_tap_moves": False,
    "auto_foundation": False,
    "winnable_only": [],
}


def patch_json(client: Client, body, **extra):
    return client.patch(
        "/api/v1/me/settings", json.dumps(body), content_type="application/json", **extra
    )


def stored(player) -> dict:
    profile = Profile.objects.filter(user=player).first()
    if profile is None:
        return dict(DEFAULTS)
    return {name: getattr(profile, name) for name in DEFAULTS}


class TestMe:
    def test_the_token_gets_the_player(self, api, player):
        response = api.get("/api/v1/me")
        assert response.status_code == 200
        assert response.json() == {
            "username": "alice",
            "email": "alice@example.com",
            "date_joined": player.date_joined.isoformat().replace("+00:00", "Z"),
            "profile_url": "http://testserver/players/alice/",
        }

    def test_a_browser_session_gets_the_player(self, player_client):
        response = player_client.get("/api/v1/me")
        assert response.status_code == 200
        assert response.json()["username"] == "alice"

    def test_no_credentials_is_401(self, anonymous_api):
        response = anonymous_api.get("/api/v1/me")
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == "X-Session-Token"
        assert error_codes(response) == ["not_authenticated"]

    def test_a_dead_token_is_401(self):
        response = ApiClient(token="no-such-session").get("/api/v1/me")
        assert response.status_code == 401
        assert error_codes(response) == ["invalid_session_token"]


class TestSettingsRead:
    def test_a_new_player_has_the_defaults(self, api):
        response = api.get("/api/v1/me/settings")
        assert response.status_code == 200
        assert response.json() == DEFAULTS

    def test_reads_what_the_web_form_saved(self, player_client, player):
        profile_update(
            user=player,
            public=False,
            highlight_moves=True,
            reduced_motion=False,
            felt="navy",
            winnable_only=["spike", "klondike"],
        )
        response = player_client.get("/api/v1/me/settings")
        assert response.status_code == 200
        assert response.json() == {
            **DEFAULTS,
            "public": False,
            "highlight_moves": True,
            "felt": "navy",
            "winnable_only": ["klondike", "spike"],
        }

    def test_no_credentials_is_401(self, anonymous_api):
        response = anonymous_api.get("/api/v1/me/settings")
        assert response.status_code == 401
        assert error_codes(response) == ["not_authenticated"]


class TestSettingsPatch:
    def test_a_subset_changes_only_those(self, api, player):
        profile_update(user=player, public=True, highlight_moves=True, reduced_motion=True)
        response = api.patch(
            "/api/v1/me/settings",
            {"public": False, "card_size": "large", "sound": True, "winnable_only": ["steps"]},
        )
        assert response.status_code == 200
        expected = {
            **DEFAULTS,
            "public": False,
            "card_size": "large",
            "sound": True,
            "highlight_moves": True,
            "reduced_motion": True,
            "winnable_only": ["steps"],
        }
        assert response.json() == expected
        assert stored(player) == expected
        assert api.get("/api/v1/me/settings").json() == expected

    def test_every_setting_at_once(self, api, player):
        every = {
            "public": False,
            "felt": "aurora",
            "card_back": "deco",
            "card_size": "small",
            "colour_scheme": "dark",
            "four_colour_deck": True,
            "sound": True,
            "highlight_moves": True,
            "reduced_motion": True,
            "single_tap_moves": True,
            "auto_foundation": True,
            "winnable_only": ["spike", "klondike", "kingsley"],
        }
        response = api.patch("/api/v1/me/settings", every)
        assert response.status_code == 200
        assert response.json() == {**every, "winnable_only": ["klondike", "kingsley", "spike"]}

    def test_public_can_be_turned_back_on(self, api, player):
        profile_update(user=player, public=False, highlight_moves=False, reduced_motion=False)
        response = api.patch("/api/v1/me/settings", {"public": True})
        assert response.status_code == 200
        assert stored(player)["public"] is True

    def test_an_empty_patch_keeps_everything(self, api, player):
        profile_update(user=player, public=False, highlight_moves=True, reduced_motion=False)
        before = stored(player)
        response = api.patch("/api/v1/me/settings", {})
        assert response.status_code == 200
        assert stored(player) == before

    def test_a_browser_session_patches(self, player_client, player):
        response = patch_json(player_client, {"colour_scheme": "light"})
        assert response.status_code == 200
        assert stored(player)["colour_scheme"] == "light"

    @pytest.mark.parametrize(
        ("body", "param"),
        [
            ({"felt": "purple"}, "felt"),
            ({"card_back": 3}, "card_back"),
            ({"card_size": None}, "card_size"),
            ({"colour_scheme": ""}, "colour_scheme"),
            ({"public": "perhaps"}, "public"),
            # A flag is JSON's true or false, not a word or a number that reads as one.
            ({"public": "yes"}, "public"),
            ({"public": "true"}, "public"),
            ({"public": 1}, "public"),
            ({"reduced_motion": "on"}, "reduced_motion"),
            ({"four_colour_deck": 0}, "four_colour_deck"),
            ({"sound": [True]}, "sound"),
            ({"winnable_only": "klondike"}, "winnable_only"),
            ({"winnable_only": ["klondike", "freecell"]}, "winnable_only.1"),
            ({"visibility": "private"}, "visibility"),
            ({"felt": "navy", "card_colour": "red"}, "card_colour"),
        ],
    )
    def test_an_invalid_value_is_malformed_and_saves_nothing(self, api, player, body, param):
        response = api.patch("/api/v1/me/settings", {"sound": True, **body})
        assert response.status_code == 400
        assert response.json()["errors"][0]["code"] == "malformed"
        assert response.json()["errors"][0]["param"] == param
        assert not Profile.objects.filter(user=player).exists()

    def test_a_body_that_is_not_an_object_is_malformed(self, api, player):
        response = api.patch("/api/v1/me/settings", [{"sound": True}])
        assert response.status_code == 400
        assert error_codes(response) == ["malformed"]
        assert not Profile.objects.filter(user=player).exists()

    @pytest.mark.parametrize(
        ("form_field", "param"), [("card_size", "card_size"), ("visibility", "public")]
    )
    def test_the_settings_form_decides_and_its_refusal_names_the_setting(
        self, api, player, monkeypatch, form_field, param
    ):
        def refuse(form):
            raise ValidationError("Not today.")

        monkeypatch.setattr(ProfileSettingsForm, f"clean_{form_field}", refuse, raising=False)
        response = api.patch("/api/v1/me/settings", {"sound": True})
        assert response.status_code == 400
        assert response.json()["errors"] == [
            {"code": "malformed", "message": "Not today.", "param": param}
        ]
        assert not Profile.objects.filter(user=player).exists()

    def test_no_credentials_is_401_and_saves_nothing(self, anonymous_api, player):
        response = anonymous_api.patch("/api/v1/me/settings", {"sound": True})
        assert response.status_code == 401
        assert error_codes(response) == ["not_authenticated"]
        assert not Profile.objects.filter(user=player).exists()

    def test_a_browser_session_without_its_csrf_token_is_refused(self, player):
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(player)
        response = patch_json(browser, {"sound": True})
        assert response.status_code == 403
        assert error_codes(response) == ["csrf_failed"]
        assert not Profile.objects.filter(user=player).exists()
