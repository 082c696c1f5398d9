"""No API response ever holds a face-down card, a stock card, the seed or the snapshot.

Random games of every variant are played through the API, as
tests/games/test_hidden_information.py plays them through the pages: every answer
(a move, an undo, a tap, a refusal, a hint, the state, the move log, the game in
progress, the history, the finish) is searched for every card the player cannot see at
that moment, in every form a card can be written in, and for the seed. A match's answers
and pushes are searched against each seat's own hidden cards in
tests/matches/test_hidden_information.py, which uses the helpers below.
"""

import json
import random
import re

import pytest

from games.engine import format_move, get_variant
from games.engine.spike import is_exposed
from games.models import Game
from games.specs import game_keys
from tests.games.helpers import hidden_cards, leaked_cards

pytestmark = pytest.mark.django_db

FOUNDATION_NEEDS = re.compile(r"foundation needs the \w+ of \w+")
SECRET_KEYS = {"seed", "state", "undo_log", "deck", "stock_cards", "snapshot"}


def keys_of(value) -> set[str]:
    """Every key of the JSON, but a `state` that is a word: where a game, a match or a
    table stands (docs/api.md, "One name for one thing"). A stored snapshot is an
    object, and is counted."""
    if isinstance(value, dict):
        own = {key for key, item in value.items() if not (key == "state" and isinstance(item, str))}
        return own | {key for item in value.values() for key in keys_of(item)}
    if isinstance(value, list):
        return {key for item in value for key in keys_of(item)}
    return set()


def face_down_or_stock(game: Game) -> set[str]:
    engine = get_variant(game.variant)
    state = engine.load(game.state)
    if game.variant == "spike":
        buried = {
            card
            for position, card in enumerate(state.spikes)
            if card is not None and not is_exposed(state.spikes, position)
        }
        return buried | set(state.stock)
    return {card for pile in state.tableau for card in pile.down} | set(state.stock)


def without_move_logs(value, logs: list[list[str]]):
    """The JSON without the move log's `moves` (GET /games/{id}/moves), which are set
    aside in `logs`, and with the card a foundation needs next taken out of a refusal's
    reason: a rule the foundation's top shows ("the spades foundation needs the ace of
    spades"), not where that card is."""
    if isinstance(value, dict):
        if set(value) == {"revision", "moves"}:
            logs.append(value["moves"])
            return {"revision": value["revision"]}
        return {k: without_move_logs(v, logs) for k, v in value.items()}
    if isinstance(value, list):
        return [without_move_logs(item, logs) for item in value]
    if isinstance(value, str):
        return FOUNDATION_NEEDS.sub("needs the next card", value)
    return value


def assert_nothing_hidden(response, game: Game) -> None:
    """Nothing the player cannot see now. The move log is the one exception it needs:
    a Spike play names its card, which then lies face up in the waste under later
    plays; so each log is checked to be the game's own and to name no card face down
    or in the stock, and everything else for every card the table does not show."""
    game.refresh_from_db()
    text = response.content.decode()
    assert game.seed not in text
    if not text:
        return
    logs: list[list[str]] = []
    rest = json.dumps(without_move_logs(json.loads(text), logs))
    assert leaked_cards(rest, hidden_cards(game)) == []
    assert not keys_of(json.loads(text)) & SECRET_KEYS
    for log in logs:
        assert log == game.move_log
        assert leaked_cards(json.dumps(log), face_down_or_stock(game)) == []


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("variant", game_keys())
def test_random_games_through_the_api_never_show_a_hidden_card(api, variant, seed):
    rng = random.Random(seed)
    engine = get_variant(variant)
    started = api.post("/api/v1/games", {"variant": variant})
    game = Game.objects.get(id=started.json()["id"])
    assert_nothing_hidden(started, game)
    path = f"/api/v1/games/{game.id}"
    for step in range(60):
        game.refresh_from_db()
        if not game.is_active:
            break
        moves = engine.legal_moves(engine.load(game.state))
        if not moves:
            break
        move = rng.choice(moves)
        if move.kind == "transfer" and move.src in ("w", "t1", "t2", "t3") and step % 4 == 0:
            answer = api.post(
                f"{path}/tap", {"source": move.src, "count": move.count, "revision": game.revision}
            )
        else:
            answer = api.post(
                f"{path}/moves", {"move": format_move(move), "revision": game.revision}
            )
        assert answer.status_code in (200, 422)
        assert_nothing_hidden(answer, game)
        if rng.random() < 0.15:
            assert_nothing_hidden(api.post(f"{path}/undo", {"revision": game.revision}), game)
        if step % 15 == 0:
            assert_nothing_hidden(api.get(path), game)
            assert_nothing_hidden(api.get(f"{path}/moves"), game)
    refused = api.post(f"{path}/moves", {"move": "t1-t1", "revision": game.revision})
    assert_nothing_hidden(refused, game)
    assert_nothing_hidden(api.post(f"{path}/moves", {"move": "draw", "revision": 0}), game)
    if game.is_active:
        assert_nothing_hidden(api.get(f"/api/v1/variants/{variant}/active"), game)
        assert_nothing_hidden(api.post(f"{path}/finish", {"revision": game.revision}), game)
        if seed == 0:
            assert_nothing_hidden(api.post(f"{path}/hint", {"revision": game.revision}), game)
    finished = api.post(f"{path}/finish", {"revision": game.revision, "confirm": True})
    assert_nothing_hidden(finished, game)
    assert_nothing_hidden(api.get(path), game)
    assert_nothing_hidden(api.get(f"{path}/moves"), game)
    assert_nothing_hidden(api.get("/api/v1/games"), game)
