"""A rules version lands: the games dealt before it still load, play and pass review."""

import json
from pathlib import Path
from typing import ClassVar

import pytest
from django.urls import reverse

from games import services
from games.engine.klondike import Klondike
from games.engine.registry import registered
from games.tracks import casual_track
from reviews.replays import verify_game

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).parents[1] / "engine" / "fixtures" / "klondike_in_progress.json"


class KlondikeVersion2(Klondike):
    """A fake later Klondike whose recycles cost 50 points instead of 20."""

    rules_version = 2
    recycle_charge: ClassVar[int] = 50


def played_under_version_1(player):
    case = json.loads(FIXTURE.read_text(encoding="utf-8"))
    game = services.game_start(
        player=player, variant="klondike", track=casual_track(seed=case["seed"])
    )
    for move in case["moves"]:
        game = services.game_move_play(
            game_id=game.id, player=player, move=move, revision=game.revision
        ).game
    return game


def test_old_games_load_play_and_verify_under_their_version(player, player_client):
    game = played_under_version_1(player)
    assert (game.rules_version, game.score) == (1, -40)
    with registered(KlondikeVersion2):
        board = player_client.get(reverse("games:detail", args=[game.id]))
        assert board.status_code == 200
        game = services.game_move_play(
            game_id=game.id, player=player, move="draw", revision=game.revision
        ).game
        assert game.score == -40  # still version 1's charge
        finished = services.game_finish(game_id=game.id, player=player, revision=game.revision).game
        outcome = verify_game(finished)
        assert outcome.ok, outcome.details

        newer = services.game_start(
            player=player, variant="klondike", track=casual_track(seed=finished.seed)
        )
        assert newer.rules_version == 2
