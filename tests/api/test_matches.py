"""Matches through the API: the modes, the lobby, making, joining, leaving, starting and
rematching, the quick-match queue, the ratings and a player's match history; a seat
plays its own game through the game endpoints."""

import pytest
from django.utils import timezone

from accounts.models import Profile
from games.models import Game
from matches.models import Match, PointsTable, QueueEntry, Seat
from tests.api.conftest import ApiClient, error_codes
from tests.matches.helpers import games_of, sprint

pytestmark = pytest.mark.django_db

MATCHES = "/api/v1/matches"

MATCH_FIELDS = {
    "id",
    "mode",
    "mode_name",
    "variant",
    "state",
    "state_label",
    "rated",
    "is_private",
    "invite_code",
    "created_by",
    "min_players",
    "max_players",
    "deadline_at",
    "remaining_seconds",
    "points_table_version",
    "seats",
    "your_game_id",
    "review",
    "shared_board",
}
SEAT_FIELDS = {
    "number",
    "username",
    "game_id",
    "score",
    "final_score",
    "cards_on_foundations",
    "move_count",
    "game_state",
    "public",
    "placement",
    "outcome",
}


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def bob_api(bob) -> ApiClient:
    client = ApiClient()
    assert client.log_in(bob.username).status_code == 200
    return client


@pytest.fixture
def carol_api(make_user) -> ApiClient:
    make_user("carol")
    client = ApiClient()
    assert client.log_in("carol").status_code == 200
    return client


def make(api: ApiClient, mode: str = "steps_sprint", **body):
    return api.post(MATCHES, {"mode": mode, **body})


def made(api: ApiClient, **body) -> dict:
    response = make(api, **body)
    assert response.status_code == 201, response.content
    return response.json()


def unchanged(match_id) -> tuple:
    match = Match.objects.get(id=match_id)
    seats = tuple(match.seats.order_by("number").values_list("player__username", flat=True))
    return match.status, seats


# The modes


def test_the_modes_say_which_are_open_to_the_player(api):
    response = api.get(f"{MATCHES}/modes")
    assert response.status_code == 200
    modes = {mode["key"]: mode for mode in response.json()}
    assert modes["steps_sprint"] == {
        "key": "steps_sprint",
        "name": "Steps: Architect's Sprint",
        "variant": "steps",
        "min_players": 1,
        "max_players": 4,
        "clock_seconds": 300,
        "shared_board": False,
        "turn_seconds": None,
        "is_open": True,
        "queued": False,
    }
    assert modes["klondike"]["is_open"] is False
    # The Duel's two clocks: the match's, and each turn's.
    duel = modes["steps_duel"]
    assert (duel["clock_seconds"], duel["shared_board"], duel["turn_seconds"]) == (1800, True, 30)


def test_klondike_opens_with_a_published_points_table_and_to_staff_before(api, make_user, player):
    staff = make_user("stella", is_staff=True)
    staff_api = ApiClient()
    staff_api.log_in(staff.username)
    assert _modes(staff_api)["klondike"]["is_open"] is True
    PointsTable.objects.create(version=1, points={}, note="test", published_at=timezone.now())
    assert _modes(api)["klondike"]["is_open"] is True


def _modes(api: ApiClient) -> dict:
    return {mode["key"]: mode for mode in api.get(f"{MATCHES}/modes").json()}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/modes"),
        ("get", ""),
        ("post", ""),
        ("post", "/queue/steps_sprint"),
        ("delete", "/queue/steps_sprint"),
        ("get", "/00000000-0000-0000-0000-000000000000"),
        ("post", "/00000000-0000-0000-0000-000000000000/join"),
        ("post", "/00000000-0000-0000-0000-000000000000/leave"),
        ("post", "/00000000-0000-0000-0000-000000000000/start"),
        ("post", "/00000000-0000-0000-0000-000000000000/rematch"),
    ],
)
def test_the_match_actions_need_a_login(anonymous_api, method, path):
    response = getattr(anonymous_api, method)(MATCHES + path)
    assert response.status_code == 401
    assert error_codes(response) == ["not_authenticated"]


# Making a match, the lobby


def test_a_new_match_seats_its_maker(api, player):
    response = make(api)
    assert response.status_code == 201
    match = response.json()
    assert set(match) == MATCH_FIELDS
    assert match["mode"] == "steps_sprint"
    assert match["state"] == "open"
    assert match["is_private"] is False
    assert match["created_by"] == player.username
    assert match["invite_code"] == Match.objects.get(id=match["id"]).invite_code
    assert match["remaining_seconds"] is None
    assert match["your_game_id"] is None
    (seat,) = match["seats"]
    assert set(seat) == SEAT_FIELDS
    assert seat["username"] == player.username
    assert seat["game_id"] is None


def test_a_mode_that_is_not_one_is_malformed(api):
    response = make(api, mode="chess")
    assert response.status_code == 400
    assert response.json()["errors"][0]["param"] == "mode"
    assert not Match.objects.exists()


def test_klondike_is_refused_until_its_points_table_is_published(api):
    response = make(api, mode="klondike")
    assert response.status_code == 409
    assert error_codes(response) == ["match_refused"]
    assert "points table is published" in response.json()["errors"][0]["message"]
    assert not Match.objects.exists()


def test_the_lobby_lists_open_public_matches_and_the_players_own(api, bob_api, bob, player):
    public = made(bob_api)
    made(bob_api, private=True)
    mine = made(api)
    response = api.get(MATCHES)
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert [row["id"] for row in body["results"]] == [public["id"], mine["id"]]
    assert body["results"][0] == {
        "id": public["id"],
        "mode": "steps_sprint",
        "mode_name": "Steps: Architect's Sprint",
        "created_by": bob.username,
        "seated": 1,
        "max_players": 4,
        "created_at": body["results"][0]["created_at"],
    }
    assert body["current"]["id"] == mine["id"]
    assert body["current"]["invite_code"] == mine["invite_code"]
    assert body["queued"] == []
    assert {"page", "num_pages", "next", "previous"} <= set(body)


def test_the_lobby_without_a_match_of_ones_own(api):
    body = api.get(MATCHES).json()
    assert body["count"] == 0
    assert body["current"] is None


# Seeing a match


def test_another_player_sees_an_open_public_match_without_its_invite_code(api, bob_api):
    match = made(bob_api)
    response = api.get(f"{MATCHES}/{match['id']}")
    assert response.status_code == 200
    assert response.json()["invite_code"] is None
    assert response.json()["your_game_id"] is None


def test_a_private_match_is_seen_with_its_invite_code_only(api, bob_api):
    match = made(bob_api, private=True)
    path = f"{MATCHES}/{match['id']}"
    assert api.get(path).status_code == 404
    assert error_codes(api.get(path, code="wrong")) == ["not_found"]
    assert api.get(path, code=match["invite_code"]).status_code == 200


def test_a_running_match_is_its_players_only(api, bob_api, carol_api):
    match = made(bob_api)
    api.post(f"{MATCHES}/{match['id']}/join")
    assert bob_api.post(f"{MATCHES}/{match['id']}/start").status_code == 200
    response = carol_api.get(f"{MATCHES}/{match['id']}")
    assert response.status_code == 404
    assert error_codes(response) == ["not_found"]
    assert api.get(f"{MATCHES}/{match['id']}").status_code == 200


def test_a_match_that_does_not_exist(api):
    response = api.get(f"{MATCHES}/00000000-0000-0000-0000-000000000000")
    assert response.status_code == 404
    assert error_codes(response) == ["not_found"]


# Joining, leaving, starting


def test_joining_a_private_match_takes_its_code(api, bob_api, player):
    match = made(bob_api, private=True)
    # Without its code (or with another) it is a match the player cannot see: the 404
    # its GET answers.
    for body in ({}, {"code": "guess"}):
        assert api.get(f"{MATCHES}/{match['id']}", **body).status_code == 404
        refused = api.post(f"{MATCHES}/{match['id']}/join", body)
        assert refused.status_code == 404
        assert error_codes(refused) == ["not_found"]
    assert unchanged(match["id"]) == ("open", ("bob",))
    joined = api.post(f"{MATCHES}/{match['id']}/join", {"code": match["invite_code"]})
    assert joined.status_code == 200
    assert [seat["username"] for seat in joined.json()["seats"]] == ["bob", player.username]
    assert joined.json()["invite_code"] == match["invite_code"]


def test_joining_a_started_match_of_others_is_a_404_as_its_get(api, bob_api):
    match = made(bob_api)
    bob_api.post(f"{MATCHES}/{match['id']}/start")
    assert api.get(f"{MATCHES}/{match['id']}").status_code == 404
    response = api.post(f"{MATCHES}/{match['id']}/join")
    assert response.status_code == 404
    assert error_codes(response) == ["not_found"]
    assert unchanged(match["id"]) == ("running", ("bob",))
    # Its own player sees it, and is told why.
    again = bob_api.post(f"{MATCHES}/{match['id']}/join")
    assert again.status_code == 409
    assert error_codes(again) == ["match_refused"]
    assert "has started" in again.json()["errors"][0]["message"]


def test_a_code_longer_than_any_is_malformed(api, bob_api):
    match = made(bob_api)
    response = api.post(f"{MATCHES}/{match['id']}/join", {"code": "x" * 33})
    assert response.status_code == 400
    assert response.json()["errors"][0]["param"] == "code"
    assert unchanged(match["id"]) == ("open", ("bob",))


def test_joining_a_match_that_does_not_exist(api):
    response = api.post(f"{MATCHES}/00000000-0000-0000-0000-000000000000/join")
    assert response.status_code == 404


def test_leaving_frees_the_seat_and_the_last_one_out_cancels(api, bob_api):
    match = made(bob_api)
    api.post(f"{MATCHES}/{match['id']}/join")
    response = api.post(f"{MATCHES}/{match['id']}/leave")
    assert response.status_code == 204
    assert response.content == b""
    assert unchanged(match["id"]) == ("open", ("bob",))
    assert bob_api.post(f"{MATCHES}/{match['id']}/leave").status_code == 204
    assert Match.objects.get(id=match["id"]).status == Match.Status.CANCELLED


def test_leaving_a_match_without_a_seat_in_it_is_a_404(api, bob_api):
    match = made(bob_api)
    response = api.post(f"{MATCHES}/{match['id']}/leave")
    assert response.status_code == 404
    assert unchanged(match["id"]) == ("open", ("bob",))


def test_leaving_a_running_match_is_refused(api, bob_api):
    match = made(bob_api)
    bob_api.post(f"{MATCHES}/{match['id']}/start")
    response = bob_api.post(f"{MATCHES}/{match['id']}/leave")
    assert response.status_code == 409
    assert error_codes(response) == ["match_refused"]
    assert unchanged(match["id"]) == ("running", ("bob",))


def test_only_its_maker_starts_a_match(api, bob_api, carol_api):
    match = made(bob_api)
    api.post(f"{MATCHES}/{match['id']}/join")
    refused = api.post(f"{MATCHES}/{match['id']}/start")
    assert refused.status_code == 403
    assert error_codes(refused) == ["permission_denied"]
    assert "Only the player who made" in refused.json()["errors"][0]["message"]
    assert carol_api.post(f"{MATCHES}/{match['id']}/start").status_code == 404
    assert unchanged(match["id"])[0] == "open"
    started = bob_api.post(f"{MATCHES}/{match['id']}/start")
    assert started.status_code == 200
    body = started.json()
    assert body["state"] == "running"
    assert 0 < body["remaining_seconds"] <= 300
    assert all(seat["game_id"] for seat in body["seats"])
    assert body["your_game_id"] == body["seats"][0]["game_id"]
    assert body["shared_board"] is False


def test_a_full_sprint_waits_for_its_maker_to_start_it(api, bob_api, make_user):
    match = made(bob_api)
    api.post(f"{MATCHES}/{match['id']}/join")
    for name in ("carol", "dave"):
        make_user(name)
        client = ApiClient()
        client.log_in(name)
        joined = client.post(f"{MATCHES}/{match['id']}/join")
        assert joined.status_code == 200
    assert joined.json()["state"] == "open"
    assert [seat["game_id"] for seat in joined.json()["seats"]] == [None] * 4
    started = bob_api.post(f"{MATCHES}/{match['id']}/start")
    assert started.status_code == 200
    assert started.json()["state"] == "running"
    assert all(seat["game_id"] for seat in started.json()["seats"])


# Playing a match's game through the game endpoints


def test_a_seat_plays_its_own_game_and_only_its_own(api, bob_api, player, bob):
    match = sprint(player, bob)
    mine, bobs = games_of(match)
    state = api.get(f"/api/v1/games/{mine.id}")
    assert state.status_code == 200
    assert state.json()["match_id"] == str(match.id)
    assert state.json()["track"] == "match"
    assert api.get(f"/api/v1/games/{bobs.id}").status_code == 404
    move = state.json()["legal_moves"][0]
    played = api.post(f"/api/v1/games/{mine.id}/moves", {"move": move, "revision": 0})
    assert played.status_code == 200
    assert played.json()["game"]["match_id"] == str(match.id)
    stolen = api.post(f"/api/v1/games/{bobs.id}/moves", {"move": move, "revision": 0})
    assert stolen.status_code == 404
    assert Game.objects.get(id=bobs.id).revision == 0


def test_a_casual_game_has_no_match(api):
    state = api.post("/api/v1/games", {"variant": "steps"}).json()
    assert state["match_id"] is None


def test_a_match_game_takes_no_hint_and_no_restart_in_the_one_error_shape(api, player, bob):
    game = games_of(sprint(player, bob))[0]
    hint = api.post(f"/api/v1/games/{game.id}/hint", {"revision": 0})
    assert hint.status_code == 422
    assert hint.json()["errors"] == [
        {
            "code": "illegal_move",
            "message": "A match is raced without hints: the solver would play for you.",
            "param": None,
        }
    ]
    assert hint.json()["game"]["hints_used"] == 0
    restart = api.post(f"/api/v1/games/{game.id}/restart", {"confirm": True})
    assert restart.status_code == 422
    assert error_codes(restart) == ["illegal_move"]
    assert "not restarted" in restart.json()["errors"][0]["message"]
    assert restart.json()["game"]["id"] == str(game.id)
    assert Game.objects.filter(player=player).count() == 1


# A whole Sprint through the API


def test_a_whole_sprint_of_two_players_through_the_api(api, bob_api, player, bob):
    match_id = made(api)["id"]
    assert bob_api.post(f"{MATCHES}/{match_id}/join").status_code == 200
    started = api.post(f"{MATCHES}/{match_id}/start").json()
    assert started["state"] == "running"
    for client in (api, bob_api):
        game_id = client.get(f"{MATCHES}/{match_id}").json()["your_game_id"]
        state = client.get(f"/api/v1/games/{game_id}").json()
        played = client.post(
            f"/api/v1/games/{game_id}/moves",
            {"move": state["legal_moves"][0], "revision": state["revision"]},
        ).json()["game"]
        assert played["move_count"] == 1
        finished = client.post(
            f"/api/v1/games/{game_id}/finish", {"revision": played["revision"], "confirm": True}
        )
        assert finished.status_code == 200
        assert finished.json()["game"]["is_active"] is False
    settled_response = api.get(f"{MATCHES}/{match_id}")
    assert Match.objects.get(id=match_id).seed not in settled_response.content.decode()
    settled = settled_response.json()
    assert settled["state"] == "finished"
    assert settled["remaining_seconds"] == 0
    assert sorted(seat["placement"] for seat in settled["seats"]) in ([1, 1], [1, 2])
    assert all(seat["outcome"] in ("win", "draw", "loss") for seat in settled["seats"])
    assert all(seat["move_count"] == 1 for seat in settled["seats"])
    history = bob_api.get(f"/api/v1/players/{player.username}/matches").json()
    assert history["count"] == 1
    (row,) = history["results"]
    seat = Seat.objects.get(match_id=match_id, player=player)
    assert row == {
        "match_id": match_id,
        "mode": "steps_sprint",
        "mode_name": "Steps: Architect's Sprint",
        "started_at": row["started_at"],
        "finished_at": row["finished_at"],
        "rated": True,
        "review": None,
        "score": seat.score,
        "placement": seat.placement,
        "outcome": seat.outcome,
    }
    rematch = api.post(f"{MATCHES}/{match_id}/rematch")
    assert rematch.status_code == 200
    assert rematch.json()["is_private"] is True
    joined = bob_api.post(f"{MATCHES}/{match_id}/rematch").json()
    assert joined["id"] == rematch.json()["id"]
    assert [seat["username"] for seat in joined["seats"]] == [player.username, bob.username]


def test_a_rematch_is_offered_once_the_match_is_over(api, bob_api, carol_api):
    match = made(api)
    bob_api.post(f"{MATCHES}/{match['id']}/join")
    response = api.post(f"{MATCHES}/{match['id']}/rematch")
    assert response.status_code == 409
    assert error_codes(response) == ["match_refused"]
    assert carol_api.post(f"{MATCHES}/{match['id']}/rematch").status_code == 404
    assert Match.objects.count() == 1


# The quick-match queue


def test_quick_match_pairs_two_api_players(api, bob_api, player, bob):
    waiting = api.post(f"{MATCHES}/queue/steps_sprint")
    assert waiting.status_code == 202
    assert waiting.json() == {"waiting": True}
    assert _modes(api)["steps_sprint"]["queued"] is True
    paired = bob_api.post(f"{MATCHES}/queue/steps_sprint")
    assert paired.status_code == 200
    match = paired.json()
    assert match["state"] == "running"
    assert {seat["username"] for seat in match["seats"]} == {player.username, bob.username}
    assert match["your_game_id"] is not None
    assert api.get(MATCHES).json()["current"]["id"] == match["id"]
    assert not QueueEntry.objects.exists()


def test_quick_match_of_a_two_player_mode_makes_one_match_both_are_told_of(
    api, bob_api, player, bob
):
    assert api.post(f"{MATCHES}/queue/steps_duel").status_code == 202
    paired = bob_api.post(f"{MATCHES}/queue/steps_duel")
    assert paired.status_code == 200
    match = paired.json()
    assert match["state"] == "running"
    assert {seat["username"] for seat in match["seats"]} == {player.username, bob.username}
    # Each look at the lobby (which pairs the queues without a worker) tells both the
    # same match, and makes no other.
    for _ in range(3):
        for client in (api, bob_api):
            lobby = client.get(MATCHES).json()
            assert lobby["current"]["id"] == match["id"]
            assert lobby["queued"] == []
    assert Match.objects.count() == 1
    assert not QueueEntry.objects.exists()


def test_leaving_the_queue(api, player):
    api.post(f"{MATCHES}/queue/steps_sprint")
    response = api.delete(f"{MATCHES}/queue/steps_sprint")
    assert response.status_code == 204
    assert not QueueEntry.objects.filter(player=player).exists()
    assert api.get(MATCHES).json()["queued"] == []


def test_the_queue_of_a_mode_that_is_not_one_or_is_closed(api):
    assert error_codes(api.post(f"{MATCHES}/queue/chess")) == ["not_found"]
    assert api.delete(f"{MATCHES}/queue/chess").status_code == 404
    closed = api.post(f"{MATCHES}/queue/klondike")
    assert closed.status_code == 409
    assert error_codes(closed) == ["match_refused"]
    assert not QueueEntry.objects.exists()


# Ratings and history


def _settle_both_finished(match: Match) -> None:
    from games import services as games_services

    for game in games_of(match):
        games_services.game_finish(game_id=game.id, player=game.player, revision=game.revision)


def test_the_ratings_leaderboard_is_public(
    anonymous_api, player, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _settle_both_finished(sprint(player, bob))
    response = anonymous_api.get(f"{MATCHES}/ratings/steps_sprint")
    assert response.status_code == 200
    body = response.json()
    assert body["mode"] == "steps_sprint"
    assert body["count"] == 2
    assert [row["rank"] for row in body["results"]] == [1, 2]
    assert set(body["results"][0]["rating"]) == {
        "mode",
        "mode_name",
        "rating",
        "deviation",
        "provisional",
        "display",
        "matches",
    }
    assert body["results"][0]["rating"]["matches"] == 1


def test_the_ratings_of_a_mode_that_is_not_one(anonymous_api):
    response = anonymous_api.get(f"{MATCHES}/ratings/chess")
    assert response.status_code == 404
    assert error_codes(response) == ["not_found"]


def test_a_players_ratings_come_with_their_history(
    anonymous_api, player, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _settle_both_finished(sprint(player, bob))
    body = anonymous_api.get(f"/api/v1/players/{player.username}/matches").json()
    assert body["stats_visible"] is True
    assert body["is_owner"] is False
    (rating,) = body["ratings"]
    assert rating["mode"] == "steps_sprint"
    assert rating["matches"] == 1
    (point,) = rating["history"]
    assert point["rating"] == rating["rating"]
    assert set(point) == {"at", "rating", "won"}


def test_a_private_profiles_match_history_is_its_owners_only(api, anonymous_api, player, bob):
    _settle_both_finished(sprint(player, bob))
    Profile.objects.update_or_create(user=player, defaults={"public": False})
    hidden = anonymous_api.get(f"/api/v1/players/{player.username}/matches").json()
    assert hidden["stats_visible"] is False
    assert hidden["count"] == 0
    assert hidden["results"] == []
    assert hidden["ratings"] == []
    own = api.get(f"/api/v1/players/{player.username}/matches").json()
    assert own["is_owner"] is True
    assert own["count"] == 1


def test_the_match_history_of_nobody(anonymous_api):
    response = anonymous_api.get("/api/v1/players/nobody/matches")
    assert response.status_code == 404
    assert error_codes(response) == ["not_found"]
