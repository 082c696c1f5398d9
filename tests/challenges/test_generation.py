"""Choosing a goal of a difficulty from the goals a winning line proves."""

import random

from challenges.generation import EASY, HARD, MEDIUM, goal_chosen, goal_pools
from games.engine.goals import Goal, GoalFacts

DEAL = GoalFacts(public={"recycles": 0}, status="in_progress", moves=0, undos=0)
"""A Klondike deal's facts, as far as the pools read them: no recycle limit."""


def candidates() -> dict[Goal, int]:
    return {
        Goal(kind="foundation_rank", rank="A", count=1): 1,
        Goal(kind="foundation_rank", rank="A", count=2): 12,
        Goal(kind="foundation_cards", count=5): 20,
        Goal(kind="foundation_suit", suit="H", count=4): 40,
        Goal(kind="foundation_cards", count=20): 60,
        Goal(kind="foundation_rank", rank="9", count=2): 80,
        Goal(kind="win"): 100,
        Goal(kind="win_without_undo"): 100,
        Goal(kind="foundation_rank", rank="K", count=4): 100,
        Goal(kind="win_within_recycles", count=6): 100,
    }


def test_the_pools_follow_the_share_of_the_line_a_goal_needs() -> None:
    pools = goal_pools(candidates(), 100, DEAL)
    assert pools[EASY] == [Goal(kind="foundation_rank", rank="A", count=2)]
    assert pools[MEDIUM] == [
        Goal(kind="foundation_cards", count=5),
        Goal(kind="foundation_suit", suit="H", count=4),
        Goal(kind="foundation_cards", count=20),
        Goal(kind="foundation_rank", rank="9", count=2),
    ]
    assert set(pools[HARD]) == {
        Goal(kind="win_without_undo"),
        Goal(kind="win_within_recycles", count=6),
    }


def test_a_hard_goal_asks_more_than_the_win() -> None:
    # A win meets "win" and puts all four kings home; with no reserve slot to avoid,
    # "without a reserve slot" is a win too. A recycle bound stays, to be tightened below
    # the line's own count when it is proved (challenges.goal_proofs).
    steps_deal = GoalFacts(
        public={"recycles": 0, "recycles_left": 3, "reserves": [{"enabled": False}]},
        status="in_progress",
        moves=0,
        undos=0,
    )
    whole = {
        Goal(kind="win"): 100,
        Goal(kind="foundation_rank", rank="K", count=4): 100,
        Goal(kind="win_within_recycles", count=3): 100,
        Goal(kind="win_within_recycles", count=2): 100,
        Goal(kind="win_without_reserve"): 100,
    }
    assert set(goal_pools(whole, 100, steps_deal)[HARD]) == {
        Goal(kind="win_within_recycles", count=3),
        Goal(kind="win_within_recycles", count=2),
    }


def test_a_goal_met_in_the_first_moves_is_no_challenge() -> None:
    pools = goal_pools(candidates(), 100, DEAL)
    assert all(
        Goal(kind="foundation_rank", rank="A", count=1) not in pool for pool in pools.values()
    )


def test_the_choice_is_the_same_for_the_same_day_and_varies_by_kind() -> None:
    first = goal_chosen(
        candidates=candidates(),
        line_length=100,
        deal=DEAL,
        difficulty=MEDIUM,
        chooser=random.Random("d"),
    )
    again = goal_chosen(
        candidates=candidates(),
        line_length=100,
        deal=DEAL,
        difficulty=MEDIUM,
        chooser=random.Random("d"),
    )
    assert first == again
    kinds = {
        goal_chosen(
            candidates=candidates(),
            line_length=100,
            deal=DEAL,
            difficulty=MEDIUM,
            chooser=random.Random(n),
        ).kind
        for n in range(40)
    }
    assert kinds == {"foundation_cards", "foundation_suit", "foundation_rank"}


def test_no_goal_of_a_difficulty_when_the_line_proves_none() -> None:
    only_wins = {Goal(kind="win"): 50}
    assert (
        goal_chosen(
            candidates=only_wins,
            line_length=50,
            deal=DEAL,
            difficulty=EASY,
            chooser=random.Random(1),
        )
        is None
    )
