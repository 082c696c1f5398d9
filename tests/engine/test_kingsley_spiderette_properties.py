"""Properties of Kingsley and Spiderette along random legal games, as for Klondike."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import EngineError, Move, format_move, full_deck, replay, shuffled_deck

from .helpers import KINGSLEY, SPIDERETTE, all_cards, spiderette_cards

MAX_MOVES = 150
FULL_DECK = sorted(full_deck())

seeds = st.integers(min_value=0, max_value=10**6).map(lambda n: f"property-{n}")


def codes_in(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from codes_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from codes_in(item)
    elif isinstance(value, str) and value in FULL_DECK:
        yield value


def face_up(state):
    return {card for pile in state.tableau for card in pile.up}


def hidden(state):
    return {card for pile in state.tableau for card in pile.down} | set(state.stock)


# Kingsley


def kingsley_visible(state):
    found = {
        "A23456789TJQK"[height - 1] + suit
        for suit, height in zip("SHDC", state.foundations, strict=True)
        if height
    }
    return found | face_up(state) | set(state.waste[-3:])


def check_kingsley_step(state, step):
    new = step.state
    assert sorted(all_cards(new)) == FULL_DECK
    assert all(pile.up or not pile.down for pile in new.tableau)
    assert KINGSLEY.score(new) == sum(new.foundations)
    assert step.points == KINGSLEY.score(new) - KINGSLEY.score(state)
    assert len(new.stock) <= len(state.stock)  # one pass: the stock never grows
    assert set(step.revealed) <= hidden(state)
    assert set(step.revealed) <= face_up(new) | set(new.waste)
    assert set(codes_in(KINGSLEY.public_view(new))) <= kingsley_visible(new)


# Spiderette


def check_spiderette_step(state, step):
    new = step.state
    assert sorted(spiderette_cards(new)) == FULL_DECK
    assert all(pile.up or not pile.down for pile in new.tableau)
    assert len(new.stock) in (24, 17, 10, 3, 0)
    # A complete run never stays on the table.
    for pile in new.tableau:
        top = pile.up[-13:]
        assert not (len(top) == 13 and top == tuple(r + top[0][1] for r in "KQJT98765432A"))
    new_runs = new.removed[len(state.removed) :]
    assert new.removed[: len(state.removed)] == state.removed
    assert [event for event in step.events if event.startswith("run_removed:")] == [
        f"run_removed:{suit}" for suit in new_runs
    ]
    assert step.points == 13 * len(new_runs) == SPIDERETTE.score(new) - SPIDERETTE.score(state)
    assert set(step.revealed) <= hidden(state)
    assert set(step.revealed) <= face_up(new)
    assert set(codes_in(SPIDERETTE.public_view(new))) <= face_up(new)


def choose(chooser, moves):
    """A random move, a stock move only now and then: uniform choice deals or draws so
    often that games end before they get interesting."""
    others = [move for move in moves if move.kind not in ("deal", "draw")]
    if others and chooser.random() < 0.85:
        return chooser.choice(others)
    return chooser.choice(moves)


VARIANTS = [(KINGSLEY, check_kingsley_step), (SPIDERETTE, check_spiderette_step)]


@pytest.mark.parametrize(("variant", "check_step"), VARIANTS, ids=["kingsley", "spiderette"])
@settings(max_examples=40, deadline=None)
@given(seed=seeds, chooser=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(variant, check_step, seed, chooser):
    start = variant.deal(shuffled_deck(seed))
    state = start
    log = []
    for _ in range(MAX_MOVES):
        moves = variant.legal_moves(state)
        if not moves:
            break
        move = choose(chooser, moves)
        step = variant.apply(state, move)
        log.append(format_move(move))
        check_step(state, step)
        new = step.state
        assert step.won == variant.is_won(new)
        assert step.lost == variant.is_lost(new)
        ending = ("won",) if step.won else ("lost",) if step.lost else ()
        assert [event for event in step.events if event in ("won", "lost")] == list(ending)
        assert step.events[len(step.events) - len(ending) :] == ending  # the last event
        assert variant.undo(new, step.undo) == state
        state = new

    # A game stops only when it is over.
    assert variant.legal_moves(state) == [] or len(log) == MAX_MOVES
    if not variant.legal_moves(state):
        assert variant.status(state) in ("won", "lost")

    replayed = start
    for text in log:
        replayed = variant.play(replayed, text).state
    assert replayed == state
    assert variant.load(variant.dump(state)) == state

    result = replay({"variant": variant.key, "seed": seed, "moves": log})
    assert result["error"] is None
    assert result["moves_applied"] == len(log)
    assert result["score"] == variant.score(state)
    assert result["status"] == variant.status(state)
    assert result["public"] == variant.public_view(state)


TABLEAU = [f"t{n}" for n in range(1, 8)]
CANDIDATES = {
    "kingsley": [
        Move("draw"),
        Move("recycle"),
        Move("deal"),
        *(Move("transfer", "w", dst) for dst in ["f", *TABLEAU]),
        *(
            Move("transfer", src, dst, count)
            for src in TABLEAU
            for dst in ["f", *TABLEAU]
            if dst != src
            for count in range(1, 14)
        ),
    ],
    "spiderette": [
        Move("deal"),
        Move("draw"),
        *(Move("transfer", src, "f") for src in TABLEAU),
        *(
            Move("transfer", src, dst, count)
            for src in TABLEAU
            for dst in TABLEAU
            if dst != src
            for count in range(1, 14)
        ),
    ],
}


@pytest.mark.parametrize("variant", [KINGSLEY, SPIDERETTE], ids=["kingsley", "spiderette"])
@settings(max_examples=15, deadline=None)
@given(seed=seeds, chooser=st.randoms(use_true_random=False))
def test_legal_moves_are_exactly_the_moves_apply_accepts(variant, seed, chooser):
    state = variant.deal(shuffled_deck(seed))
    for number in range(MAX_MOVES):
        moves = variant.legal_moves(state)
        if number % 15 == 0 or not moves:
            assert len(set(moves)) == len(moves)
            for move in CANDIDATES[variant.key]:
                try:
                    variant.apply(state, move)
                except EngineError:
                    assert move not in moves, format_move(move)
                else:
                    assert move in moves, format_move(move)
        if not moves:
            break
        state = variant.apply(state, choose(chooser, moves)).state
