"""The lost-game search reads only what the player sees (issue 30): two positions with the
same public view (the same face-up cards, the same counts of face-down cards, different
face-down cards) get the same "lost" and "may be stuck" answers, and so the same public
view and the same hint, whose generator is seeded by that view.

"Lost" never depends on the order the search takes, but "may be stuck" (the cap reached
first) does, and the search took the piles in the order of their face-down cards. The cap
(20,000 positions) binds only in large spaces, so the hand-made pair below binds it at
every small cap instead: there the order decides whether the productive move is found
before the cap."""

import random
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from games.engine import kingsley, shuffled_deck, stuck
from games.engine.cards import full_deck
from games.engine.hints import hint
from games.engine.steps import lost as steps_lost

from .helpers import KINGSLEY, make_kingsley
from .test_steps_helpers import STEPS, make_steps

# 7H on 8S can go onto 8C, which uncovers the 8S, due on the spades (home to the 7): the
# search's first position found free. 7C on 8H can go onto 8D, from where the search goes
# on through more shuttles. Both 8C and 8D lie on a face-down card, and which of the two
# the search tries first decides which branch it sees first.
FACE_UP = ["8S 7H", "8C", "8D", "8H 7C", "2D", "4D", "2H"]
FACE_DOWN_COUNTS = [1, 1, 1, 0, 11, 11, 10]
FOUNDATIONS = {"S": 7}
WASTE = "5D"
CAPS = range(1, 30)


def hidden_cards() -> list[str]:
    shown = {card for pile in FACE_UP for card in pile.split()} | {WASTE}
    home = {f"{rank}S" for rank in "A234567"}
    return [card for card in full_deck() if card not in shown | home]


def tableau(face_down: list[str]) -> list[tuple[str, str]]:
    piles, cards = [], iter(face_down)
    for count, up in zip(FACE_DOWN_COUNTS, FACE_UP, strict=True):
        piles.append((" ".join(next(cards) for _ in range(count)), up))
    return piles


def arrangements() -> list[list[str]]:
    """The face-down cards as dealt, with the two decisive ones swapped both ways, and
    shuffled at random."""
    cards = sorted(hidden_cards())
    first, second = cards[:2]
    rest = cards[2:]
    shuffles = [random.Random(number).sample(cards, len(cards)) for number in range(4)]
    return [[rest[0], first, second, *rest[1:]], [rest[0], second, first, *rest[1:]], *shuffles]


def kingsley_state(face_down: list[str]) -> Any:
    return make_kingsley(tableau(face_down), foundations=FOUNDATIONS, waste=WASTE)


def steps_state(face_down: list[str]) -> Any:
    return make_steps(
        tableau(face_down),
        foundations=FOUNDATIONS,
        waste=WASTE,
        options={"buffers": 0, "recycles": 0},
    )


GAMES = [
    pytest.param(KINGSLEY, kingsley_state, id="kingsley"),
    pytest.param(STEPS, steps_state, id="steps"),
]


@pytest.fixture
def search_cap(monkeypatch):
    """Set the lost-game search's cap for both games (their answers are cached by
    position, so the caches are emptied around each change)."""

    def cap_to(cap: int) -> None:
        monkeypatch.setattr(kingsley, "stuck_verdict", partial(stuck.stuck_verdict, cap=cap))
        monkeypatch.setattr(steps_lost, "SEARCH_CAP", cap)
        kingsley._verdict.cache_clear()
        steps_lost.stuck.cache_clear()

    yield cap_to
    kingsley._verdict.cache_clear()
    steps_lost.stuck.cache_clear()


def answers(variant: Any, state: Any) -> dict[str, Any]:
    return {"status": variant.status(state), "view": variant.public_view(state)}


@pytest.mark.parametrize(("variant", "make"), GAMES)
def test_the_pair_shows_the_same_cards(variant, make) -> None:
    states = [make(cards) for cards in arrangements()]
    views = [variant.public_view(state) for state in states]
    assert all(view == views[0] for view in views)
    assert views[0]["may_be_stuck"] is False
    assert len({tuple(pile.down for pile in state.tableau) for state in states}) == len(states)
    assert all(len(variant.hidden_cards(state)) == sum(FACE_DOWN_COUNTS) for state in states)


@pytest.mark.parametrize(("variant", "make"), GAMES)
def test_equal_public_views_get_the_same_answers_at_every_cap(variant, make, search_cap) -> None:
    states = [make(cards) for cards in arrangements()]
    seen = set()
    for cap in CAPS:
        search_cap(cap)
        first = answers(variant, states[0])
        seen.add(first["view"]["may_be_stuck"])
        for other in states[1:]:
            assert answers(variant, other) == first, f"at a cap of {cap} positions"
    # The caps reach both answers: below the productive move's depth the position may be
    # stuck, above it it is free.
    assert seen == {True, False}


@pytest.mark.parametrize(("variant", "make"), GAMES)
def test_equal_public_views_get_the_same_hint(variant, make, search_cap) -> None:
    states = [make(cards) for cards in arrangements()]
    for cap in (3, stuck.SEARCH_CAP):
        search_cap(cap)
        hints = [hint(variant, state, samples=4, nodes=2_000, budget_ms=60_000) for state in states]
        assert {(each.move, each.text) for each in hints} == {(hints[0].move, hints[0].text)}


def played_to_an_empty_stock(variant: Any, seed: str, options: dict[str, Any]) -> Any:
    """A real game's position: random legal moves from a deal until the stock is empty."""
    chooser = random.Random(seed)
    state = variant.deal(shuffled_deck(seed), variant.normalize_options(options))
    for _ in range(600):
        moves = variant.legal_moves(state)
        if not moves or (not state.stock and any(pile.down for pile in state.tableau)):
            break
        state = variant.apply(state, chooser.choice(moves)).state
    return state


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        pytest.param(KINGSLEY, {}, id="kingsley"),
        pytest.param(STEPS, {}, id="steps"),
        pytest.param(STEPS, {"retrieval": True}, id="steps-retrieval"),
    ],
)
def test_positions_of_real_games_with_the_face_down_cards_shuffled(variant, options) -> None:
    for number in range(4):
        state = played_to_an_empty_stock(variant, f"stuck-public-{number}", options)
        face_down = [card for pile in state.tableau for card in pile.down]
        for shuffle in range(3):
            cards = iter(random.Random(shuffle).sample(face_down, len(face_down)))
            other = replace(
                state,
                tableau=tuple(
                    replace(pile, down=tuple(next(cards) for _ in pile.down))
                    for pile in state.tableau
                ),
            )
            assert answers(variant, other) == answers(variant, state)
