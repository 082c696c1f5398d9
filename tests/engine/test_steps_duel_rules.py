"""The Steps Duel's rules (docs/rules/steps-duel.md): the 104-card deal, turns, the pass,
the ends of the game, points for the mover, the two pillars per suit, duplicate cards,
undo, the public view, the notation's "pass" and the replay fixtures."""

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from games.engine import EngineError, Move, format_move, get_variant, parse_move, variant_keys
from games.engine.cards import full_deck
from games.engine.rng import shuffled_deck, shuffled_double_deck
from games.engine.steps_duel.state import STAGNATION_MOVES, DuelState
from games.engine.tableau import Pile

FIXTURES = Path(__file__).parent / "fixtures"
DUEL = get_variant("steps_duel")
EMPTY = Pile()


def board(**fields: object) -> DuelState:
    """A hand-built position: empty piles, pillars and stock unless given."""
    defaults: dict[str, object] = {"tableau": (EMPTY,) * 7, "pillars": (0,) * 8, "stock": ()}
    return DuelState(**{**defaults, **fields})  # type: ignore[arg-type]


def piles(*given: Pile) -> tuple[Pile, ...]:
    return (*given, *(EMPTY,) * (7 - len(given)))


def moves_of(state: DuelState) -> set[str]:
    return {format_move(move) for move in DUEL.legal_moves(state)}


# The deal


def test_the_double_deck_is_two_decks_shuffled_and_the_single_deck_is_unchanged():
    deck = shuffled_double_deck("duel")
    assert len(deck) == 104
    assert Counter(deck) == Counter(full_deck() * 2)
    assert deck == shuffled_double_deck("duel") != shuffled_double_deck("duel-2")
    assert shuffled_deck("arena-test-0")[:4] == ("KC", "6C", "KD", "AD")  # docs/engine.md
    assert DUEL.deck_of_seed("duel") == deck
    assert get_variant("steps").deck_of_seed("duel") == shuffled_deck("duel")


def test_the_deal_is_the_stepped_tableau_with_the_other_76_cards_in_the_stock():
    deck = shuffled_double_deck("deal")
    state = DUEL.deal(deck)
    assert [len(pile.down) for pile in state.tableau] == [0, 1, 2, 3, 4, 5, 6]
    assert [pile.up for pile in state.tableau] == [
        (deck[n * (n + 1) // 2 - 1],) for n in range(1, 8)
    ]
    assert state.stock == deck[28:]
    assert (state.seat, state.scores, state.pillars) == (0, (0, 0), (0,) * 8)
    with pytest.raises(EngineError, match="two decks, 104 cards, not 52"):
        DUEL.deal(full_deck())
    with pytest.raises(EngineError, match="each card exactly twice; not so for: 2S, AS"):
        DUEL.deal(("AS",) * 3 + full_deck()[2:] + full_deck()[1:])
    with pytest.raises(EngineError, match="takes no options"):
        DUEL.deal(deck, {"draw": 3})


# Turns and the pass


def test_seats_alternate_and_each_move_is_one_turn():
    state = DUEL.deal(shuffled_double_deck("turns"))
    for seat in (0, 1, 0, 1):
        assert DUEL.seat_to_move(state) == seat
        state = DUEL.play(state, "draw").state
    assert len(state.waste) == 4  # one card a draw, each draw a whole turn


def test_a_pass_hands_the_turn_over_and_two_in_a_row_end_the_game():
    state = DUEL.deal(shuffled_double_deck("pass"))
    assert "pass" in moves_of(state)
    passed = DUEL.play(state, "pass")
    assert (passed.points, passed.state.seat, passed.state.passes) == (0, 1, 1)
    assert passed.state.tableau == state.tableau
    assert passed.state.stock == state.stock
    # A board move in between starts the count again.
    drawn = DUEL.play(passed.state, "draw").state
    assert drawn.passes == 0
    assert not DUEL.is_over(DUEL.play(drawn, "pass").state)
    ended = DUEL.play(passed.state, "pass")
    assert ended.lost
    assert ended.events == ("lost",)
    assert DUEL.end_reason(ended.state) == "passes"
    assert DUEL.is_over(ended.state)
    assert DUEL.status(ended.state) == "lost"
    assert DUEL.legal_moves(ended.state) == []
    with pytest.raises(EngineError, match=r"The game is over\. Both players passed"):
        DUEL.play(ended.state, "draw")


def test_the_pass_move_is_what_the_platform_plays_when_a_turn_runs_out():
    assert DUEL.pass_move() == Move("pass") == parse_move("pass")


# The other ends


def test_a_lockout_ends_the_game_when_no_move_can_make_progress():
    # 5S cannot go anywhere, the slots are full of cards nothing takes, stock and waste
    # empty: only the pass is left.
    locked = board(
        tableau=piles(Pile(("AH",), ("5S",))),
        reserves=("3D", "3C", "7H", "9S"),
        seat=1,
        scores=(4, 9),
    )
    assert DUEL.end_reason(locked) == "lockout"
    assert DUEL.is_lost(locked)
    assert DUEL.legal_moves(locked) == []
    assert DUEL.winner(locked) == 1
    assert "Stagnation Lockout" in DUEL.public_view(locked)["end_text"]
    # A recycle left with cards on the waste is a way out; with both used it is not.
    assert (
        DUEL.end_reason(board(tableau=locked.tableau, reserves=locked.reserves, waste=("QC",)))
        is None
    )
    assert (
        DUEL.end_reason(
            board(tableau=locked.tableau, reserves=locked.reserves, waste=("QC",), recycles=2)
        )
        == "lockout"
    )
    # A free slot lets the 5S go, turning the Ace up: no lockout.
    assert DUEL.end_reason(board(tableau=locked.tableau, reserves=("3D", "3C", "7H", None))) is None


def test_twenty_moves_without_progress_end_the_game():
    state = board(
        tableau=piles(Pile((), ("KS",)), Pile(("AH",), ("QH",))),
        stock=("2C",),
        idle=STAGNATION_MOVES - 1,
    )
    shuttle = DUEL.play(state, "t1-t3")
    assert shuttle.lost
    assert DUEL.end_reason(shuttle.state) == "stagnation"
    progress = DUEL.play(state, "draw").state
    assert progress.idle == 0
    assert not DUEL.is_over(progress)


def test_a_full_build_wins_the_board_and_the_higher_score_wins_the_game():
    last = board(
        pillars=(13, 13, 13, 13, 13, 13, 13, 12), tableau=piles(Pile((), ("KC",))), scores=(50, 60)
    )
    step = DUEL.play(last, "t1-f")
    assert step.won
    assert step.events == ("won",)
    assert DUEL.end_reason(step.state) == "built"
    assert DUEL.status(step.state) == "won"
    assert DUEL.seat_scores(step.state) == (60, 60)
    assert DUEL.winner(step.state) is None  # a draw
    assert DUEL.winner(board(scores=(1, 0), passes=2)) == 0
    assert DUEL.winner(board(scores=(1, 0), stock=("2C",))) is None  # not over


# Points, pillars and duplicate cards


def test_the_points_go_to_the_seat_that_moved():
    state = board(tableau=piles(Pile(("9D",), ("AS",))), stock=("2C",), seat=1, scores=(7, 3))
    step = DUEL.play(state, "t1-f")
    assert step.points == 15  # to a pillar 10, a card turned up 5
    assert step.state.scores == (7, 18)
    assert step.state.seat == 0
    into_slot = DUEL.play(step.state, "t1-r1").state
    assert into_slot.scores == (5, 18)  # into a slot: -2 for seat 0
    assert DUEL.score(into_slot) == sum(into_slot.scores)


def test_a_card_goes_to_the_first_pillar_of_its_suit_that_takes_it():
    state = board(
        tableau=piles(Pile((), ("AS",)), Pile((), ("AS",)), Pile((), ("2S",)), Pile((), ("2S",))),
        stock=("2C",),
    )
    for move, pillars in [("t1-f", (1, 0)), ("t2-f", (1, 1)), ("t3-f", (2, 1)), ("t4-f", (2, 2))]:
        step = DUEL.play(state, move)
        assert step.state.pillars[:2] == pillars
        assert DUEL.undo(step.state, step.undo) == state
        state = step.state
    view = DUEL.public_view(state)["pillars"]
    assert [(pillar["pillar"], pillar["top"], pillar["count"]) for pillar in view[:3]] == [
        ("S1", "2S", 2),
        ("S2", "2S", 2),
        ("H1", None, 0),
    ]
    with pytest.raises(
        EngineError,
        match="No pillar takes the 4 of spades: the spades pillars need the 3 of spades",
    ):
        DUEL.apply(
            board(tableau=piles(Pile((), ("4S",))), pillars=state.pillars, stock=("2C",)),
            parse_move("t1-f"),
        )


def test_two_identical_cards_are_two_moves_and_each_undoes_exactly():
    state = board(
        tableau=piles(Pile(("KD",), ("5H",)), Pile(("QD",), ("5H",)), Pile((), ("6S",))),
        waste=("5H",),
        stock=("2C",),
    )
    builds = {"t1-t3", "t2-t3", "w-t3"}
    assert builds <= moves_of(state)
    results = {move: DUEL.play(state, move) for move in builds}
    assert len({step.state for step in results.values()}) == 3
    for step in results.values():
        assert step.state.tableau[2].up == ("6S", "5H")
        assert DUEL.undo(step.state, json.loads(json.dumps(step.undo))) == state
    assert results["t1-t3"].revealed == ("KD",)
    assert results["w-t3"].revealed == ()


def test_foundation_cards_stay_and_slot_to_slot_is_refused():
    state = board(
        tableau=piles(Pile((), ("2S",))),
        pillars=(1,) + (0,) * 7,
        reserves=("9D", None, None, None),
        stock=("2C",),
    )
    with pytest.raises(EngineError, match="foundation permanence"):
        DUEL.play(state, "fS-t1")
    with pytest.raises(EngineError, match="from one reserve slot to another"):
        DUEL.play(state, "r1-r2")
    for text in ("deal", "wild", "9D"):
        with pytest.raises(EngineError, match=f"The Duel has no '{text}' move"):
            DUEL.play(state, text)


# Undo, the view, the snapshot


def test_undo_walks_a_random_game_back_to_the_deal_exactly():
    deal = DUEL.deal(shuffled_double_deck("undo"))
    chooser = random.Random("undo")
    states, records = [deal], []
    state = deal
    while (legal := [move for move in DUEL.legal_moves(state) if move.kind != "pass"]) and len(
        records
    ) < 200:
        step = DUEL.apply(state, chooser.choice(legal))
        records.append(json.loads(json.dumps(step.undo)))
        state = step.state
        states.append(state)
    for before, record in zip(reversed(states[:-1]), reversed(records), strict=True):
        state = DUEL.undo(state, record)
        assert state == before
    assert state == deal
    with pytest.raises(EngineError, match="does not fit"):
        DUEL.undo(deal, {"move": "pass", "passes": 0, "idle": 0})


def test_the_public_view_shows_the_board_and_never_a_hidden_card():
    state = DUEL.deal(shuffled_double_deck("view"))
    for move in ("draw", "draw", "pass"):
        state = DUEL.play(state, move).state
    view = DUEL.public_view(state)
    assert view["tableau"][6] == {"down": 6, "up": list(state.tableau[6].up)}
    assert view["stock"] == 74
    assert view["waste"] == {"count": 2, "fan": [state.waste[-1]]}
    assert (view["seat_to_move"], view["scores"], view["passes_in_a_row"]) == (1, [0, 0], 1)
    assert (view["status"], view["over"], view["end_reason"], view["winner"]) == (
        "in_progress",
        False,
        None,
        None,
    )
    assert len(view["pillars"]) == 8
    assert len(view["reserves"]) == 4
    # The same board with its hidden cards in another order looks the same.
    hidden = list(DUEL.hidden_cards(state))
    assert len(hidden) == 21 + 74 + 1
    twin = DUEL.with_hidden_cards(state, hidden[::-1])
    assert twin != state
    assert DUEL.public_view(twin) == view
    assert DUEL.load(json.loads(json.dumps(DUEL.dump(state)))) == state


def test_a_snapshot_with_a_card_three_times_is_refused():
    dump = DUEL.dump(DUEL.deal(shuffled_double_deck("load")))
    dump["stock"][0] = dump["tableau"][0]["up"][0]
    with pytest.raises(EngineError, match="each card exactly twice"):
        DUEL.load(dump)


# The notation and the replay


def test_pass_is_a_keyword_of_the_notation_that_other_games_refuse():
    assert parse_move("pass") == Move("pass")
    assert format_move(Move("pass")) == "pass"
    assert format_move(parse_move("pass")) == "pass"
    with pytest.raises(EngineError):
        format_move(Move("pass", src="t1"))
    for key in set(variant_keys()) - {"steps_duel"}:
        variant = get_variant(key)
        state = variant.deal(variant.deck_of_seed("pass"))
        with pytest.raises(EngineError, match=f"{variant.name} has no 'pass' move"):
            variant.play(state, "pass")


@pytest.mark.parametrize(
    ("name", "reason", "status"),
    [("built", "built", "won"), ("passes", "passes", "lost"), ("lockout", "lockout", "lost")],
)
def test_the_fixtures_replay_to_their_end_on_the_command_line(name, reason, status):
    path = FIXTURES / f"steps_duel_{name}.json"
    completed = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert result["error"] is None
    assert result["status"] == status
    assert result["moves_applied"] == len(json.loads(path.read_text())["moves"])
    public = result["public"]
    assert public["end_reason"] == reason
    assert public["over"]
    assert result["score"] == sum(public["scores"])
    if name == "built":
        assert public["cards_on_pillars"] == 104
