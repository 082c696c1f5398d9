"""The contract every registered variant keeps, checked for each configuration of
tests/engine/variants.py (every variant, Spike's modes, a spread of Steps' options) on
random games from fixed seeds, and the golden counts of its move generation
(tests/engine/golden.py; regenerate with ``python -m tests.engine.golden --write``).

- the moves ``legal_moves`` lists are exactly the moves ``apply`` accepts, tried on the
  whole notation space the position could name (every keyword, every card code, every
  transfer between every pair of places with every count up to one more than the
  source pile's face-up cards): each illegal one raises EngineError, each legal one
  succeeds;
- ``undo`` is the exact inverse of ``apply`` (the state, its snapshot, and with the
  record through JSON as the server stores it); a step's points, won and lost agree
  with the state it leads to;
- the notation round trip of every legal move;
- the snapshot round trip of every position, through JSON too.
"""

import json
import random
from functools import cache
from typing import Any

import pytest

from games.engine import (
    EngineError,
    Move,
    format_move,
    get_variant,
    parse_move,
    variant_keys,
)
from games.engine.cards import full_deck
from games.engine.notation import (
    DEAL,
    DRAW,
    FOUNDATION,
    FOUNDATION_SOURCES,
    PASS,
    RECYCLE,
    RESERVE_PLACES,
    TABLEAU_PLACES,
    TRANSFER,
    WASTE,
    WILD,
)
from tests.engine import golden
from tests.engine.variants import OPTION_SETS, check_option_sets, config_id, configs

CONFIGS = configs()
IDS = [config_id(key, options) for key, options in CONFIGS]
SEEDS = ("contract-0", "contract-1", "contract-2")
MAX_MOVES = 150
EVERY_MOVE_EVERY = 3
"""The whole notation space is tried on every third position of a game (and its last)."""

SOURCES = (WASTE, *TABLEAU_PLACES, *FOUNDATION_SOURCES, *RESERVE_PLACES)
DESTINATIONS = (FOUNDATION, *TABLEAU_PLACES, *RESERVE_PLACES)
KEYWORD_MOVES = [Move(kind) for kind in (DRAW, RECYCLE, DEAL, WILD, PASS)]
CARD_MOVES = [parse_move(card) for card in full_deck()]


@cache
def game(key: str, options_json: str, seed: str) -> tuple[Any, ...]:
    """The positions of a random game (uniformly random legal moves), the deal first."""
    variant = get_variant(key)
    state = variant.deal(variant.deck_of_seed(seed), json.loads(options_json))
    chooser = random.Random(seed)
    states = [state]
    for _ in range(MAX_MOVES):
        moves = variant.legal_moves(state)
        if not moves:
            break
        state = variant.apply(state, chooser.choice(moves)).state
        states.append(state)
    return tuple(states)


def positions(key: str, options: dict[str, object]) -> list[Any]:
    return [
        state
        for seed in SEEDS
        for state in game(key, json.dumps(options, sort_keys=True), f"{seed}:{key}")
    ]


def notation_space(dump: dict[str, Any]) -> list[Move]:
    """Every move of the notation that this position could name: all of it, but counts
    only up to one more than the face-up cards of the source pile (a larger count is
    refused for the same reason)."""
    up_counts = [len(pile["up"]) for pile in dump.get("tableau", [])] or [0] * 7
    moves = [*KEYWORD_MOVES, *CARD_MOVES]
    for src in SOURCES:
        if src in TABLEAU_PLACES:
            counts = range(1, up_counts[TABLEAU_PLACES.index(src)] + 2)
        else:
            counts = range(1, 2)
        for dst in DESTINATIONS:
            if src == dst or (src in FOUNDATION_SOURCES and dst == FOUNDATION):
                continue
            moves.extend(Move(TRANSFER, src, dst, count) for count in counts)
    return moves


def test_the_configurations_name_registered_variants_and_valid_options():
    check_option_sets()
    assert set(OPTION_SETS) <= {key for key, _ in CONFIGS}


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=IDS)
def test_legal_moves_are_exactly_the_moves_apply_accepts(key, options):
    variant = get_variant(key)
    others = [get_variant(other).name for other in variant_keys() if other != key]
    states = positions(key, options)
    checked = [state for number, state in enumerate(states) if number % EVERY_MOVE_EVERY == 0]
    for state in [*checked, states[-1]]:
        legal = variant.legal_moves(state)
        assert len(set(legal)) == len(legal), "legal_moves lists a move twice"
        space = notation_space(variant.dump(state))
        assert set(legal) <= set(space)
        accepted = set()
        unexplained = []
        for move in space:
            try:
                variant.apply(state, move)
            except EngineError as error:
                message = str(error)
                if not message or any(name in message for name in others):
                    unexplained.append(f"{format_move(move)}: {message!r}")
            else:
                accepted.add(move)
        assert unexplained == [], "refused without a reason, or naming another game"
        assert {format_move(move) for move in accepted} == {format_move(move) for move in legal}


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=IDS)
def test_undo_is_the_exact_inverse_of_every_legal_move(key, options):
    variant = get_variant(key)
    for state in positions(key, options):
        dump = variant.dump(state)
        for move in variant.legal_moves(state):
            step = variant.apply(state, move)
            after = step.state
            assert variant.undo(after, step.undo) == state
            through_json = variant.undo(after, json.loads(json.dumps(step.undo)))
            assert through_json == state
            assert variant.dump(through_json) == dump
            assert step.move == move
            assert step.points == variant.score(after) - variant.score(state)
            assert step.won == variant.is_won(after)
            assert step.lost == variant.is_lost(after)


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=IDS)
def test_every_legal_move_survives_the_notation_round_trip(key, options):
    variant = get_variant(key)
    for state in positions(key, options):
        for move in variant.legal_moves(state):
            text = format_move(move)
            assert parse_move(text) == move
            assert format_move(parse_move(text)) == text


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=IDS)
def test_every_position_survives_the_snapshot_round_trip(key, options):
    variant = get_variant(key)
    for state in positions(key, options):
        dump = variant.dump(state)
        assert variant.load(dump) == state
        stored = json.loads(json.dumps(dump))
        assert variant.load(stored) == state
        assert variant.dump(variant.load(stored)) == dump


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=IDS)
def test_a_finished_game_has_no_legal_moves(key, options):
    variant = get_variant(key)
    for state in positions(key, options):
        if variant.status(state) != "in_progress":
            assert variant.legal_moves(state) == []


# Golden counts


def test_every_configuration_has_golden_counts():
    assert set(golden.stored()) == set(IDS), (
        "regenerate the golden counts: python -m tests.engine.golden --write"
    )


@pytest.mark.parametrize(("key", "options"), CONFIGS, ids=IDS)
def test_move_generation_matches_the_golden_counts(key, options):
    stored = golden.stored().get(config_id(key, options))
    assert stored is not None, "no golden counts: python -m tests.engine.golden --write"
    assert golden.compute(key, options) == stored
