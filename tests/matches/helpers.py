"""Matches for the tests: made, filled and started through the services."""

from datetime import timedelta

from django.utils import timezone

from games.models import Game
from matches import services
from matches.models import Match


def sprint(*players, start: bool = True) -> Match:
    """A Sprint made by the first player and joined by the others, started by its maker
    (a Sprint starts when its maker starts it, full or not)."""
    match = services.match_create(player=players[0], mode="steps_sprint")
    for player in players[1:]:
        services.match_join(player=player, match_id=match.id)
    match.refresh_from_db()
    if start:
        services.match_start(player=players[0], match_id=match.id)
        match.refresh_from_db()
    return match


def games_of(match: Match) -> list[Game]:
    return [seat.game for seat in match.seats.select_related("game").order_by("number")]


def run_out_the_clock(match: Match, *, seconds_ago: int = 1) -> None:
    """Move the match's deadline (and its games') into the past, as time passing would."""
    deadline = timezone.now() - timedelta(seconds=seconds_ago)
    started = deadline - timedelta(seconds=300)
    Match.objects.filter(id=match.id).update(deadline_at=deadline, started_at=started)
    Game.objects.filter(track=Game.Track.MATCH, track_ref=str(match.id)).update(
        deadline_at=deadline, started_at=started, last_action_at=started
    )
