"""Builders for precise Spike positions, shared by the test_spike_* modules, and the
tests of the builders themselves."""

from collections.abc import Sequence

from games.engine import full_deck, get_variant
from games.engine.spike import SPIKE_ROWS, WILD_MARK, Spike, SpikeState

SPIKE = get_variant("spike")
assert isinstance(SPIKE, Spike)

SPIKE_SIZES = tuple(rows * (rows + 1) // 2 for rows in SPIKE_ROWS)
GONE = "."


def cards(text: str) -> tuple[str, ...]:
    """'KS QH' -> ('KS', 'QH')."""
    return tuple(text.split())


def spike_positions(text: str, size: int) -> tuple[str | None, ...]:
    """One spike written row by row from the top, rows split by '|', '.' for a card that is
    gone: '4C | 5D .' is a 2-row spike whose bottom-right card is gone. An empty text is a
    cleared spike."""
    if not text.strip():
        return (None,) * size
    tokens = text.replace("|", " ").split()
    assert len(tokens) == size, f"this spike has {size} places, not {len(tokens)}: {text!r}"
    return tuple(None if token == GONE else token for token in tokens)


def make_state(
    spikes: Sequence[str] = (),
    stock: str = "",
    waste: str = "3C",
    *,
    streak: int = 0,
    score: int = 0,
    time_bonus_seconds: int = 0,
    mode: str = "classic",
) -> SpikeState:
    """A position built by hand (not necessarily all 52 cards): ``spikes[i]`` is spike i + 1
    as spike_positions reads it, missing spikes cleared; the stock with its last card
    drawn next; the waste with its top last, W for the wild card (which is then used)."""
    texts = list(spikes) + [""] * (len(SPIKE_ROWS) - len(spikes))
    positions = tuple(
        position
        for text, size in zip(texts, SPIKE_SIZES, strict=True)
        for position in spike_positions(text, size)
    )
    waste_cards = tuple(WILD_MARK if token == "W" else token for token in waste.split())
    return SpikeState(
        spikes=positions,
        stock=cards(stock),
        waste=waste_cards,
        wild_used=WILD_MARK in waste_cards,
        streak=streak,
        score=score,
        time_bonus_seconds=time_bonus_seconds,
        mode=mode,
    )


def deck_for(spike_cards: Sequence[str] = (), stock_draw_order: str = "") -> list[str]:
    """A deck in deal order that deals ``spike_cards`` (in deal order: spikes from the
    left, rows from the top, cards from the left) to the first positions and whose stock
    gives ``stock_draw_order`` first, the first of them starting the waste. Every card not
    named fills the remaining places in suit-major order."""
    named_stock = cards(stock_draw_order)
    named = list(spike_cards) + list(named_stock)
    assert len(set(named)) == len(named), "a card is named twice"
    assert len(spike_cards) <= sum(SPIKE_SIZES)
    spare = iter([card for card in full_deck() if card not in named])
    spikes = list(spike_cards) + [next(spare) for _ in range(sum(SPIKE_SIZES) - len(spike_cards))]
    stock = list(named_stock) + list(spare)
    return spikes + stock[::-1]  # the stock is drawn from the end of the deck


def all_cards(state: SpikeState) -> list[str]:
    """Every card of the state (not the wild card), in no particular order."""
    on_spikes = [card for card in state.spikes if card is not None]
    return on_spikes + list(state.stock) + [card for card in state.waste if card != WILD_MARK]


def test_make_state_reads_spikes_row_by_row():
    state = make_state(["4C | 5D .", "", "AS | 2S 3S | . 4H 5H | . . 6H 7H"], stock="9S", waste="W")
    assert state.spikes[:3] == ("4C", "5D", None)
    assert state.spikes[3:9] == (None,) * 6
    assert state.spikes[9:19] == ("AS", "2S", "3S", None, "4H", "5H", None, None, "6H", "7H")
    assert state.spikes[19:] == (None,) * 9
    assert state.wild_used
    assert state.waste == (WILD_MARK,)


def test_deck_for_deals_what_it_names():
    deck = deck_for(["KS", "QS"], "2D 3D")
    assert sorted(deck) == sorted(full_deck())
    state = SPIKE.deal(deck)
    assert state.spikes[:2] == ("KS", "QS")
    assert state.waste == ("2D",)
    assert state.stock[-1] == "3D"
