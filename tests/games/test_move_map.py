"""The board's move map (Board.move_map, data-legal-moves for the client-side picking) is
made from public information only: two deals that look the same to the player but
differ underneath give the same map."""

import pytest

from games.engine import get_variant
from games.engine.tableau import Pile
from games.selectors import game_board
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = pytest.mark.django_db


def _swap_hidden(variant, state):
    """The state with the bottom face-down cards of piles 6 and 7 swapped, and the
    stock's first two cards too: the same board for the player, another deal."""
    tableau = list(state.tableau)
    six, seven = tableau[5], tableau[6]
    tableau[5] = Pile((seven.down[0], *six.down[1:]), six.up)
    tableau[6] = Pile((six.down[0], *seven.down[1:]), seven.up)
    stock = (state.stock[1], state.stock[0], *state.stock[2:])
    return state.with_parts(
        tableau=tuple(tableau), foundations=state.foundations, stock=stock, waste=state.waste
    )


@pytest.mark.parametrize("key", ["klondike", "kingsley", "steps"])
@pytest.mark.parametrize("draws", [0, 1])
def test_two_deals_that_look_the_same_have_the_same_move_map(player, key, draws):
    variant = get_variant(key)
    deck = load_fixture("klondike_win.json")["deck"]
    seen, other = (
        start_with_deck(player, deck, variant=key),
        start_with_deck(player, deck, variant=key),
    )
    state = variant.load(seen.state)
    for _ in range(draws):
        state = variant.play(state, "draw").state
    swapped = _swap_hidden(variant, state)
    seen.state, other.state = variant.dump(state), variant.dump(swapped)
    assert seen.state != other.state
    assert variant.public_view(state) == variant.public_view(swapped)

    seen_map = game_board(game=seen).move_map
    assert seen_map  # the deal has moves to compare
    assert game_board(game=other).move_map == seen_map
