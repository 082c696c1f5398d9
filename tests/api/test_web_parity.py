"""The web board and the API are two doors to the same services: one list of actions
played through each, on the same deal, leaves the identical stored game."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import format_move, get_variant
from games.engine.rng import shuffled_deck
from games.models import Game
from games.specs import game_keys
from tests.api.conftest import ApiClient
from tests.games.helpers import start_with_deck

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
STORED = (
    "variant",
    "options",
    "state",
    "move_log",
    "undo_log",
    "revision",
    "move_count",
    "undo_count",
    "score",
    "status",
    "hints_used",
)


def script_of(variant: str, deck: list[str], seed: int) -> list[tuple[str, dict]]:
    """Random actions from the deal (moves, taps, undos, an illegal move), as the engine
    plays them, and then finishing."""
    rng = random.Random(seed)
    engine = get_variant(variant)
    state = engine.deal(deck, engine.normalize_options({}))
    undo: list = []
    script: list[tuple[str, dict]] = [("moves", {"move": "t1-t1"})]
    for _ in range(40):
        moves = engine.legal_moves(state)
        if not moves or engine.status(state) != "in_progress":
            break
        if undo and rng.random() < 0.2:
            script.append(("undo", {}))
            state = engine.undo(state, undo.pop())
            continue
        move = rng.choice(moves)
        step = engine.apply(state, move)
        if move.kind == "transfer" and move.src == "w" and engine.tap(state, "w", 1) == move:
            script.append(("tap", {"source": "w", "count": 1}))
        else:
            script.append(("moves", {"move": format_move(move)}))
        state, undo = step.state, [*undo, step.undo]
    return script


def play_on_the_web(client: Client, game: Game, script) -> None:
    names = {"moves": "games:move", "tap": "games:tap", "undo": "games:undo"}
    for action, fields in script:
        game.refresh_from_db()
        if not game.is_active:
            return
        url = reverse(names[action], kwargs={"game_id": game.id})
        client.post(url, {**fields, "revision": game.revision}, **HX)
    game.refresh_from_db()
    client.post(
        reverse("games:finish", kwargs={"game_id": game.id}),
        {"revision": game.revision, "confirm": "on"},
        **HX,
    )


def play_through_the_api(api: ApiClient, game: Game, script) -> None:
    for action, fields in script:
        game.refresh_from_db()
        if not game.is_active:
            return
        api.post(f"/api/v1/games/{game.id}/{action}", {**fields, "revision": game.revision})
    game.refresh_from_db()
    api.post(f"/api/v1/games/{game.id}/finish", {"revision": game.revision, "confirm": True})


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("variant", game_keys())
def test_the_same_actions_through_web_and_api_store_the_same_game(make_user, variant, seed):
    deck = list(shuffled_deck(f"parity-{variant}-{seed}"))
    web_player, app_player = make_user("webby"), make_user("appy")
    web_game = start_with_deck(web_player, deck, variant=variant)
    app_game = start_with_deck(app_player, deck, variant=variant)
    script = script_of(variant, deck, seed)
    browser = Client()
    browser.force_login(web_player)
    app = ApiClient()
    assert app.log_in("appy").status_code == 200
    play_on_the_web(browser, web_game, script)
    play_through_the_api(app, app_game, script)
    web_game.refresh_from_db()
    app_game.refresh_from_db()
    assert web_game.status != Game.Status.ACTIVE
    assert len(web_game.move_log) > 0
    assert {field: getattr(app_game, field) for field in STORED} == {
        field: getattr(web_game, field) for field in STORED
    }
    # The final score counts time where the game scores it (Spike takes points off):
    # the two games' clocks differ by the time the test took, the rule is the same.
    engine = get_variant(variant)
    for played in (web_game, app_game):
        expected = engine.final_score(engine.load(played.state), played.elapsed_seconds)
        assert played.final_score == expected
