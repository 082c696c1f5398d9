"""The Klondike and Kingsley solvers' pruning loses nothing: on random endgames (a few
cards left in the piles, stock and waste, some face down), the verdict of both paths is
the one a plain search over every legal move of the engine finds."""

import os
import random

import pytest

from games.engine import get_variant
from games.engine.cards import RANKS, SUITS
from games.engine.solvers import LOST, WON, solver_for

CASES = {"kingsley": (16, 9), "klondike": (60, 8)}
"""Positions per game and the cards left out of the foundations in each."""


def endgame(key, rng, left):
    heights = [13] * 4
    while 52 - sum(heights) < left:
        suit = rng.randrange(4)
        if heights[suit]:
            heights[suit] -= 1
    cards = [
        RANKS[value - 1] + suit
        for suit, height in zip(SUITS, heights, strict=True)
        for value in range(height + 1, 14)
    ]
    rng.shuffle(cards)
    piles = []
    for _ in range(7):
        size = min(len(cards), rng.choice((0, 1, 2, 3, 4)))
        pile, cards = cards[:size], cards[size:]
        piles.append({"down": pile[:-1], "up": pile[-1:]})
    cut = rng.randrange(len(cards) + 1)
    data = {
        "variant": key,
        "tableau": piles,
        "foundations": heights,
        "stock": cards[cut:],
        "waste": cards[:cut],
    }
    if key == "klondike":
        data.update(recycles=0, score=0)
    return get_variant(key).load(data)


def winnable(variant, state):
    """Every position reachable with the engine's legal moves, until one is won."""
    seen = set()
    stack = [state]
    while stack:
        position = stack.pop()
        if variant.is_won(position):
            return True
        for move in variant.legal_moves(position):
            after = variant.apply(position, move).state
            key = (after.tableau, after.foundations, after.stock, after.waste)
            if key not in seen:
                seen.add(key)
                stack.append(after)
    return False


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_verdicts_are_those_of_a_search_over_every_legal_move(key):
    variant = get_variant(key)
    solver = solver_for(key)
    count, left = CASES[key]
    rng = random.Random(f"solvk-{key}")
    paths = [False]
    if solver.native_available():
        paths.append(True)
    elif os.environ.get("CI"):
        pytest.fail("the compiled Klondike core is not built (scripts/build_native.py)")
    verdicts = []
    for _ in range(count):
        state = endgame(key, rng, left)
        expected = WON if winnable(variant, state) else LOST
        for native in paths:
            assert solver.solve(variant, state, native=native).verdict == expected, variant.dump(
                state
            )
        verdicts.append(expected)
    assert WON in verdicts
    assert LOST in verdicts
