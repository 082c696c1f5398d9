"""Glicko-2 ratings per mode (matches.glicko2, docs/ratings.md): derived from the
settled matches. A settled match is rated once its task runs; the recompute replays
every rated match of a mode in order and writes the same numbers."""

from collections.abc import Iterable
from uuid import UUID

from django.db import transaction

from matches import glicko2
from matches.models import Match, Rating, RatingChange, Seat


def _as_glicko(row: Rating | None) -> glicko2.Rating:
    if row is None:
        return glicko2.Rating()
    return glicko2.Rating(rating=row.rating, deviation=row.deviation, volatility=row.volatility)


def _counted(mode: str) -> Iterable[Match]:
    """The matches that count in a mode's ratings, in the order they are rated."""
    return (
        Match.objects.filter(mode=mode, status=Match.Status.FINISHED, rated=True, held=False)
        .order_by("finished_at", "id")
        .prefetch_related("seats")
    )


def match_ratings_apply(*, match_id: UUID) -> bool:
    """Rate a settled match's players against each other's ratings from before it;
    whether it was rated now (a match already rated, held by the review, unrated or
    solo is left alone: running this twice changes nothing)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(id=match_id)
        if match.status != Match.Status.FINISHED or not match.rated or match.held:
            return False
        if RatingChange.objects.filter(match=match).exists():
            return False
        seats = list(match.seats.all())
        players = [seat.player_id for seat in seats]
        # Locked in player order, so two matches of the same players rate one by one.
        rows = {
            row.player_id: row
            for row in Rating.objects.select_for_update()
            .filter(mode=match.mode, player_id__in=players)
            .order_by("player_id")
        }
        before = {player: _as_glicko(rows.get(player)) for player in players}
        after = glicko2.rate_match(
            {seat.player_id: seat.placement or 1 for seat in seats}, ratings=before
        )
        _write(match, before, after, rows)
    return True


def _write(
    match: Match,
    before: dict[int, glicko2.Rating],
    after: dict[int, glicko2.Rating],
    rows: dict[int, Rating],
) -> None:
    """Save the players' ratings after the match (into `rows`, which gains new ones)
    and the history of the change."""
    for player, rating in after.items():
        row = rows.get(player) or Rating(player_id=player, mode=match.mode)
        row.rating, row.deviation, row.volatility = (
            rating.rating,
            rating.deviation,
            rating.volatility,
        )
        row.matches += 1
        row.save()
        rows[player] = row
        RatingChange.objects.create(
            player_id=player,
            mode=match.mode,
            match=match,
            rating_before=before[player].rating,
            rating=rating.rating,
            deviation=rating.deviation,
            volatility=rating.volatility,
            at=match.finished_at or match.created_at,
        )


def ratings_recompute(*, mode: str) -> int:
    """Every rating of a mode again from the matches that count, in order; how many
    matches were rated."""
    with transaction.atomic():
        Rating.objects.filter(mode=mode).delete()
        RatingChange.objects.filter(mode=mode).delete()
        current: dict[int, Rating] = {}
        rated = 0
        for match in _counted(mode):
            seats: list[Seat] = list(match.seats.all())
            if len(seats) < 2:
                continue
            before = {seat.player_id: _as_glicko(current.get(seat.player_id)) for seat in seats}
            after = glicko2.rate_match(
                {seat.player_id: seat.placement or 1 for seat in seats}, ratings=before
            )
            _write(match, before, after, current)
            rated += 1
    return rated
