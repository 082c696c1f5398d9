import pytest

from games.engine import (
    RANKS,
    SUITS,
    EngineError,
    card_name,
    full_deck,
    is_red,
    rank_of,
    rank_value,
    suit_of,
)
from games.engine.cards import validate_deck


def test_full_deck_is_suit_major_and_complete():
    deck = full_deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert deck[:3] == ("AS", "2S", "3S")
    assert deck[12:14] == ("KS", "AH")
    assert deck[-1] == "KC"
    assert RANKS == "A23456789TJQK"
    assert SUITS == ("S", "H", "D", "C")


def test_card_parts_and_colours():
    assert rank_of("TD") == "T"
    assert suit_of("TD") == "D"
    assert is_red("TD")
    assert is_red("KH")
    assert not is_red("AS")
    assert not is_red("7C")
    assert [rank_value(rank + "S") for rank in RANKS] == list(range(1, 14))


@pytest.mark.parametrize(
    ("card", "name"),
    [
        ("TD", "10 of diamonds"),
        ("AS", "ace of spades"),
        ("7H", "7 of hearts"),
        ("JC", "jack of clubs"),
        ("QD", "queen of diamonds"),
        ("KH", "king of hearts"),
    ],
)
def test_card_names(card, name):
    assert card_name(card) == name


@pytest.mark.parametrize("bad", ["", "1D", "ZZ", "td", "10D", "AS ", "A"])
def test_helpers_refuse_non_cards(bad):
    with pytest.raises(EngineError, match="not a card code"):
        card_name(bad)


def test_validate_deck():
    assert validate_deck(list(full_deck())) == full_deck()
    with pytest.raises(EngineError, match="52 cards, not 51"):
        validate_deck(full_deck()[:-1])
    with pytest.raises(EngineError, match="repeated: AS"):
        validate_deck(("AS", *full_deck()[:-1]))
    with pytest.raises(EngineError, match="'XX' is not a card"):
        validate_deck(("XX", *full_deck()[1:]))
    with pytest.raises(EngineError, match="list of 52"):
        validate_deck("AS 2S")
