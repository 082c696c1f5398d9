"""Steps' starting layout (a Codex scenario's options): cards dealt onto the foundations
and into reserve slots before the rest of the deck makes the tableau and the stock."""

import pytest

from games.engine import EngineError, get_variant, replay
from games.engine.solvers import WON, Budget, solver_for

STEPS = get_variant("steps")
LAYOUT = {"foundations": {"S": 3, "H": 1}, "reserves": {"r2": "KD"}, "buffers": 3}


def dealt(options=LAYOUT, seed="layout-1"):
    return STEPS.deal(STEPS.deck_of_seed(seed), options)


def test_the_layout_places_its_cards_and_deals_the_rest_in_deck_order() -> None:
    state = dealt()
    view = STEPS.public_view(state)
    assert [pile["count"] for pile in view["foundations"]] == [3, 1, 0, 0]
    assert [slot["card"] for slot in view["reserves"]] == [None, "KD", None, None]
    deck = [c for c in STEPS.deck_of_seed("layout-1") if c not in {"AS", "2S", "3S", "AH", "KD"}]
    assert state.tableau[0].up == (deck[0],)
    assert state.stock == tuple(deck[28:])
    assert view["stock"] == 52 - 5 - 28
    assert view["cards_on_foundations"] == 4
    assert view["reserve_used_ever"] is False


def test_a_plain_deal_keeps_its_four_options() -> None:
    assert set(STEPS.normalize_options({})) == {"draw", "buffers", "recycles", "retrieval"}
    assert STEPS.public_view(dealt({}))["options"] == STEPS.normalize_options({})


def test_the_layout_round_trips_through_the_options_and_the_snapshot() -> None:
    normalized = STEPS.normalize_options(LAYOUT)
    assert STEPS.normalize_options(normalized) == normalized
    state = dealt()
    assert STEPS.load(STEPS.dump(state)) == state


def test_a_card_dealt_into_a_slot_plays_from_it_and_counts_as_no_reserve_use() -> None:
    state = dealt({"reserves": {"r1": "AD"}})
    [home] = [move for move in STEPS.legal_moves(state) if move.src == "r1"]
    step = STEPS.apply(state, home)
    assert step.state.foundations[2] == 1
    assert step.state.reserve_uses == 0
    assert STEPS.public_view(step.state)["reserve_used_ever"] is False
    assert STEPS.undo(step.state, step.undo) == state
    assert STEPS.load(STEPS.dump(step.state)) == step.state


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"foundations": {"X": 1}}, "has no suit 'X'"),
        ({"foundations": {"S": 14}}, "0 to 13 cards"),
        ({"foundations": []}, "maps suits"),
        ({"reserves": {"r5": "KD"}}, "no slot 'r5'"),
        ({"reserves": {"r4": "KD"}, "buffers": 3}, "Slot r4 is closed"),
        ({"reserves": {"r1": "ZZ"}}, "is a card code"),
        ({"foundations": {"S": 2}, "reserves": {"r1": "2S"}}, "cannot be in a slot too"),
        ({"foundations": {"S": 13, "H": 13}}, "the tableau still needs 28"),
        ({"layout": {}}, "Steps has no option"),
    ],
)
def test_a_bad_layout_is_refused_with_the_reason(options, message) -> None:
    with pytest.raises(EngineError, match=message):
        STEPS.normalize_options(options)


def test_a_layout_deal_is_solved_and_its_line_replays_to_a_win() -> None:
    state = dealt()
    solution = solver_for("steps").solve(STEPS, state, budget=Budget(nodes=200_000))
    assert solution.verdict == WON
    outcome = replay(
        {"variant": "steps", "options": LAYOUT, "seed": "layout-1", "moves": list(solution.moves)}
    )
    assert outcome["status"] == "won"
