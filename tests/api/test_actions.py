"""Every action on a game through the API: what it does, and each refusal, which
answers in the one error shape with the current game and changes nothing."""

import pytest

from api.serializers.public import public_view
from api.throttles import MoveRateThrottle
from games.engine import format_move, get_variant
from games.models import Game
from tests.api.conftest import error_codes
from tests.games.helpers import load_fixture, start_with_deck
from tests.games.test_proven_loss import lost_game, one_move_from_lost

pytestmark = pytest.mark.django_db

KLONDIKE = get_variant("klondike")
WIN = load_fixture("klondike_win.json")


def stored(game: Game) -> tuple:
    """Everything an action can change on the game's row."""
    game.refresh_from_db()
    return (
        game.state,
        game.move_log,
        game.undo_log,
        game.revision,
        game.score,
        game.status,
        game.move_count,
        game.undo_count,
        game.hints_used,
        game.final_score,
    )


@pytest.fixture
def game(player) -> Game:
    """The winning fixture's deal: pile 5's top card goes home, piles 1 to 4 go nowhere."""
    return start_with_deck(player, WIN["deck"])


def act(api, game: Game, action: str, **body):
    return api.post(f"/api/v1/games/{game.id}/{action}", body)


def log_of(api, game: Game) -> dict:
    response = api.get(f"/api/v1/games/{game.id}/moves")
    assert response.status_code == 200
    return response.json()


def test_a_move_is_played_and_answers_with_the_new_state(api, game):
    response = act(api, game, "moves", move="t5-f", revision=0)
    assert response.status_code == 200
    body = response.json()
    assert body["events"] == []
    state = body["game"]
    assert (state["revision"], state["move_count"]) == (1, 1)
    assert "moves" not in state
    assert log_of(api, game) == {"revision": 1, "moves": ["t5-f"]}
    assert state["can_undo"] is True
    game.refresh_from_db()
    assert game.move_log == ["t5-f"]
    # The engine's public view, in the API's names (api.serializers.public).
    assert state["public"] == public_view(KLONDIKE.public_view(KLONDIKE.load(game.state)))
    assert state["legal_moves"] == [
        format_move(move) for move in KLONDIKE.legal_moves(KLONDIKE.load(game.state))
    ]


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"move": "t1-f", "revision": 0}, "illegal_move", 422),
        ({"move": "fly", "revision": 0}, "illegal_move", 422),
        ({"move": "t5-f", "revision": 3}, "stale_revision", 409),
        ({"move": "t5-f"}, "malformed", 400),
        ({"move": "t5-f", "revision": -1}, "malformed", 400),
        ({"move": "x" * 33, "revision": 0}, "malformed", 400),
        ({"move": ["t5-f"], "revision": 0}, "malformed", 400),
        ({"move": "t5-f", "revision": "zero"}, "malformed", 400),
        # A revision is a JSON number: not text that reads as one, nor a flag.
        ({"move": "t5-f", "revision": "0"}, "malformed", 400),
        ({"move": "t5-f", "revision": "\u0660"}, "malformed", 400),
        ({"move": "t5-f", "revision": 0.0}, "malformed", 400),
        ({"move": "t5-f", "revision": False}, "malformed", 400),
    ],
)
def test_a_refused_move_changes_nothing(api, game, body, code, status):
    before = stored(game)
    response = api.post(f"/api/v1/games/{game.id}/moves", body)
    assert response.status_code == status
    assert error_codes(response)[0] == code
    assert stored(game) == before
    if status in (409, 422):
        assert response.json()["game"]["revision"] == 0
        assert response.json()["game"]["id"] == str(game.id)
    else:
        assert "game" not in response.json()


def test_an_illegal_move_carries_the_engines_reason(api, game):
    response = act(api, game, "moves", move="t1-t1", revision=0)
    (error,) = response.json()["errors"]
    assert error == {
        "code": "illegal_move",
        "message": "'t1-t1' moves a pile onto itself: source and destination differ",
        "param": None,
    }


def test_a_stale_revision_answers_with_the_current_state(api, game):
    act(api, game, "moves", move="t5-f", revision=0)
    response = act(api, game, "moves", move="draw", revision=0)
    assert response.status_code == 409
    assert error_codes(response) == ["stale_revision"]
    assert response.json()["game"]["revision"] == 1
    assert log_of(api, game)["moves"] == ["t5-f"]


def test_a_move_on_a_closed_game_is_refused(api, game):
    Game.objects.filter(id=game.id).update(status=Game.Status.FINISHED)
    before = stored(game)
    response = act(api, game, "moves", move="t5-f", revision=0)
    assert response.status_code == 409
    assert error_codes(response) == ["game_closed"]
    assert response.json()["game"]["state"] == "finished"
    assert stored(game) == before


def test_another_players_game_cannot_be_touched(api, make_user):
    other = start_with_deck(make_user("bob"), WIN["deck"])
    before = stored(other)
    for action, body in [
        ("moves", {"move": "t5-f", "revision": 0}),
        ("tap", {"source": "t5", "revision": 0}),
        ("undo", {"revision": 0}),
        ("hint", {"revision": 0}),
        ("auto-complete", {"revision": 0}),
        ("finish", {"revision": 0, "confirm": True}),
        ("accept-loss", {"revision": 0}),
    ]:
        response = api.post(f"/api/v1/games/{other.id}/{action}", body)
        assert response.status_code == 404, action
        assert error_codes(response) == ["not_found"]
        assert "game" not in response.json()
    assert stored(other) == before


def test_a_tap_sends_the_card_where_the_rules_say(api, game):
    refused = act(api, game, "tap", source="t1", revision=0)
    assert refused.status_code == 422
    assert "nowhere to go" in refused.json()["errors"][0]["message"]
    assert act(api, game, "tap", source="t9", revision=0).status_code == 400
    assert act(api, game, "tap", source="t5", count=0, revision=0).status_code == 400
    played = act(api, game, "tap", source="t5", revision=0)
    assert played.status_code == 200
    assert log_of(api, game)["moves"] == ["t5-f"]


@pytest.mark.parametrize(
    "body",
    [
        {"source": "t5", "count": "1", "revision": 0},
        {"source": "t5", "count": "\u0661", "revision": 0},
        {"source": "t5", "count": True, "revision": 0},
        {"source": "t5", "revision": "0"},
    ],
)
def test_a_tap_whose_numbers_are_not_json_numbers_is_malformed(api, game, body):
    before = stored(game)
    response = act(api, game, "tap", **body)
    assert response.status_code == 400
    assert error_codes(response) == ["malformed"]
    assert stored(game) == before


@pytest.mark.parametrize("confirm", ["yes", 1, "true"])
def test_finish_is_confirmed_by_json_true_only(api, game, confirm):
    before = stored(game)
    response = act(api, game, "finish", revision=0, confirm=confirm)
    assert response.status_code == 400
    assert response.json()["errors"][0]["param"] == "confirm"
    assert stored(game) == before


def test_undo_takes_the_last_move_back(api, game):
    refused = act(api, game, "undo", revision=0)
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["message"] == "There is no move to undo."
    start_state = stored(game)[0]
    act(api, game, "moves", move="t5-f", revision=0)
    undone = act(api, game, "undo", revision=1)
    assert undone.status_code == 200
    state = undone.json()["game"]
    assert (state["revision"], state["move_count"], state["undo_count"]) == (2, 0, 1)
    assert log_of(api, game) == {"revision": 2, "moves": []}
    assert stored(game)[0] == start_state


def test_an_actions_answer_does_not_grow_with_the_game(api, game):
    """The move log comes only when asked (GET /games/{id}/moves): an answer carried it
    whole, 740 bytes more at the hundredth move than at the first."""
    sizes = []
    for revision in range(101):
        state = api.get(f"/api/v1/games/{game.id}").json()
        move = "draw" if "draw" in state["legal_moves"] else "recycle"
        answer = act(api, game, "moves", move=move, revision=revision)
        assert answer.status_code == 200
        assert "moves" not in answer.json()["game"]
        sizes.append(len(answer.content))
    # The counters gain digits (revision, moves, seconds): a few bytes, not a log.
    assert sizes[100] - sizes[0] < 48, sizes
    log = log_of(api, game)
    assert log["revision"] == 101
    assert len(log["moves"]) == 101
    game.refresh_from_db()
    assert log["moves"] == game.move_log


def test_the_move_log_is_the_players_own(api, make_user):
    other = start_with_deck(make_user("bob"), WIN["deck"])
    response = api.get(f"/api/v1/games/{other.id}/moves")
    assert response.status_code == 404
    assert error_codes(response) == ["not_found"]


def test_reading_the_move_log_spends_no_action_of_the_throttle(api, game, monkeypatch):
    monkeypatch.setattr(MoveRateThrottle, "THROTTLE_RATES", {"moves": "2/min"})
    for _read in range(3):
        assert api.get(f"/api/v1/games/{game.id}/moves").status_code == 200
    assert act(api, game, "moves", move="draw", revision=0).status_code == 200


def test_auto_complete_is_refused_until_offered_then_wins(api, game):
    refused = act(api, game, "auto-complete", revision=0)
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["message"].startswith("Auto-complete is offered")
    revision = 0
    for move in WIN["moves"]:
        game.refresh_from_db()
        if KLONDIKE.auto_complete(KLONDIKE.load(game.state)):
            break
        assert act(api, game, "moves", move=move, revision=revision).status_code == 200
        revision += 1
    completed = act(api, game, "auto-complete", revision=revision)
    assert completed.status_code == 200
    assert completed.json()["game"]["state"] == "won"
    assert completed.json()["game"]["legal_moves"] == []


def test_finish_asks_first_then_makes_the_result_final(api, game):
    act(api, game, "moves", move="t5-f", revision=0)
    before = stored(game)
    asked = act(api, game, "finish", revision=1)
    assert asked.status_code == 409
    assert error_codes(asked) == ["confirmation_required"]
    assert asked.json()["game"]["state"] == "active"
    assert stored(game) == before
    stale = act(api, game, "finish", revision=0, confirm=True)
    assert error_codes(stale) == ["stale_revision"]
    finished = act(api, game, "finish", revision=1, confirm=True)
    assert finished.status_code == 200
    state = finished.json()["game"]
    assert state["state"] == "finished"
    assert state["finished_at"] is not None
    assert state["final_score"] == state["score"]
    again = act(api, game, "finish", revision=2, confirm=True)
    assert error_codes(again) == ["game_closed"]


def test_a_hint_suggests_a_legal_move_and_is_counted(api, game):
    response = act(api, game, "hint", revision=0)
    assert response.status_code == 200
    body = response.json()
    assert body["hint"]["move"] in body["game"]["legal_moves"]
    assert body["hint"]["text"]
    assert body["game"]["hints_used"] == 1
    assert body["game"]["revision"] == 0
    assert error_codes(act(api, game, "hint", revision=5)) == ["stale_revision"]


@pytest.mark.parametrize("variant", ["kingsley", "spiderette"])
def test_a_lost_position_is_announced_then_its_loss_accepted(api, player, variant):
    game, last = one_move_from_lost(player, variant)
    game.refresh_from_db()
    not_lost = act(api, game, "accept-loss", revision=game.revision)
    assert not_lost.status_code == 422
    assert not_lost.json()["errors"][0]["message"].startswith("This position is not lost")
    moved = act(api, game, "moves", move=last, revision=game.revision)
    state = moved.json()["game"]
    assert state["state"] == "active"
    assert state["public"]["lost_reason"]
    accepted = act(api, game, "accept-loss", revision=state["revision"])
    assert accepted.status_code == 200
    assert accepted.json()["game"]["state"] == "lost"


def test_in_a_lost_position_only_undo_accept_and_finish_act(api, player):
    game = lost_game(player, "kingsley")
    refused = act(api, game, "tap", source="t1", revision=game.revision)
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["message"].startswith("The game is lost")
    assert act(api, game, "undo", revision=game.revision).status_code == 200


def test_the_move_throttle_stops_a_script_but_says_when_to_come_back(api, game, monkeypatch):
    # DRF reads the rates into the class when it loads.
    monkeypatch.setattr(MoveRateThrottle, "THROTTLE_RATES", {"moves": "3/min"})
    for revision in range(3):
        assert act(api, game, "moves", move="draw", revision=revision).status_code == 200
    before = stored(game)
    throttled = act(api, game, "moves", move="draw", revision=3)
    assert throttled.status_code == 429
    assert error_codes(throttled) == ["throttled"]
    assert int(throttled["Retry-After"]) > 0
    # As every refused action on a game, with the game as it now is.
    assert throttled.json()["game"]["id"] == str(game.id)
    assert throttled.json()["game"]["revision"] == 3
    assert stored(game) == before
    assert api.get(f"/api/v1/games/{game.id}").status_code == 200


def test_the_move_throttle_is_far_above_a_persons_pace():
    assert MoveRateThrottle().parse_rate(MoveRateThrottle.THROTTLE_RATES["moves"]) == (300, 60)
