"""The review's hold on a match's game: a match with a game under review or voided is
held off the ratings, and the ratings of its mode are recomputed when that changes."""

from functools import partial

from django.db import transaction

from games.models import Game
from matches.models import Match
from matches.tasks import ratings_recompute_task


def match_game_hold_changed(*, game: Game) -> bool:
    """settings.GAME_REVIEW_HOLD_HOOKS: after the review held, voided or cleared a
    match's game, whether its match's hold changed (then its mode's ratings are
    recomputed once the change commits)."""
    if game.track != Game.Track.MATCH:
        return False
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(id=game.track_ref).first()
        if match is None or match.status != Match.Status.FINISHED:
            return False
        held = Game.objects.held().filter(track=Game.Track.MATCH, track_ref=game.track_ref).exists()
        if held == match.held:
            return False
        match.held = held
        match.save(update_fields=["held"])
        transaction.on_commit(partial(ratings_recompute_task.delay, match.mode))
    return True
