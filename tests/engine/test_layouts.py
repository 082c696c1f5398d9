from games.engine import full_deck, get_variant
from games.engine.layouts import deal_seven_piles

from .helpers import deck_from_layout


def test_pile_i_takes_the_next_i_cards_and_the_last_is_its_top():
    deck = full_deck()
    layout = deal_seven_piles(deck)
    assert [len(pile.down) + 1 for pile in layout.piles] == [1, 2, 3, 4, 5, 6, 7]
    assert layout.piles[0].down == ()
    assert layout.piles[0].top == deck[0]
    assert layout.piles[1].down == (deck[1],)
    assert layout.piles[1].top == deck[2]
    assert layout.piles[6].down == deck[21:27]
    assert layout.piles[6].top == deck[27]


def test_the_other_24_cards_form_the_stock_drawn_from_the_end():
    deck = full_deck()
    layout = deal_seven_piles(deck)
    assert layout.stock == deck[28:]
    assert layout.stock[-1] == deck[51]  # the last element is drawn first


def test_klondike_deals_the_convention():
    klondike = get_variant("klondike")
    deck = full_deck()
    state = klondike.deal(deck)
    assert [len(pile.down) for pile in state.tableau] == [0, 1, 2, 3, 4, 5, 6]
    assert [pile.up for pile in state.tableau] == [
        (deck[n * (n + 1) // 2 - 1],) for n in range(1, 8)
    ]
    assert state.stock == deck[28:]
    assert state.waste == ()
    assert state.foundations == (0, 0, 0, 0)
    step = klondike.play(state, "draw")
    assert step.state.waste == (deck[51], deck[50], deck[49])


def test_deck_from_layout_helper_deals_what_it_says():
    deck = deck_from_layout(["KS", "QH 9C", "", "", "", "", "2D"], stock_draw_order="AH 2H 3H")
    state = get_variant("klondike").deal(deck)
    assert state.tableau[0].up == ("KS",)
    assert state.tableau[1].down == ("QH",)
    assert state.tableau[1].up == ("9C",)
    assert state.tableau[6].up == ("2D",)
    assert state.stock[-3:] == ("3H", "2H", "AH")
