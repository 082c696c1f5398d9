"""The match pages: the lobby, a match's page, the live panel beside a board, the
ratings, and the ratings and matches on a profile."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import profile_update
from games import services as games_services
from games.engine import get_variant
from matches import services
from matches.models import Match
from tests.matches.helpers import games_of, sprint

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def settle(match: Match) -> None:
    for game in games_of(match):
        game.refresh_from_db()
        games_services.game_finish(game_id=game.id, player=game.player, revision=game.revision)


def test_the_lobby_offers_quick_match_and_making_a_match(player_client):
    page = player_client.get(reverse("matches:lobby")).content.decode()
    assert 'id="quick-match-steps_sprint"' in page
    assert 'id="create-steps_sprint"' in page
    assert 'id="closed-klondike"' in page


def test_a_match_made_in_the_lobby_waits_with_its_invite_link(player_client, player):
    response = player_client.post(
        reverse("matches:create"), {"mode": "steps_sprint", "private": "on"}
    )
    match = Match.objects.get()
    assert response["Location"] == reverse("matches:detail", kwargs={"match_id": match.id})
    page = player_client.get(response["Location"]).content.decode()
    assert match.invite_code in page
    assert 'id="start-match"' in page
    assert match.seed not in page


def test_a_private_match_is_a_404_without_its_code_and_joinable_with_it(client, player, bob):
    match = services.match_create(player=player, mode="steps_sprint", private=True)
    client.force_login(bob)
    url = reverse("matches:detail", kwargs={"match_id": match.id})
    assert client.get(url).status_code == 404
    join = reverse("matches:join", kwargs={"match_id": match.id})
    assert client.post(join).status_code == 404
    assert client.post(join, {"code": "guess"}).status_code == 404
    invited = client.get(url, {"code": match.invite_code}).content.decode()
    assert 'id="join-match"' in invited
    assert match.invite_code in invited  # in the join form, the one link bob was given
    joined = client.post(
        reverse("matches:join", kwargs={"match_id": match.id}), {"code": match.invite_code}
    )
    assert joined.status_code == 302
    assert match.seats.count() == 2


def test_a_refusal_comes_back_as_a_message(player_client, player, bob):
    match = sprint(bob, player, start=False)
    response = player_client.post(
        reverse("matches:start", kwargs={"match_id": match.id}), follow=True
    )
    assert "Only the player who made the match starts it." in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN


def test_a_running_match_sends_its_player_to_their_board(player_client, player, bob):
    match = sprint(player, bob)
    mine = games_of(match)[0]
    response = player_client.get(reverse("matches:detail", kwargs={"match_id": match.id}))
    assert response["Location"] == reverse("games:detail", kwargs={"game_id": mine.id})
    board = player_client.get(response["Location"]).content.decode()
    assert reverse("matches:live", kwargs={"match_id": match.id}) in board
    assert 'id="restart"' not in board
    assert 'id="hint"' not in board


def test_the_live_panel_shows_every_seat_and_only_to_its_players(
    player_client, player, bob, make_user, client
):
    match = sprint(player, bob)
    url = reverse("matches:live", kwargs={"match_id": match.id})
    panel = player_client.get(url).content.decode()
    assert f'ws-connect="/ws/matches/{match.id}/"' in panel
    assert "bob" in panel
    assert 'id="match-clock"' in panel
    client.force_login(make_user("eve"))
    assert client.get(url).status_code == 404


def test_the_live_panel_shows_figures_while_it_runs_and_the_final_tables_after(
    player_client, player, bob
):
    """While the match runs a seat's row is its figures, labelled, and no card; once
    it is over, every seat's final table with each face-up card."""
    match = sprint(player, bob)
    bobs = games_of(match)[1]
    bobs.refresh_from_db()
    games_services.game_move_play(game_id=bobs.id, player=bob, move="draw", revision=0)
    url = reverse("matches:live", kwargs={"match_id": match.id})
    panel = player_client.get(url).content.decode()
    for label in ("Score", "On foundations", "Moves", "Status"):
        assert f"<dt>{label}</dt>" in panel
    assert "data-card" not in panel
    assert "final table" not in panel
    settle(match)
    panel = player_client.get(url).content.decode()
    for game in games_of(match):
        game.refresh_from_db()
        assert f"{game.player.username}'s final table" in panel
        public = get_variant("steps").public_view(get_variant("steps").load(game.state))
        for pile in public["tableau"]:
            for card in pile["up"]:
                assert f'data-card="{card}"' in panel


def test_a_finished_match_shows_its_places_and_offers_a_rematch(player_client, player, bob):
    match = sprint(player, bob)
    settle(match)
    page = player_client.get(reverse("matches:detail", kwargs={"match_id": match.id}))
    assert 'id="rematch"' in page.content.decode()
    rematch = player_client.post(reverse("matches:rematch", kwargs={"match_id": match.id}))
    new = Match.objects.exclude(id=match.id).get()
    assert new.rematch_of == match
    assert new.is_private
    assert rematch["Location"] == reverse("matches:detail", kwargs={"match_id": new.id})


def test_the_ratings_page_and_the_profile_show_the_ratings(
    player_client, player, bob, django_capture_on_commit_callbacks
):
    match = sprint(player, bob)
    with django_capture_on_commit_callbacks(execute=True):  # the ratings' task
        settle(match)
    ratings = player_client.get(reverse("matches:ratings", kwargs={"mode": "steps_sprint"}))
    assert ratings.status_code == 200
    assert "1500?" in ratings.content.decode()
    profile = player_client.get(reverse("players:profile", kwargs={"username": "bob"}))
    text = profile.content.decode()
    assert 'id="profile-matches"' in text
    assert 'id="recent-matches"' in text
    assert "rating-steps_sprint" in text
    profile_update(user=bob, public=False, highlight_moves=False, reduced_motion=False)
    hidden = player_client.get(reverse("players:profile", kwargs={"username": "bob"}))
    assert 'id="recent-matches"' not in hidden.content.decode()


def test_quick_match_takes_both_players_to_their_one_match(client, player, bob):
    """Both press Quick match for the Duel: the second is paired at once and taken to
    the match; the first's lobby, looking again every 5 s, is taken there too."""
    lobby = reverse("matches:lobby")
    client.force_login(player)
    assert client.post(reverse("matches:queue_join", args=["steps_duel"]))["Location"] == lobby
    waiting = client.get(lobby).content.decode()
    assert "Looking for an opponent" in waiting
    poll = f"{lobby}?waiting=steps_duel"
    assert f'hx-get="{poll}"' in waiting
    bobs = Client()
    bobs.force_login(bob)
    match_page = bobs.post(reverse("matches:queue_join", args=["steps_duel"]))["Location"]
    match = Match.objects.get()
    assert match_page == reverse("matches:detail", kwargs={"match_id": match.id})
    assert match.status == Match.Status.RUNNING
    looked = client.get(poll, headers={"HX-Request": "true"})
    assert looked["HX-Redirect"] == match_page
    # Looking again (the poll of a lobby left open) makes no other match.
    for _ in range(3):
        page = client.get(lobby, headers={"HX-Request": "true"}).content.decode()
        assert "Looking for an opponent" not in page
        assert f'href="{match_page}"' in page
    assert Match.objects.count() == 1


def test_a_player_with_a_match_running_is_told_the_quick_match_waits_for_its_end(
    client, player, bob, make_user
):
    """A player seated in a running match is not paired from a queue: the lobby says
    the quick match waits until that match is over, and then pairs them."""
    lobby = reverse("matches:lobby")
    running = sprint(player, bob)
    client.force_login(player)
    client.post(reverse("matches:queue_join", args=["steps_duel"]))
    services.queue_join(player=make_user("carol"), mode="steps_duel")
    assert Match.objects.filter(mode="steps_duel").count() == 0
    page = client.get(lobby).content.decode()
    assert "Looking for an opponent once your match is over" in page
    settle(running)
    assert client.get(lobby).status_code == 200  # the look pairs them, without a worker
    assert Match.objects.filter(mode="steps_duel", seats__player=player).count() == 1
