"""Each game's table has its own schema (`public`: one component per game, told apart by
`variant`), and the serializers write exactly what it says: real answers of every game,
from the deal to a win and to a loss, of the Duel's shared board, of a settled match's
seats and of a challenge's proof, checked against the schema the server serves, each
object holding the properties it names and no others."""

from datetime import UTC, date, datetime

import pytest

from challenges.models import Challenge
from games.specs import game_keys
from matches import services
from tests.api.conftest import ApiClient
from tests.api.schema_check import assert_valid, served_schema
from tests.games.helpers import load_fixture, start_with_deck
from tests.matches.helpers import games_of, sprint

pytestmark = pytest.mark.django_db

VIEW_COMPONENTS = {
    "klondike": "KlondikePublicView",
    "kingsley": "KingsleyPublicView",
    "spiderette": "SpiderettePublicView",
    "steps": "StepsPublicView",
    "spike": "SpikePublicView",
    "steps_duel": "DuelPublicView",
}


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        return served_schema()


def test_every_game_has_its_own_documented_table(schema):
    components = schema["components"]["schemas"]
    games = components["GamePublicView"]
    assert games["discriminator"]["propertyName"] == "variant"
    assert games["discriminator"]["mapping"] == {
        key: f"#/components/schemas/{VIEW_COMPONENTS[key]}" for key in game_keys()
    }
    seats = components["PublicView"]["discriminator"]["mapping"]
    assert seats["steps_duel"] == "#/components/schemas/DuelPublicView"
    for name in VIEW_COMPONENTS.values():
        table = components[name]
        assert table["description"], name
        assert {"variant", "state"} <= set(table["required"]), name
    game = components["Game"]["properties"]["public"]
    assert game["allOf"] == [{"$ref": "#/components/schemas/GamePublicView"}]
    duel = components["DuelBoard"]["properties"]["public"]
    assert duel["allOf"] == [{"$ref": "#/components/schemas/DuelPublicView"}]
    assert "GamePublicView" in str(components["ProofPosition"]["properties"]["public"])
    assert "PublicView" in str(components["Seat"]["properties"]["public"])


ENDINGS = {"win": "won", "lost": "lost"}
LINES = [
    *((variant, "win") for variant in game_keys()),
    # Klondike's rules never call a table lost.
    *((variant, "lost") for variant in game_keys() if variant != "klondike"),
]


@pytest.mark.parametrize(("variant", "ending"), LINES)
def test_every_answer_of_a_game_played_to_its_end_is_as_its_schema_says(
    schema, api, player, variant, ending
):
    """The fixture's line played through the API: the deal, every move's answer and
    the closed game, each state checked whole (Game) and its table against its
    game's own component."""
    case = load_fixture(f"{variant}_{ending}.json")
    game = start_with_deck(player, case["deck"], variant=variant, options=case["options"])
    path = f"/api/v1/games/{game.id}"
    state = api.get(path).json()
    tables = {state["public"]["state"]}
    for move in case["moves"]:
        assert_valid(schema, "Game", state)
        assert_valid(schema, VIEW_COMPONENTS[variant], state["public"])
        if not state["is_active"]:
            break
        if move not in state["legal_moves"]:
            continue  # a safe card went home by itself (the player's setting)
        answer = api.post(f"{path}/moves", {"move": move, "revision": state["revision"]})
        assert answer.status_code == 200, answer.json()
        assert_valid(schema, "ActionResult", answer.json())
        state = answer.json()["game"]
        tables.add(state["public"]["state"])
    if state["is_active"]:
        state = api.post(f"{path}/finish", {"revision": state["revision"], "confirm": True})
        state = state.json()["game"]
    assert_valid(schema, "Game", state)
    assert tables >= {"in_progress", ENDINGS[ending]}
    refused = api.post(f"{path}/moves", {"move": "draw", "revision": 0})
    assert refused.status_code == 409
    assert_valid(schema, "Error", refused.json())


def test_the_duels_board_and_its_seats_are_as_the_schema_says(schema, api, player, make_user):
    bob = make_user("bob")
    match = services.match_create(player=player, mode="steps_duel")
    services.match_join(player=bob, match_id=match.id)
    bob_api = ApiClient()
    assert bob_api.log_in("bob").status_code == 200
    players = [api, bob_api]
    for turn in range(12):
        client = players[turn % 2]
        board = client.get(f"/api/v1/matches/{match.id}/duel").json()
        assert_valid(schema, "DuelBoard", board)
        assert_valid(schema, "Match", client.get(f"/api/v1/matches/{match.id}").json())
        assert board["your_turn"] is True
        moved = client.post(
            f"/api/v1/matches/{match.id}/duel/moves",
            {"move": board["legal_moves"][0], "revision": board["revision"]},
        )
        assert moved.status_code == 200, moved.json()
        assert_valid(schema, "DuelBoard", moved.json())


def test_a_settled_matchs_seats_show_their_tables_as_the_schema_says(
    schema, api, player, make_user
):
    bob = make_user("bob")
    match = sprint(player, bob)
    for game in games_of(match):
        client = api if game.player_id == player.pk else ApiClient()
        if client is not api:
            client.log_in("bob")
        state = client.get(f"/api/v1/games/{game.id}").json()
        running = client.get(f"/api/v1/matches/{match.id}").json()
        assert_valid(schema, "Match", running)
        client.post(
            f"/api/v1/games/{game.id}/finish", {"revision": state["revision"], "confirm": True}
        )
    settled = api.get(f"/api/v1/matches/{match.id}").json()
    assert settled["state"] == "finished"
    assert all(seat["public"]["variant"] == "steps" for seat in settled["seats"])
    assert_valid(schema, "Match", settled)


@pytest.mark.parametrize("variant", ["steps", "spike"])
def test_an_open_proofs_positions_are_tables_as_the_schema_says(
    schema, anonymous_api, make_challenge, clock, variant
):
    """A challenge of a month that is over: its proof is open to everyone."""
    clock.now = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    challenge = make_challenge(
        variant=variant, difficulty=Challenge.Difficulty.EASY, day=date(2026, 11, 20)
    )
    proof = anonymous_api.get(f"/api/v1/challenges/{challenge.id}/proof")
    assert proof.status_code == 200, proof.json()
    assert_valid(schema, "ChallengeProof", proof.json())
    assert {position["public"]["variant"] for position in proof.json()["positions"]} == {variant}
