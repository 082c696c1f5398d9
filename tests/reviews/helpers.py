"""Games for the review tests, played through the services from their own seed
(so that a replay from the deal matches), and ways to tamper with them."""

import json
import random
from pathlib import Path
from typing import Any

from django.test import TestCase

from games import services as game_services
from games.engine import format_move, get_variant, shuffled_deck
from games.models import Game
from games.tracks import casual_track
from leaderboards.models import DailyDeal
from leaderboards.services import daily_deal_play

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def seed_win() -> dict[str, Any]:
    """A Klondike game won from its seed: {"variant", "seed", "moves"} (129 moves)."""
    return json.loads((FIXTURES / "klondike_seed_win.json").read_text())


def committed():
    """Run the on-commit hooks (the tasks a closed game enqueues) as a commit would."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def play_moves(game: Game, moves: list[str]) -> Game:
    for move in moves:
        game.refresh_from_db()
        if not game.is_active:
            break
        game_services.game_move_play(
            game_id=game.id, player=game.player, move=move, revision=game.revision
        )
    game.refresh_from_db()
    return game


def finish(game: Game) -> Game:
    game.refresh_from_db()
    game_services.game_finish(game_id=game.id, player=game.player, revision=game.revision)
    game.refresh_from_db()
    return game


def start(player, *, deal: DailyDeal | None = None, variant: str = "klondike", seed=None) -> Game:
    """A casual game from a seed (the winning fixture's by default), or the
    ranked attempt at a daily deal whose seed is set to it."""
    seed = seed or (seed_win()["seed"] if variant == "klondike" else None)
    if deal is not None:
        if seed is not None:
            DailyDeal.objects.filter(id=deal.id).update(seed=seed)
            deal.refresh_from_db()
        return daily_deal_play(player=player, deal=deal)
    return game_services.game_start(player=player, variant=variant, track=casual_track(seed=seed))


def won_game(player, *, deal: DailyDeal | None = None) -> Game:
    """A Klondike game won move by move. The on-commit hooks do not run unless
    the caller wraps this in committed()."""
    return play_moves(start(player, deal=deal), seed_win()["moves"])


def finished_game(player, *, moves: int = 10, deal: DailyDeal | None = None) -> Game:
    """A Klondike game with the winning line's first `moves` moves, then finished."""
    return finish(play_moves(start(player, deal=deal), seed_win()["moves"][:moves]))


def lost_kingsley_game(player, seed: str = "review-kingsley") -> Game:
    """A Kingsley game played with random legal moves (chosen from the engine,
    seeded) until the rules say it is lost, and the loss accepted."""
    variant = get_variant("kingsley")
    state = variant.deal(shuffled_deck(seed), {})
    chooser = random.Random(seed)
    moves = []
    while variant.status(state) == "in_progress":
        move = chooser.choice(variant.legal_moves(state))
        moves.append(format_move(move))
        state = variant.apply(state, move).state
    assert variant.status(state) == "lost"
    game = game_services.game_start(
        player=player, variant="kingsley", track=casual_track(seed=seed)
    )
    game = play_moves(game, moves)
    game_services.game_loss_accept(game_id=game.id, player=player, revision=game.revision)
    game.refresh_from_db()
    return game


def spike_game(player, *, moves: int = 8) -> Game:
    """A Spike (classic) game: `moves` legal moves, then finished; its final score
    takes the time off."""
    game = game_services.game_start(
        player=player, variant="spike", track=casual_track(options={"mode": "classic"})
    )
    variant = get_variant("spike")
    for _ in range(moves):
        game.refresh_from_db()
        legal = variant.legal_moves(variant.load(game.state))
        if not legal or not game.is_active:
            break
        game_services.game_move_play(
            game_id=game.id, player=player, move=format_move(legal[0]), revision=game.revision
        )
    return finish(game)


def tamper(game: Game, **fields: Any) -> Game:
    """Change stored fields behind the services' back (what a forged result would do)."""
    Game.objects.filter(id=game.id).update(**fields)
    game.refresh_from_db()
    return game
