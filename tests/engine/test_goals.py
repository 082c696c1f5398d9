"""Goals of the daily challenges: each kind met and not met, refused figures, and the
candidates a winning line proves."""

from dataclasses import replace

import pytest

from games.engine import EngineError, get_variant, shuffled_deck, variant_keys
from games.engine.goals import (
    Goal,
    GoalFacts,
    goal_candidates,
    goal_description,
    goal_kind,
    goal_of,
    goal_progress,
    goal_proof_length,
    line_facts,
)
from games.engine.solvers import WON, Budget, solver_for


def facts(
    status: str = "in_progress", moves: int = 10, undos: int = 0, **public: object
) -> GoalFacts:
    return GoalFacts(public=public, status=status, moves=moves, undos=undos)


def piles(**counts: int) -> list[dict[str, object]]:
    return [{"suit": suit, "top": None, "count": counts.get(suit, 0)} for suit in "SHDC"]


MET_AND_NOT = [
    (Goal(kind="win"), facts("won"), facts()),
    (Goal(kind="win_within", count=100), facts("won", moves=100), facts("won", moves=101)),
    (Goal(kind="win_without_undo"), facts("won"), facts("won", undos=1)),
    (
        Goal(kind="foundation_rank", rank="7", count=2),
        facts(foundations=piles(S=7, H=9)),
        facts(foundations=piles(S=7, H=6, D=3)),
    ),
    (
        Goal(kind="foundation_suit", suit="H", count=5),
        facts(foundations=piles(H=5)),
        facts(foundations=piles(S=13, H=4)),
    ),
    (
        Goal(kind="foundation_cards", count=20),
        facts(foundations=piles(S=10, H=10)),
        facts(foundations=piles(S=10, H=9)),
    ),
    (Goal(kind="score", count=750), facts(score=750), facts(score=749)),
    (Goal(kind="spikes_cleared", count=3), facts(spikes_cleared=3), facts(spikes_cleared=2)),
    (Goal(kind="summit_badge", badge="silver"), facts(badge="gold"), facts(badge="bronze")),
    (Goal(kind="streak_bracket", count=5), facts(streak=5), facts(streak=4)),
    (Goal(kind="runs_removed", count=2), facts(removed_runs=["S", "H"]), facts(removed_runs=["S"])),
    (
        Goal(kind="win_without_reserve"),
        facts("won", reserve_used_ever=False),
        facts("won", reserve_used_ever=True),
    ),
    (Goal(kind="win_within_recycles", count=1), facts("won", recycles=1), facts("won", recycles=2)),
]


@pytest.mark.parametrize(
    ("goal", "met", "not_met"), MET_AND_NOT, ids=lambda v: getattr(v, "kind", "")
)
def test_every_goal_kind_is_met_and_not_met(goal: Goal, met: GoalFacts, not_met: GoalFacts) -> None:
    assert goal_progress(goal, met).met
    assert not goal_progress(goal, not_met).met


def test_every_registered_kind_is_tested_both_ways() -> None:
    declared = {kind for key in variant_keys() for kind in get_variant(key).goal_kinds}
    assert declared == {goal.kind for goal, _, _ in MET_AND_NOT}


def _deal_facts(key: str) -> GoalFacts:
    variant = get_variant(key)
    return line_facts(variant, variant.deal(shuffled_deck(f"beyond-{key}")), [])[0]


BEYOND_A_WIN = [
    ("klondike", Goal(kind="win"), False),
    ("klondike", Goal(kind="win_within", count=150), True),
    ("klondike", Goal(kind="win_without_undo"), True),
    ("klondike", Goal(kind="foundation_rank", rank="K", count=4), False),
    ("klondike", Goal(kind="foundation_suit", suit="H", count=13), False),
    ("klondike", Goal(kind="foundation_cards", count=45), False),
    ("klondike", Goal(kind="win_within_recycles", count=13), True),  # no limit to recycles
    ("steps", Goal(kind="win_within_recycles", count=3), False),  # the deal allows 3
    ("steps", Goal(kind="win_within_recycles", count=2), True),
    ("steps", Goal(kind="win_without_reserve"), True),
    ("steps", Goal(kind="score", count=1_000), True),
    ("spike", Goal(kind="spikes_cleared", count=5), False),
    ("spike", Goal(kind="summit_badge", badge="silver"), False),
    ("spike", Goal(kind="summit_badge", badge="gold"), True),
    ("spike", Goal(kind="streak_bracket", count=8), True),
    ("spiderette", Goal(kind="runs_removed", count=4), False),
]


@pytest.mark.parametrize(("key", "goal", "beyond"), BEYOND_A_WIN, ids=lambda v: str(v))
def test_a_goal_asks_more_than_the_win_only_where_a_win_can_miss_it(key, goal, beyond) -> None:
    assert goal_kind(goal.kind).beyond_a_win(goal, _deal_facts(key)) is beyond


def test_without_a_reserve_slot_to_avoid_no_reserve_goal_asks_more() -> None:
    steps = get_variant("steps")
    state = steps.deal(shuffled_deck("beyond-steps"), steps.normalize_options({"buffers": 0}))
    deal = line_facts(steps, state, [])[0]
    assert not goal_kind("win_without_reserve").beyond_a_win(Goal(kind="win_without_reserve"), deal)


def test_the_progress_counts_towards_the_target_in_words() -> None:
    goal = Goal(kind="foundation_rank", rank="7", count=2)
    progress = goal_progress(goal, facts(foundations=piles(S=8)))
    assert (progress.done, progress.target, progress.met) == (1, 2, False)
    assert progress.text == "Sevens to the foundations: 1 of 2"
    assert goal_progress(goal, facts(foundations=piles(S=8, D=7))).text == (
        "Sevens to the foundations: done"
    )


def test_a_goal_the_game_can_no_longer_meet_says_so() -> None:
    no_undo = goal_progress(Goal(kind="win_without_undo"), facts(undos=1))
    assert no_undo.failed
    assert not no_undo.met
    assert no_undo.text == "Win with no move taken back: out of reach in this game"
    within = goal_progress(Goal(kind="win_within", count=50), facts(moves=51))
    assert within.failed
    assert goal_progress(Goal(kind="win_without_reserve"), facts(reserve_used_ever=True)).failed
    assert not goal_progress(Goal(kind="win_within", count=50), facts(moves=50)).failed


def test_descriptions_are_plain_words() -> None:
    steps, spike, klondike = get_variant("steps"), get_variant("spike"), get_variant("klondike")
    assert goal_description(Goal(kind="foundation_rank", rank="7", count=2), klondike) == (
        "Play two sevens to the foundations"
    )
    assert goal_description(Goal(kind="foundation_rank", rank="K", count=1), klondike) == (
        "Play one king to the foundations"
    )
    assert goal_description(Goal(kind="score", count=750), steps) == (
        "Reach 750 on the Architect Ledger"
    )
    assert goal_description(Goal(kind="score", count=9000), spike) == (
        "Reach 9000 on the Summit ledger"
    )
    assert goal_description(Goal(kind="foundation_suit", suit="D", count=11), klondike) == (
        "Build the diamonds foundation from the ace up to the jack"
    )
    assert goal_description(Goal(kind="win_within_recycles", count=0), steps) == (
        "Win without recycling the waste"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("win", "A goal is an object"),
        ({"kind": "fly"}, "Unknown goal kind 'fly'"),
        ({"kind": "win", "colour": "red"}, "A goal has no colour"),
        ({"kind": "runs_removed", "count": 2}, "Klondike has no runs_removed goal"),
        ({"kind": "foundation_rank", "rank": "X", "count": 1}, "needs a rank"),
        ({"kind": "foundation_rank", "rank": "7", "count": 5}, "counts 1 to 4 cards"),
        ({"kind": "foundation_cards", "count": 0}, "a count from 1 up"),
        ({"kind": "foundation_cards", "count": "3"}, "a whole number"),
        ({"kind": "foundation_suit", "suit": 3, "count": 4}, "is text"),
    ],
)
def test_a_bad_goal_is_refused_with_the_reason(data: object, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        goal_of(data, get_variant("klondike"))


def test_a_goal_round_trips_through_its_json() -> None:
    klondike = get_variant("klondike")
    for goal in (
        Goal(kind="win"),
        Goal(kind="foundation_rank", rank="Q", count=3),
        Goal(kind="win_within_recycles", count=0),
    ):
        assert goal_of(goal.as_json(), klondike) == goal


def test_the_duel_board_sets_no_goal() -> None:
    assert get_variant("steps_duel").goal_kinds == ()
    with pytest.raises(EngineError, match="Steps Duel has no win goal"):
        goal_of({"kind": "win"}, get_variant("steps_duel"))


def _won_line(key: str) -> tuple[object, tuple[str, ...]]:
    variant = get_variant(key)
    for number in range(40):
        state = variant.deal(shuffled_deck(f"goals-{key}-{number}"))
        solution = solver_for(key).solve(variant, state, budget=Budget(nodes=200_000))
        if solution.verdict == WON:
            return state, solution.moves
    raise AssertionError(f"no {key} seed won")


@pytest.mark.parametrize("key", ["klondike", "kingsley", "spiderette", "steps", "spike"])
def test_every_candidate_is_proved_by_the_line_at_the_move_it_names(key: str) -> None:
    variant = get_variant(key)
    state, line = _won_line(key)
    timeline = line_facts(variant, state, line)
    candidates = goal_candidates(variant, timeline)
    assert Goal(kind="win") in candidates
    assert candidates[Goal(kind="win")] == len(line)
    assert {goal.kind for goal in candidates} <= set(variant.goal_kinds)
    for goal, moves in candidates.items():
        assert goal_proof_length(goal, timeline) == moves
        assert goal_progress(goal, timeline[moves]).met
        if moves:
            assert not goal_progress(goal, timeline[moves - 1]).met
        goal_of(goal.as_json(), variant)


def test_a_goal_the_line_never_meets_has_no_proof() -> None:
    variant = get_variant("klondike")
    state, line = _won_line("klondike")
    timeline = line_facts(variant, state, line)
    assert goal_proof_length(Goal(kind="win_within", count=len(line) - 1), timeline) is None
    assert goal_proof_length(Goal(kind="win_within", count=len(line)), timeline) == len(line)


def test_a_line_that_does_not_play_is_refused() -> None:
    variant = get_variant("klondike")
    state, line = _won_line("klondike")
    with pytest.raises(EngineError):
        line_facts(variant, state, ["t1-t1", *line])


def test_kinds_are_registered_once() -> None:
    kind = goal_kind("win")
    assert goal_kind("win") is kind
    assert replace(Goal(kind="win"), count=0) == Goal(kind="win")
