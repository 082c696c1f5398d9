"""The profile page: figures per game and overall, and who may see them."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from accounts.services import profile_update
from games.models import Game
from games.services import game_start
from tests.accounts.conftest import without_csrf

pytestmark = pytest.mark.django_db

DASH = "\N{EN DASH}"


def profile_url(username):
    return reverse("players:profile", kwargs={"username": username})


def table_row(html, variant):
    """The cells of one row of the statistics table, as text."""
    match = re.search(rf'<tr data-variant="{variant}">(.*?)</tr>', html, flags=re.S)
    assert match, f"no {variant} row"
    return [cell.strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", match.group(1), re.S)]


@pytest.fixture
def alice_with_games(alice):
    """Two Klondike games: one won (score 512, 2:05, 93 moves), one still being played."""
    won = game_start(player=alice, variant="klondike")
    # There is no service to win a game without playing it: set the result directly.
    Game.objects.filter(pk=won.pk).update(
        status=Game.Status.WON,
        score=512,
        final_score=512,
        elapsed_ms=125_900,
        move_count=93,
        finished_at=timezone.now(),
    )
    game_start(player=alice, variant="klondike")
    return alice


def test_public_profile_shows_statistics_to_everyone(client, alice_with_games):
    response = client.get(profile_url("alice"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>alice</h1>" in html
    assert "Member since" in html
    # Game, played, won, win rate, best score, fastest win, total moves, win streak
    # (current, longest).
    assert table_row(html, "klondike") == [
        "Klondike",
        "2",
        "1",
        "50%",
        "512",
        "2:05",
        "93",
        "1",
        "1",
    ]
    assert table_row(html, "overall") == ["Overall", "2", "1", "50%", "512", "2:05", "93", "1", "1"]
    assert "This profile is private" not in html


def test_profile_of_a_player_without_games_shows_zeroes_and_dashes(client, alice):
    html = client.get(profile_url("alice")).content.decode()

    assert table_row(html, "klondike") == ["Klondike", "0", "0", "0%", DASH, DASH, "0", "0", "0"]
    assert table_row(html, "overall") == ["Overall", "0", "0", "0%", DASH, DASH, "0", "0", "0"]


def test_every_engine_variant_has_a_row(client, alice):
    from games.engine import get_variant
    from games.specs import game_keys

    html = client.get(profile_url("alice")).content.decode()

    for key in game_keys():  # the site's games: an engine-only variant has no row
        assert table_row(html, key)[0] == get_variant(key).name


def test_private_profile_hides_statistics_from_others(client, alice_with_games, make_user):
    profile_update(user=alice_with_games, public=False, highlight_moves=False, reduced_motion=False)
    client.force_login(make_user(username="bob"))

    response = client.get(profile_url("alice"))

    assert response.status_code == 200
    html = without_csrf(response.content.decode())
    assert "<h1>alice</h1>" in html
    assert "This profile is private." in html
    assert "Member since" not in html
    assert "data-variant" not in html
    assert "Statistics" not in html
    assert "2:05" not in html
    assert "512" not in html


def test_private_profile_hides_statistics_from_visitors(client, alice_with_games):
    profile_update(user=alice_with_games, public=False, highlight_moves=False, reduced_motion=False)

    html = client.get(profile_url("alice")).content.decode()

    assert "This profile is private." in html
    assert "data-variant" not in html


def test_owner_sees_their_private_profile_with_statistics(client, alice_with_games):
    profile_update(user=alice_with_games, public=False, highlight_moves=False, reduced_motion=False)
    client.force_login(alice_with_games)

    html = client.get(profile_url("alice")).content.decode()

    assert "This profile is private." not in html
    assert "only you can see these figures" in html
    assert table_row(html, "klondike") == [
        "Klondike",
        "2",
        "1",
        "50%",
        "512",
        "2:05",
        "93",
        "1",
        "1",
    ]


def test_unknown_username_is_404(client, alice):
    assert client.get(profile_url("nobody")).status_code == 404


def test_username_in_other_case_redirects_to_the_profile(client, alice):
    response = client.get(profile_url("ALICE"))

    assert response.status_code == 301
    assert response["Location"] == profile_url("alice")


def test_viewing_a_profile_writes_nothing(client, alice):
    client.get(profile_url("alice"))

    assert not Profile.objects.exists()


def test_profile_page_answers_get_only(client, alice):
    assert client.post(profile_url("alice")).status_code == 405
