"""Services, selectors and template filters on their own."""

import pytest

from accounts.models import Profile
from accounts.selectors import profile_for_user
from accounts.services import profile_get_or_create, profile_update
from games.specs import game_keys
from players.selectors import profile_for_username
from players.templatetags.player_figures import figure, minutes_seconds, percentage


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0:00"), (5, "0:05"), (59, "0:59"), (60, "1:00"), (125, "2:05"), (3601, "60:01")],
)
def test_minutes_seconds(seconds, text):
    assert minutes_seconds(seconds) == text


def test_missing_figures_are_a_dash():
    assert minutes_seconds(None) == figure(None) == percentage(None) == "\N{EN DASH}"
    assert figure(0) == "0"


@pytest.mark.parametrize(("rate", "text"), [(0.0, "0%"), (1 / 3, "33%"), (0.5, "50%"), (1, "100%")])
def test_percentage(rate, text):
    assert percentage(rate) == text


@pytest.mark.django_db
def test_a_new_player_has_default_preferences_without_a_row(player):
    profile = profile_for_user(user=player)

    assert (profile.public, profile.highlight_moves, profile.reduced_motion) == (True, False, False)
    assert profile.pk is None
    assert not Profile.objects.exists()


@pytest.mark.django_db
def test_profile_get_or_create_makes_one_row(player):
    first = profile_get_or_create(user=player)
    second = profile_get_or_create(user=player)

    assert first.pk == second.pk
    assert Profile.objects.count() == 1


@pytest.mark.django_db
def test_profile_update_stores_the_preferences(player):
    profile_update(user=player, public=False, highlight_moves=True, reduced_motion=False)

    stored = Profile.objects.get(user=player)
    assert (stored.public, stored.highlight_moves, stored.reduced_motion) == (False, True, False)


@pytest.mark.django_db
def test_profile_for_username_hides_rows_from_others_only(player, make_user):
    profile_update(user=player, public=False, highlight_moves=False, reduced_motion=False)
    other = make_user(username="bob")

    as_other = profile_for_username(username=player.username, viewer=other)
    as_owner = profile_for_username(username=player.username, viewer=player)

    assert (as_other.stats_visible, as_other.rows, as_other.overall) == (False, [], None)
    assert as_owner.stats_visible
    assert as_owner.is_owner
    assert as_owner.overall is not None
    assert [row.key for row in as_owner.rows] == list(game_keys())
