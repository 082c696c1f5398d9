"""Ratings from settled matches: each rated once, a held match off them, and the
recompute from the rows giving the same numbers."""

import pytest

from games import services as games_services
from games.models import Game
from matches import glicko2, services
from matches.models import Match, Rating, RatingChange, Seat
from tests.matches.helpers import games_of, sprint

pytestmark = pytest.mark.django_db


def settle_with_placements(match: Match, placements: list[int]) -> None:
    """Finish every seat's game, then fix the placements the test wants."""
    for game in games_of(match):
        games_services.game_finish(game_id=game.id, player=game.player, revision=game.revision)
    for seat in match.seats.order_by("number"):
        seat.placement = placements[seat.number]
        seat.save(update_fields=["placement"])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def table(mode: str = "steps_sprint") -> dict[int, tuple[float, float, float, int]]:
    return {
        row.player_id: (row.rating, row.deviation, row.volatility, row.matches)
        for row in Rating.objects.filter(mode=mode)
    }


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ann", "ben", "cid", "dot")]


def test_a_settled_match_is_rated_once(players):
    ann, ben = players[:2]
    match = sprint(ann, ben)
    settle_with_placements(match, [1, 2])
    assert services.match_ratings_apply(match_id=match.id)
    assert not services.match_ratings_apply(match_id=match.id)
    expected = glicko2.rate_match({ann.pk: 1, ben.pk: 2}, ratings={})
    ratings = table()
    assert ratings[ann.pk][:3] == (
        expected[ann.pk].rating,
        expected[ann.pk].deviation,
        expected[ann.pk].volatility,
    )
    assert ratings[ann.pk][0] > 1500 > ratings[ben.pk][0]
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_solo_sprint_and_a_held_match_are_not_rated(players):
    solo = sprint(players[0])
    settle_with_placements(solo, [1])
    assert not services.match_ratings_apply(match_id=solo.id)
    held = sprint(players[0], players[1])
    settle_with_placements(held, [1, 2])
    Match.objects.filter(id=held.id).update(held=True)
    assert not services.match_ratings_apply(match_id=held.id)
    assert not Rating.objects.exists()


def test_the_recompute_gives_the_same_numbers_as_rating_match_by_match(players):
    ann, ben, cid, dot = players
    for seated, placed in (
        ([ann, ben], [1, 2]),
        ([ben, cid, dot], [1, 1, 3]),
        ([ann, cid], [2, 1]),
        ([ann, ben, cid, dot], [4, 3, 2, 1]),
    ):
        match = sprint(*seated)
        settle_with_placements(match, placed)
        services.match_ratings_apply(match_id=match.id)
    applied = table()
    history = list(RatingChange.objects.values_list("player_id", "match_id", "rating"))
    assert services.ratings_recompute(mode="steps_sprint") == 4
    assert table() == applied
    assert sorted(RatingChange.objects.values_list("player_id", "match_id", "rating")) == sorted(
        history
    )


def test_a_match_held_by_the_review_leaves_the_ratings_and_comes_back(players):
    ann, ben = players[:2]
    match = sprint(ann, ben)
    settle_with_placements(match, [1, 2])
    services.match_ratings_apply(match_id=match.id)
    game = Seat.objects.get(match=match, player=ann).game
    Game.objects.filter(id=game.id).update(review_hold=Game.ReviewHold.HELD)
    game.refresh_from_db()
    assert services.match_game_hold_changed(game=game)
    match.refresh_from_db()
    assert match.held
    # The recompute the change enqueued ran (tasks run in-process here).
    services.ratings_recompute(mode="steps_sprint")
    assert not Rating.objects.exists()
    Game.objects.filter(id=game.id).update(review_hold="")
    game.refresh_from_db()
    assert services.match_game_hold_changed(game=game)
    services.ratings_recompute(mode="steps_sprint")
    assert table()[ann.pk][0] > 1500


def test_a_match_whose_game_the_review_flags_is_held_off_the_ratings(
    players, django_capture_on_commit_callbacks
):
    """A Sprint cleared in a few seconds is flagged as implausibly fast (docs/review.md):
    its match is held, and rated by nobody until a reviewer clears the game."""
    from games.engine import format_move, get_variant
    from tests.games.helpers import load_fixture

    ann, ben = players[:2]
    match = sprint(ann, ben)
    game, other = games_of(match)
    case = load_fixture("steps_win.json")
    engine = get_variant("steps")
    Game.objects.filter(id=game.id).update(
        state=engine.dump(engine.deal(case["deck"], case["options"])), options=case["options"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        games_services.game_finish(game_id=other.id, player=ben, revision=0)
        for move in case["moves"]:
            game.refresh_from_db()
            legal = {format_move(m) for m in engine.legal_moves(engine.load(game.state))}
            if game.is_active and move in legal:
                games_services.game_move_play(
                    game_id=game.id, player=ann, move=move, revision=game.revision
                )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert Game.objects.get(id=game.id).review_hold == Game.ReviewHold.HELD
    assert match.held
    assert not Rating.objects.filter(mode="steps_sprint").exists()
