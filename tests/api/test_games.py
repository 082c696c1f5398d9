"""The games offered, starting, resuming and restarting a game, its state and the history."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game
from games.specs import game_keys
from games.throttles import DealRateThrottle
from games.tracks import casual_track
from tests.api.conftest import ApiClient, error_codes

pytestmark = pytest.mark.django_db

STATE_FIELDS = {
    "id",
    "variant",
    "variant_name",
    "options",
    "state",
    "state_label",
    "is_active",
    "revision",
    "score",
    "final_score",
    "time_scored",
    "move_count",
    "undo_count",
    "hints_used",
    "elapsed_seconds",
    "remaining_seconds",
    "can_undo",
    "undos_left",
    "track",
    "match_id",
    "is_ranked",
    "is_practice_restart",
    "daily_label",
    "certified_winnable",
    "public",
    "legal_moves",
    "started_at",
    "last_action_at",
    "finished_at",
    "goal",
    "scenario",
    "review",
}


def start(api: ApiClient, variant: str = "klondike", **body):
    return api.post("/api/v1/games", {"variant": variant, **body})


def test_the_games_offered_come_from_the_registry_with_their_options(anonymous_api):
    response = anonymous_api.get("/api/v1/variants")
    assert response.status_code == 200
    games = {game["key"]: game for game in response.json()}
    assert list(games) == list(game_keys())
    assert games["klondike"]["options"] == []
    assert games["klondike"]["rules_url"] == "http://testserver/rules/klondike/"
    steps = {option["name"]: option for option in games["steps"]["options"]}
    assert steps["draw"]["kind"] == "choice"
    assert [choice["value"] for choice in steps["draw"]["choices"]] == [1, 3]
    assert steps["buffers"] == {
        "name": "buffers",
        "label": "Reserve slots",
        "kind": "integer",
        "default": 4,
        "min": 0,
        "max": 4,
    }
    assert steps["retrieval"]["kind"] == "boolean"
    assert steps["retrieval"]["default"] is False
    (mode,) = games["spike"]["options"]
    assert [choice["value"] for choice in mode["choices"]] == ["classic", "time_attack", "relaxed"]
    assert mode["default"] == "classic"


def test_a_new_game_is_dealt_with_the_default_options(api, player):
    response = start(api)
    assert response.status_code == 201
    state = response.json()
    assert set(state) == STATE_FIELDS
    game = Game.objects.get(player=player)
    assert state["id"] == str(game.id)
    assert state["revision"] == 0
    assert state["state"] == "active"
    assert state["track"] == "casual"
    assert "draw" in state["legal_moves"]
    assert state["public"]["stock"] == 24
    assert game.seed not in response.content.decode()


def test_options_left_out_take_their_defaults(api, player):
    response = start(api, "steps", options={"draw": 3, "retrieval": True})
    assert response.status_code == 201
    options = response.json()["options"]
    assert options["draw"] == 3
    assert options["retrieval"] is True
    assert options["buffers"] == 4
    assert Game.objects.get(player=player).options == options


@pytest.mark.parametrize(
    ("variant", "options", "param"),
    [
        ("steps", {"buffers": 9}, "options.buffers"),
        ("steps", {"draw": 2}, "options.draw"),
        ("steps", {"colour": "red"}, "options.colour"),
        ("klondike", {"draw": 1}, "options.draw"),
        ("spike", {"mode": "blitz"}, "options.mode"),
        # Only JSON's own types: a number is a JSON number of ASCII digits, a flag a
        # JSON true or false ("٣" is Arabic-Indic three, which int() reads).
        ("steps", {"buffers": "\u0663"}, "options.buffers"),
        ("steps", {"buffers": "3"}, "options.buffers"),
        ("steps", {"buffers": 3.0}, "options.buffers"),
        ("steps", {"buffers": True}, "options.buffers"),
        ("steps", {"recycles": "\u0661"}, "options.recycles"),
        ("steps", {"draw": "3"}, "options.draw"),
        ("steps", {"draw": True}, "options.draw"),
        ("steps", {"retrieval": "no"}, "options.retrieval"),
        ("steps", {"retrieval": 1}, "options.retrieval"),
        ("spike", {"mode": ["classic"]}, "options.mode"),
    ],
)
def test_options_a_game_does_not_take_are_refused_and_deal_nothing(
    api, player, variant, options, param
):
    response = start(api, variant, options=options)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["code"] == "malformed"
    assert error["param"] == param
    assert not Game.objects.filter(player=player).exists()


@pytest.mark.parametrize("variant", ["chess", "0", "Klondike", 1])
def test_an_unknown_game_is_refused(api, player, variant):
    response = start(api, variant)
    assert response.status_code == 400
    assert response.json()["errors"][0]["param"] == "variant"
    assert not Game.objects.filter(player=player).exists()


def test_the_schema_names_the_games_a_deal_may_ask_for(anonymous_api):
    schema = anonymous_api.get("/api/v1/schema", format="json").json()
    body = schema["paths"]["/api/v1/games"]["post"]["requestBody"]["content"]
    request = body["application/json"]["schema"]["$ref"].rpartition("/")[2]
    (variant,) = schema["components"]["schemas"][request]["properties"]["variant"]["allOf"]
    enum = schema["components"]["schemas"][variant["$ref"].rpartition("/")[2]]["enum"]
    assert enum == list(game_keys())


@pytest.mark.parametrize("confirm", ["yes", "true", 1, "on"])
def test_confirm_is_a_json_true_or_false(api, player, confirm):
    assert start(api, "klondike").status_code == 201
    response = start(api, "klondike", confirm=confirm)
    assert response.status_code == 400
    assert response.json()["errors"][0]["param"] == "confirm"
    assert Game.objects.filter(player=player).count() == 1


def test_a_body_that_is_not_json_is_refused(api, player):
    broken = api.client.post(
        "/api/v1/games", "{not json", content_type="application/json", headers=api.headers
    )
    assert broken.status_code == 400
    assert error_codes(broken) == ["malformed"]
    form = api.client.post("/api/v1/games", {"variant": "klondike"}, headers=api.headers)
    assert form.status_code == 415
    assert error_codes(form) == ["unsupported_media_type"]
    assert not Game.objects.filter(player=player).exists()


def test_a_new_deal_over_a_game_in_progress_asks_first(api, player):
    first = start(api).json()
    asked = start(api)
    assert asked.status_code == 409
    assert error_codes(asked) == ["confirmation_required"]
    assert asked.json()["game"]["id"] == first["id"]
    assert Game.objects.filter(player=player).count() == 1
    confirmed = start(api, confirm=True)
    assert confirmed.status_code == 201
    assert Game.objects.get(id=first["id"]).status == Game.Status.ABANDONED
    assert confirmed.json()["id"] != first["id"]


def test_resume_finds_the_game_in_progress(api):
    missing = api.get("/api/v1/variants/klondike/active")
    assert missing.status_code == 404
    assert error_codes(missing) == ["no_active_game"]
    started = start(api).json()
    resumed = api.get("/api/v1/variants/klondike/active")
    assert resumed.status_code == 200
    assert resumed.json() == {**started, "elapsed_seconds": resumed.json()["elapsed_seconds"]}
    assert api.get("/api/v1/variants/chess/active").status_code == 404


def test_every_game_endpoint_needs_a_login(anonymous_api, player):
    game = services.game_start(player=player, variant="klondike")
    for path in ("/api/v1/games", f"/api/v1/games/{game.id}", "/api/v1/variants/klondike/active"):
        response = anonymous_api.get(path)
        assert response.status_code == 401
        assert error_codes(response) == ["not_authenticated"]
        assert response["WWW-Authenticate"] == "X-Session-Token"
    refused = anonymous_api.post("/api/v1/games", {"variant": "klondike"})
    assert refused.status_code == 401
    assert Game.objects.count() == 1


def test_a_token_that_names_no_session_is_refused(player):
    response = ApiClient(token="not-a-session").get("/api/v1/games")
    assert response.status_code == 401
    assert error_codes(response) == ["invalid_session_token"]


def test_a_game_state_has_a_weak_etag_to_poll_with(api):
    game = start(api).json()
    path = f"/api/v1/games/{game['id']}"
    first = api.get(path)
    assert first.status_code == 200
    assert first["ETag"] == 'W/"0.0.active"'
    assert first["Last-Modified"]
    assert first["Cache-Control"] == "private, no-cache"
    unchanged = api.get(path, headers={"If-None-Match": first["ETag"]})
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    api.post(f"{path}/moves", {"move": "draw", "revision": 0})
    changed = api.get(path, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    assert changed["ETag"] == 'W/"1.0.active"'
    assert changed.json()["revision"] == 1


def test_another_players_game_is_not_found(api, make_user):
    other = services.game_start(player=make_user("bob"), variant="klondike")
    for path in (f"/api/v1/games/{other.id}", f"/api/v1/games/{other.id}/restart"):
        response = api.get(path) if path.endswith(str(other.id)) else api.post(path)
        assert response.status_code == 404
        assert error_codes(response) == ["not_found"]
    unknown = api.get("/api/v1/games/00000000-0000-0000-0000-000000000000")
    assert unknown.status_code == 404
    assert unknown.json() == {
        "status": 404,
        "errors": [{"code": "not_found", "message": "No such game.", "param": None}],
    }


def test_a_timed_game_past_its_deadline_is_closed_by_the_look(api, player):
    game = services.game_start(player=player, variant="klondike", track=casual_track())
    Game.objects.filter(id=game.id).update(
        time_limit_seconds=240, deadline_at=timezone.now() - timedelta(seconds=1)
    )
    state = api.get(f"/api/v1/games/{game.id}").json()
    assert state["state"] == "finished"
    assert state["legal_moves"] == []


def test_restart_deals_the_same_cards_again_once_confirmed(api, player):
    game = start(api).json()
    path = f"/api/v1/games/{game['id']}/restart"
    asked = api.post(path)
    assert asked.status_code == 409
    assert error_codes(asked) == ["confirmation_required"]
    assert Game.objects.filter(player=player).count() == 1
    restarted = api.post(path, {"confirm": True})
    assert restarted.status_code == 201
    state = restarted.json()
    assert state["is_practice_restart"] is True
    assert state["public"] == game["public"]
    assert Game.objects.get(id=game["id"]).status == Game.Status.ABANDONED


def test_the_history_lists_ten_games_a_page_with_their_figures(api, player, make_user):
    for _ in range(12):
        services.game_start(player=player, variant="klondike")
    services.game_start(player=player, variant="spike")
    services.game_start(player=make_user("bob"), variant="klondike")
    first = api.get("/api/v1/games")
    assert first.status_code == 200
    body = first.json()
    assert (body["count"], body["page"], body["num_pages"]) == (13, 1, 2)
    assert len(body["results"]) == 10
    assert body["previous"] is None
    assert body["next"] == "http://testserver/api/v1/games?page=2"
    assert body["figures"]["played"] == 13
    second = api.get("/api/v1/games", page=2).json()
    assert len(second["results"]) == 3
    assert second["next"] is None
    assert second["previous"] == "http://testserver/api/v1/games"
    assert api.get("/api/v1/games", page=99).json()["page"] == 2
    spike = api.get("/api/v1/games", variant="spike").json()
    assert spike["count"] == 1
    assert spike["figures"]["played"] == 1
    assert {game["variant"] for game in spike["results"]} == {"spike"}
    seeds = set(Game.objects.values_list("seed", flat=True))
    assert not any(seed in first.content.decode() for seed in seeds)


@pytest.mark.parametrize(
    ("query", "param"),
    [
        ({"variant": "nonsense"}, "variant"),
        ({"variant": ""}, "variant"),
        ({"page": "abc"}, "page"),
        ({"page": "0"}, "page"),
        ({"page": "-1"}, "page"),
        ({"page": "\u0663"}, "page"),
        ({"page": ""}, "page"),
    ],
)
def test_a_filter_or_page_the_history_cannot_read_is_malformed(api, player, query, param):
    services.game_start(player=player, variant="klondike")
    response = api.get("/api/v1/games", **query)
    assert response.status_code == 400
    assert error_codes(response) == ["malformed"]
    assert response.json()["errors"][0]["param"] == param


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/leaderboards/klondike",
        "/api/v1/codex/the-kings-vestibule/leaderboard",
        "/api/v1/challenges/leaderboard",
        "/api/v1/matches",
        "/api/v1/matches/ratings/steps_sprint",
    ],
)
def test_every_list_refuses_a_page_it_cannot_read(api, path):
    assert api.get(path, page="2").status_code == 200
    response = api.get(path, page="abc")
    assert response.status_code == 400
    assert response.json()["errors"][0]["param"] == "page"


@pytest.fixture
def three_deals_a_minute(monkeypatch):
    # DRF reads the rates into the class when it loads.
    monkeypatch.setattr(DealRateThrottle, "THROTTLE_RATES", {"deals": "3/min"})


@pytest.mark.usefixtures("three_deals_a_minute")
def test_dealing_is_throttled_but_says_when_to_come_back(api, player):
    for _deal in range(2):
        assert start(api, "klondike", confirm=True).status_code == 201
    latest = Game.objects.filter(player=player).latest("started_at")
    assert api.post(f"/api/v1/games/{latest.id}/restart", {"confirm": True}).status_code == 201
    dealt = Game.objects.filter(player=player).count()
    deal = start(api, "klondike", confirm=True)
    restart = api.post(f"/api/v1/games/{latest.id}/restart", {"confirm": True})
    for refused in (deal, restart):
        assert refused.status_code == 429
        assert error_codes(refused) == ["throttled"]
        assert int(refused["Retry-After"]) > 0
    # A throttled action on a game carries the game, as every refused action does.
    assert "game" not in deal.json()
    assert restart.json()["game"]["id"] == str(latest.id)
    assert Game.objects.filter(player=player).count() == dealt
    # Reading and playing go on: the throttle is on dealing only.
    assert api.get("/api/v1/games").status_code == 200
    active = Game.objects.get(player=player, status=Game.Status.ACTIVE)
    assert api.get(f"/api/v1/games/{active.id}").status_code == 200


def test_the_deal_throttle_is_far_above_a_persons_pace():
    assert DealRateThrottle().parse_rate(DealRateThrottle.THROTTLE_RATES["deals"]) == (30, 60)


def test_the_schema_documents_the_deal_throttle_on_dealing_only(anonymous_api):
    paths = anonymous_api.get("/api/v1/schema", format="json").json()["paths"]
    assert "429" in paths["/api/v1/games"]["post"]["responses"]
    assert "429" in paths["/api/v1/games/{game_id}/restart"]["post"]["responses"]
    assert "429" not in paths["/api/v1/games"]["get"]["responses"]
    assert "409" not in paths["/api/v1/games"]["get"]["responses"]
