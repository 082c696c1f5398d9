"""The Duel the Duel's tests play (tests/matches/test_duel*.py)."""

import pytest

from matches import services
from matches.models import Match


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def duel(player, bob) -> Match:
    """A Duel the player (alice, seat 0, to move) made and bob joined: it starts when
    bob sits down."""
    match = services.match_create(player=player, mode="steps_duel")
    services.match_join(player=bob, match_id=match.id)
    match.refresh_from_db()
    return match
