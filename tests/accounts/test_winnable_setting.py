"""The settings page's "Winnable deals only": one box per game with a solver, stored
in Profile.winnable_only by a plain POST form; bad input changes nothing."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from accounts.models import Profile
from accounts.services import profile_update, winnable_only_choices
from games.services.pool import pool_game_choices, solver_available
from games.specs import game_specs
from tests.accounts.conftest import checked_inputs, error_texts

pytestmark = pytest.mark.django_db

SETTINGS_URL = "/settings/"
BASE_POST = {"visibility": "public"}

requires_spike_solver = pytest.mark.skipif(
    not solver_available(variant="spike"), reason="the Spike solver is not registered yet"
)


def offered() -> list[str]:
    return [key for key, _name in winnable_only_choices()]


def stored(user) -> list[str]:
    return Profile.objects.get(user=user).winnable_only


def test_the_games_offered_are_those_with_a_solver_in_the_site_order():
    expected = [
        (spec.key, spec.name) for spec in game_specs() if solver_available(variant=spec.key)
    ]
    assert winnable_only_choices() == expected == pool_game_choices()


@requires_spike_solver
def test_the_page_has_a_box_per_game_offered_none_ticked_at_first(client, alice):
    client.force_login(alice)
    response = client.get(SETTINGS_URL)
    html = response.content.decode()

    assert response.status_code == 200
    assert "Winnable deals only" in html
    assert "Certified winnable deal" in html
    for key, name in winnable_only_choices():
        assert f'name="winnable_only" value="{key}"' in html
        assert name in html
    assert not {value for name, value in checked_inputs(response) if name == "winnable_only"}


@requires_spike_solver
def test_ticking_games_stores_them_in_the_order_offered_and_unticking_clears(client, alice):
    client.force_login(alice)
    chosen = offered()[::-1][:2]

    response = client.post(SETTINGS_URL, {**BASE_POST, "winnable_only": chosen})

    assert response.status_code == 302
    assert stored(alice) == [key for key in offered() if key in chosen]
    page = client.get(SETTINGS_URL)
    assert {value for name, value in checked_inputs(page) if name == "winnable_only"} == set(chosen)

    client.post(SETTINGS_URL, BASE_POST)
    assert stored(alice) == []


@requires_spike_solver
def test_a_game_not_offered_is_refused_and_nothing_changes(client, alice):
    profile_update(
        user=alice, public=True, highlight_moves=True, reduced_motion=False, winnable_only=["spike"]
    )
    client.force_login(alice)

    response = client.post(
        SETTINGS_URL,
        {**BASE_POST, "visibility": "private", "winnable_only": ["spike", "chess"]},
    )

    assert response.status_code == 400
    assert any("chess" in text for text in error_texts(response))
    profile = Profile.objects.get(user=alice)
    assert profile.winnable_only == ["spike"]
    assert profile.public is True
    assert profile.highlight_moves is True


@requires_spike_solver
def test_the_service_refuses_a_game_not_offered_and_stores_nothing(alice):
    profile_update(user=alice, public=True, highlight_moves=False, reduced_motion=False)
    with pytest.raises(ValidationError):
        profile_update(
            user=alice,
            public=False,
            highlight_moves=True,
            reduced_motion=True,
            winnable_only=["spike", "not-a-game"],
        )
    profile = Profile.objects.get(user=alice)
    assert (profile.public, profile.winnable_only) == (True, [])


@requires_spike_solver
def test_a_caller_that_leaves_the_setting_out_keeps_it(alice):
    profile_update(
        user=alice,
        public=True,
        highlight_moves=False,
        reduced_motion=False,
        winnable_only=["spike"],
    )
    profile_update(user=alice, public=False, highlight_moves=False, reduced_motion=False)
    assert stored(alice) == ["spike"]


@requires_spike_solver
def test_the_form_needs_its_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post(SETTINGS_URL, {**BASE_POST, "winnable_only": ["spike"]})
    assert response.status_code == 403
    assert not Profile.objects.filter(user=alice, winnable_only=["spike"]).exists()


def test_the_setting_needs_a_login(client, alice):
    response = client.post(SETTINGS_URL, {**BASE_POST, "winnable_only": ["spike"]})
    assert response.status_code == 302
    assert not Profile.objects.filter(user=alice).exists()


@requires_spike_solver
def test_once_saved_a_new_deal_of_that_game_is_certified_and_others_are_not(
    client, alice, settings
):
    from django.urls import reverse

    from games.models import CertifiedSeed, Game

    settings.POOL_BACKGROUND_REFILL = False
    client.force_login(alice)
    client.post(SETTINGS_URL, {**BASE_POST, "winnable_only": ["spike"]})

    client.post(reverse("games:new_deal", args=["spike"]), {"mode": "relaxed"})
    game = Game.objects.get(player=alice, variant="spike")
    assert CertifiedSeed.objects.filter(pk=game.certified_seed_id, seed=game.seed).exists()

    client.post(SETTINGS_URL, BASE_POST)
    client.post(reverse("games:new_deal", args=["spike"]), {"mode": "relaxed", "confirm": "on"})
    newest = Game.objects.get(player=alice, variant="spike", status=Game.Status.ACTIVE)
    assert newest.certified_seed_id is None
    assert not CertifiedSeed.objects.filter(seed=newest.seed).exists()
