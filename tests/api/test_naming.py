"""One name for one thing (docs/api.md, "One name for one thing"): a concept has one
name in every REST answer and socket message, and a name one meaning. `status` is
an HTTP status, an integer, as in allauth's answers; where a thing stands in its life
is its `state`; `legal_moves` are the moves one may play, in the notation, and `moves`
the moves played; a seat is the same in a match's answer and in the socket's `seat`
message; the cards on the foundations are `cards_on_foundations`; every waste is
`{count, fan}`; a game's score is `score`."""

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from tests.api.test_match_socket import TIMEOUT, ask, opened, token_of
from tests.matches.helpers import games_of, sprint
from tests.matches.test_consumers import first_legal_move

RETIRED = {"game_status", "table", "foundation_cards", "status_label", "ledger_lines"}
"""Names that meant a concept another name now has."""


@pytest.fixture(scope="module")
def components(django_db_blocker) -> dict[str, Any]:
    with django_db_blocker.unblock():
        return Client().get("/api/v1/schema", {"format": "json"}).json()["components"]["schemas"]


def properties(components: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """Every (component, property, schema) of the schema, allOf parts included."""
    found = []
    for name, component in components.items():
        parts = [component, *component.get("allOf", [])]
        for part in parts:
            for prop, schema in part.get("properties", {}).items():
                found.append((name, prop, schema))
    return found


def enum_values(components: dict[str, Any], schema: dict[str, Any]) -> set[str]:
    refs = [schema, *schema.get("allOf", []), *schema.get("oneOf", [])]
    values: set[str] = set(schema.get("enum", []))
    for ref in refs:
        if "$ref" in ref:
            values |= set(components[ref["$ref"].rpartition("/")[2]].get("enum", []))
    return values - {None}


def test_status_is_an_http_status_everywhere_and_state_where_a_thing_stands(components):
    statuses = [(name, schema) for name, prop, schema in properties(components) if prop == "status"]
    assert len(statuses) > 10  # every envelope: the refusal's and allauth's answers
    for name, schema in statuses:
        resolved = components[schema["$ref"].rpartition("/")[2]] if "$ref" in schema else schema
        assert resolved.get("type") == "integer", name
    states = {
        "Game": {"active", "won", "lost", "finished", "abandoned"},
        "HistoryGame": {"active", "won", "lost", "finished", "abandoned"},
        "RankedGame": {"active", "won", "lost", "finished", "abandoned"},
        "Match": {"open", "running", "finished", "cancelled"},
        "ProofPosition": {"in_progress", "won", "lost"},
        "KlondikePublicView": {"in_progress", "won", "lost"},
        "DuelPublicView": {"in_progress", "won", "lost"},
    }
    for name, values in states.items():
        assert enum_values(components, components[name]["properties"]["state"]) == values, name
    seat = components["Seat"]["properties"]
    assert enum_values(components, seat["game_state"]) == states["Game"]


def test_no_retired_name_is_left(components):
    left = sorted((name, prop) for name, prop, _schema in properties(components) if prop in RETIRED)
    assert left == []


def test_legal_moves_are_the_notation_everywhere_and_moves_the_moves_played(components):
    strings = {"type": "array", "items": {"type": "string"}}
    for name in ("Game", "DuelBoard"):
        legal = components[name]["properties"]["legal_moves"]
        assert {key: legal[key] for key in ("type", "items")} == strings, name
        assert "moves" not in components[name]["properties"], name
    assert components["MoveLog"]["properties"]["moves"]["type"] == "array"


def test_a_seat_counts_its_foundation_cards_as_a_table_does(components):
    assert "cards_on_foundations" in components["Seat"]["properties"]
    for name in ("KlondikePublicView", "KingsleyPublicView", "StepsPublicView"):
        assert "cards_on_foundations" in components[name]["properties"], name


def test_every_waste_is_a_count_and_a_fan(components):
    waste = components["Waste"]["properties"]
    spike = components["SpikeWaste"]["properties"]
    assert set(waste) == {"count", "fan"}
    assert set(spike) - set(waste) == {"top_is_wild"}
    assert spike["fan"] == waste["fan"]
    for name in ("KlondikePublicView", "KingsleyPublicView", "StepsPublicView"):
        assert components[name]["properties"]["waste"] == {"$ref": "#/components/schemas/Waste"}


def test_a_score_is_a_score(components):
    steps = components["StepsPublicView"]["properties"]
    assert {"score", "score_lines", "action_points"} <= set(steps)
    assert not {"ledger", "points"} & set(steps)
    duel_seat = components["DuelSeat"]["properties"]
    assert "score" in duel_seat
    assert "points" not in duel_seat


@pytest.mark.django_db(transaction=True)
def test_the_sockets_seat_is_the_matchs_seat_in_the_same_names(player, make_user):
    """The `seat` message another seat's move pushes carries the seat's figures under
    the names GET /matches/{id} gives them, with the same values."""
    bob = make_user("bob")
    match = sprint(player, bob)
    mine, _ = games_of(match)
    move = first_legal_move(mine)
    tokens = token_of(player), token_of(bob)
    heard: dict[str, Any] = {}

    async def body() -> None:
        alice_socket, _ = await opened(match.id, tokens[0])
        bob_socket, _ = await opened(match.id, tokens[1])
        answer = await ask(alice_socket, {"id": 1, "action": "move", "move": move, "revision": 0})
        assert answer["type"] == "answer"
        heard.update(json.loads(await bob_socket.receive_from(timeout=TIMEOUT)))
        await alice_socket.disconnect()
        await bob_socket.disconnect()

    async_to_sync(body)()
    assert heard["type"] == "seat"
    rest = Client().get(f"/api/v1/matches/{match.id}", headers={"X-Session-Token": tokens[1]})
    seats = {seat["username"]: seat for seat in rest.json()["seats"]}
    pushed = heard["seat"]
    assert set(pushed) <= set(seats[player.username])
    assert pushed == {name: seats[player.username][name] for name in pushed}
    assert {"game_state", "cards_on_foundations", "public"} <= set(pushed)
    assert pushed["public"] is None
