"""Spike: properties along random legal games, and the replay fixtures."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    EngineError,
    Move,
    format_move,
    full_deck,
    replay,
    shuffled_deck,
    variant_keys,
)
from games.engine.spike import MODES, WILD_MARK, is_exposed, summit_badge

from .test_spike_helpers import SPIKE, all_cards

FIXTURES = Path(__file__).parent / "fixtures"
REPO_ROOT = Path(__file__).resolve().parents[2]
FULL_DECK = sorted(full_deck())
# A Spike game has at most 28 plays, 23 draws and the wild card.
MAX_MOVES = 60

seeds = st.integers(min_value=0, max_value=10**6).map(lambda n: f"spike-property-{n}")
modes = st.sampled_from(sorted(MODES))


def visible_cards(state):
    spikes = state.spikes
    shown = {card for position, card in enumerate(spikes) if is_exposed(spikes, position)}
    return shown | ({state.waste[-1]} - {WILD_MARK})


def codes_in(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from codes_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from codes_in(item)
    elif isinstance(value, str):
        yield value


@settings(max_examples=80, deadline=None)
@given(seed=seeds, mode=modes, chooser=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(seed, mode, chooser):
    options = {"mode": mode}
    start = SPIKE.deal(shuffled_deck(seed), options)
    state = start
    log = []
    for _ in range(MAX_MOVES):
        moves = SPIKE.legal_moves(state)
        if not moves:
            break
        move = chooser.choice(moves)
        step = SPIKE.apply(state, move)
        new = step.state
        log.append(format_move(move))

        assert sorted(all_cards(new)) == FULL_DECK
        assert new.wild_used == (WILD_MARK in new.waste)
        assert step.points == new.score - state.score
        assert step.points >= 0
        assert new.score == SPIKE.score(new)
        assert new.time_bonus_seconds >= state.time_bonus_seconds
        if mode != "time_attack":
            assert new.time_bonus_seconds == 0
        assert step.won == SPIKE.is_won(new)
        assert step.lost == SPIKE.is_lost(new)
        assert ("won" in step.events) == step.won
        assert ("lost" in step.events) == step.lost
        hidden_before = {
            card
            for position, card in enumerate(state.spikes)
            if card is not None and not is_exposed(state.spikes, position)
        } | set(state.stock)
        assert set(step.revealed) <= hidden_before
        assert set(step.revealed) <= visible_cards(new) | set(new.waste)

        previous = SPIKE.undo(new, step.undo)
        assert previous == state
        assert json.loads(json.dumps(step.undo)) == step.undo

        view = SPIKE.public_view(new)
        codes = set(codes_in(view)) & set(FULL_DECK)
        assert codes <= visible_cards(new)
        assert view["badge"] == summit_badge(new)
        state = new

    assert SPIKE.status(state) != "in_progress"
    replayed = start
    for text in log:
        replayed = SPIKE.play(replayed, text).state
    assert replayed == state
    assert SPIKE.load(SPIKE.dump(state)) == state
    assert SPIKE.load(json.loads(json.dumps(SPIKE.dump(state)))) == state

    result = replay({"variant": "spike", "options": options, "seed": seed, "moves": log})
    assert result["error"] is None
    assert result["moves_applied"] == len(log)
    assert result["score"] == state.score
    assert result["status"] == SPIKE.status(state)
    assert result["public"] == SPIKE.public_view(state)


CANDIDATES = [Move("draw"), Move("wild"), *(Move("play", card=card) for card in FULL_DECK)]


@settings(max_examples=30, deadline=None)
@given(seed=seeds, mode=modes, chooser=st.randoms(use_true_random=False))
def test_legal_moves_are_exactly_the_moves_apply_accepts(seed, mode, chooser):
    state = SPIKE.deal(shuffled_deck(seed), {"mode": mode})
    for number in range(MAX_MOVES):
        moves = SPIKE.legal_moves(state)
        if number % 5 == 0 or not moves:
            assert len(set(moves)) == len(moves)
            for move in CANDIDATES:
                try:
                    SPIKE.apply(state, move)
                except EngineError:
                    assert move not in moves, format_move(move)
                else:
                    assert move in moves, format_move(move)
            playable = [move.card for move in moves if move.kind == "play"]
            assert SPIKE.public_view(state)["playable"] == playable
        if not moves:
            break
        state = SPIKE.apply(state, chooser.choice(moves)).state


# Replay fixtures


def load_fixture(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def test_the_winning_fixture_wins_with_a_gold_badge():
    case = load_fixture("spike_win.json")
    assert case["options"] == {"mode": "classic"}
    result = replay(case)
    assert result["error"] is None
    assert result["moves_applied"] == len(case["moves"])
    assert result["status"] == "won"
    public = result["public"]
    assert public["stock"] == 14
    assert public["spikes_cleared"] == 5
    assert public["cards_on_spikes"] == 0
    assert public["badge"] == "gold"
    assert "wild" in case["moves"]
    # Without the time deduction: card points, 5 x 1,000 and 14 x 500 for the stock left.
    assert result["score"] == 16200
    assert public["score"] == 16200


def test_the_lost_fixture_is_lost_with_a_bronze_badge():
    case = load_fixture("spike_lost.json")
    assert case["options"] == {"mode": "time_attack"}
    result = replay(case)
    assert result["error"] is None
    assert result["status"] == "lost"
    public = result["public"]
    assert public["stock"] == 0
    assert public["wild"] == {"available": False}
    assert public["spikes_cleared"] == 3
    assert public["cards_on_spikes"] == 3
    assert public["badge"] == "bronze"
    assert public["time_bonus_seconds"] == 14
    assert public["lost_reason"].startswith("The stock is empty, the wild card is spent")
    assert result["score"] == 5850


def test_the_mode_changes_the_replayed_score():
    case = load_fixture("spike_lost.json")
    relaxed = replay({**case, "options": {"mode": "relaxed"}})
    assert relaxed["error"] is None
    assert relaxed["public"]["mode"] == "relaxed"
    assert relaxed["public"]["time_bonus_seconds"] == 0
    assert relaxed["score"] > 5850  # draws never break the streak
    default = replay({key: value for key, value in case.items() if key != "options"})
    assert default["public"]["mode"] == "classic"
    assert default["score"] == 5850
    assert default["public"]["time_bonus_seconds"] == 0


def test_a_move_after_the_end_stops_the_replay():
    case = load_fixture("spike_win.json")
    result = replay({**case, "moves": [*case["moves"], "draw"]})
    assert result["status"] == "won"
    assert result["error"]["index"] == len(case["moves"])
    assert result["error"]["message"] == "The game is already won: every spike is cleared"


@pytest.mark.parametrize(
    ("options", "message"),
    [({"mode": "blitz"}, "not 'blitz'"), ({"speed": 1}, "only the option 'mode'")],
)
def test_replay_refuses_bad_spike_options(options, message):
    with pytest.raises(EngineError, match=message):
        replay({"variant": "spike", "options": options, "seed": "s", "moves": []})


def test_the_package_registers_spike_and_the_command_line_replays_it():
    assert "spike" in variant_keys()
    completed = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(FIXTURES / "spike_win.json")],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert result == replay(load_fixture("spike_win.json"))
    assert (result["status"], result["score"]) == ("won", 16200)
