"""Properties along random legal games."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import EngineError, Move, format_move, full_deck, replay, shuffled_deck

from .helpers import KLONDIKE, all_cards

MAX_MOVES = 150
FULL_DECK = sorted(full_deck())

seeds = st.integers(min_value=0, max_value=10**6).map(lambda n: f"property-{n}")


def visible_cards(state):
    found = {
        "A23456789TJQK"[height - 1] + suit
        for suit, height in zip("SHDC", state.foundations, strict=True)
        if height
    }
    return found | {card for pile in state.tableau for card in pile.up} | set(state.waste[-3:])


def codes_in(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from codes_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from codes_in(item)
    elif isinstance(value, str) and value in FULL_DECK:
        yield value


@settings(max_examples=80, deadline=None)
@given(seed=seeds, chooser=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(seed, chooser):
    start = KLONDIKE.deal(shuffled_deck(seed))
    state = start
    log = []
    for _ in range(MAX_MOVES):
        moves = KLONDIKE.legal_moves(state)
        if not moves:
            break
        move = chooser.choice(moves)
        step = KLONDIKE.apply(state, move)
        new = step.state
        log.append(format_move(move))

        assert sorted(all_cards(new)) == FULL_DECK
        assert all(pile.up or not pile.down for pile in new.tableau)
        assert step.points == new.score - state.score
        assert new.score == KLONDIKE.recycle_score(new.recycles) == KLONDIKE.score(new)
        assert step.won == KLONDIKE.is_won(new)
        hidden_before = {card for pile in state.tableau for card in pile.down} | set(state.stock)
        assert set(step.revealed) <= hidden_before
        assert set(step.revealed) <= {card for pile in new.tableau for card in pile.up} | set(
            new.waste
        )

        previous = KLONDIKE.undo(new, step.undo)
        assert previous == state
        assert KLONDIKE.score(previous) == KLONDIKE.score(state)

        assert set(codes_in(KLONDIKE.public_view(new))) <= visible_cards(new)
        state = new

    replayed = start
    for text in log:
        replayed = KLONDIKE.play(replayed, text).state
    assert replayed == state
    assert KLONDIKE.load(KLONDIKE.dump(state)) == state

    result = replay({"variant": "klondike", "seed": seed, "moves": log})
    assert result["error"] is None
    assert result["moves_applied"] == len(log)
    assert result["score"] == state.score
    assert result["public"] == KLONDIKE.public_view(state)


# Every move Klondike's notation can express that could ever be legal in Klondike.
CANDIDATES = [
    Move("draw"),
    Move("recycle"),
    *(Move("transfer", "w", dst) for dst in ["f", *(f"t{n}" for n in range(1, 8))]),
    *(
        Move("transfer", f"t{src}", dst, count)
        for src in range(1, 8)
        for dst in ["f", *(f"t{n}" for n in range(1, 8))]
        if dst != f"t{src}"
        for count in range(1, 14)
    ),
]


@settings(max_examples=30, deadline=None)
@given(seed=seeds, chooser=st.randoms(use_true_random=False))
def test_legal_moves_are_exactly_the_moves_apply_accepts(seed, chooser):
    state = KLONDIKE.deal(shuffled_deck(seed))
    for number in range(MAX_MOVES):
        moves = KLONDIKE.legal_moves(state)
        if number % 15 == 0:
            assert len(set(moves)) == len(moves)
            for move in CANDIDATES:
                try:
                    KLONDIKE.apply(state, move)
                except EngineError:
                    assert move not in moves, format_move(move)
                else:
                    assert move in moves, format_move(move)
        if not moves:
            break
        state = KLONDIKE.apply(state, chooser.choice(moves)).state
