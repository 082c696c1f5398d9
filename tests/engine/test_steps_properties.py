"""Properties of Steps along random legal games with random options, as for Klondike."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import EngineError, Move, format_move, replay, shuffled_deck
from games.engine.steps import ledger, move_points

from .test_steps_helpers import FULL_DECK, STEPS, codes_in, steps_cards, visible_cards

MAX_MOVES = 250

seeds = st.integers(min_value=0, max_value=10**6).map(lambda n: f"property-{n}")
options = st.fixed_dictionaries(
    {
        "draw": st.sampled_from([1, 3]),
        "buffers": st.integers(min_value=0, max_value=4),
        "recycles": st.integers(min_value=0, max_value=4),
        "retrieval": st.booleans(),
    }
)


def hidden(state):
    return {card for pile in state.tableau for card in pile.down} | set(state.stock)


def check_step(state, step):
    new = step.state
    assert sorted(steps_cards(new)) == FULL_DECK
    assert all(pile.up or not pile.down for pile in new.tableau)
    assert all(card is None for card in new.reserves[new.options.buffers :])
    assert new.options == state.options
    assert 0 <= new.recycles <= new.options.recycles
    assert new.reserve_uses >= sum(card is not None for card in new.reserves)
    # The action points move by the table's lines; the step's points are the ledger's.
    turned_up = bool(step.revealed) and step.move.src in {f"t{n}" for n in range(1, 8)}
    assert new.points - state.points == move_points(step.move, turned_up)
    assert step.points == ledger(new) - ledger(state) == STEPS.score(new) - STEPS.score(state)
    assert step.won == STEPS.is_won(new)
    assert step.lost == STEPS.is_lost(new)
    assert set(step.revealed) <= hidden(state)
    assert set(step.revealed) <= {card for pile in new.tableau for card in pile.up} | set(new.waste)
    view = STEPS.public_view(new)
    assert set(codes_in(view)) <= visible_cards(new)
    assert view["score"] == view["ledger"] == sum(line["value"] for line in view["ledger_lines"])
    assert view["points"] == STEPS.points(new)
    # Undo gives the state back exactly: cards, points, ledger, reserve uses.
    assert STEPS.undo(new, step.undo) == state


@settings(max_examples=60, deadline=None)
@given(seed=seeds, chosen=options, chooser=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(seed, chosen, chooser):
    start = STEPS.deal(shuffled_deck(seed), chosen)
    state = start
    log = []
    for _ in range(MAX_MOVES):
        moves = STEPS.legal_moves(state)
        if not moves:
            assert STEPS.status(state) in ("won", "lost")
            break
        move = chooser.choice(moves)
        step = STEPS.apply(state, move)
        check_step(state, step)
        log.append(format_move(move))
        state = step.state

    replayed = start
    for text in log:
        replayed = STEPS.play(replayed, text).state
    assert replayed == state
    assert STEPS.load(STEPS.dump(state)) == state

    result = replay({"variant": "steps", "options": chosen, "seed": seed, "moves": log})
    assert result["error"] is None
    assert result["moves_applied"] == len(log)
    assert (result["score"], result["points"]) == (STEPS.score(state), state.points)
    assert result["public"] == STEPS.public_view(state)


PLACES = ["w", *(f"t{n}" for n in range(1, 8)), *(f"r{n}" for n in range(1, 5))]
# Every move of the notation that could ever be legal in Steps, and some that never are.
CANDIDATES = [
    Move("draw"),
    Move("recycle"),
    *(
        Move("transfer", src, dst, count)
        for src in PLACES
        for dst in ["f", *PLACES[1:]]
        if dst != src
        for count in range(1, 14 if src.startswith("t") else 2)
    ),
    *(Move("transfer", f"f{suit}", dst) for suit in "SHDC" for dst in PLACES[1:]),
]


@settings(max_examples=30, deadline=None)
@given(seed=seeds, chosen=options, chooser=st.randoms(use_true_random=False))
def test_legal_moves_are_exactly_the_moves_apply_accepts(seed, chosen, chooser):
    state = STEPS.deal(shuffled_deck(seed), chosen)
    for number in range(MAX_MOVES):
        moves = STEPS.legal_moves(state)
        if number % 15 == 0:
            assert len(set(moves)) == len(moves)
            for move in CANDIDATES:
                try:
                    STEPS.apply(state, move)
                except EngineError:
                    assert move not in moves, format_move(move)
                else:
                    assert move in moves, format_move(move)
        if not moves:
            break
        state = STEPS.apply(state, chooser.choice(moves)).state
