"""Choosing a challenge's goal from what the solver's winning line proves.

The line of a certified deal meets many goals on its way, each at a move of its own
(games.engine.goals.goal_candidates). How much of the line a goal needs is its slack:
the fewer moves, the more ways a player has to get there. So a goal's difficulty comes
from that share and from the solver's effort on the deal, never from a label:

- easy: a goal on the way (after a tenth of the line at least), among the third that
  needs the fewest moves;
- medium: a goal on the way, among the rest;
- hard: a goal that needs the whole line and asks more than the win: one a player can
  win the deal and still miss (within a number of moves, without undo, without a
  reserve slot, with fewer recycles than the solver's own line, a gold badge, a score),
  never the win itself or a goal every win meets (GoalKind.beyond_a_win).

And the day's three deals of a game are handed out by the solver's effort: the one it
solved with the fewest positions is the easy challenge's, the most the hard one's.
"""

import random
from collections.abc import Mapping

from games.engine.goals import Goal, GoalFacts, goal_kind

EASY, MEDIUM, HARD = 1, 2, 3


def _by_kind(goals: list[Goal], chooser: random.Random) -> Goal | None:
    """One of the goals: a kind first, so that no kind wins by having more instances."""
    if not goals:
        return None
    kind = chooser.choice(sorted({goal.kind for goal in goals}))
    return chooser.choice(sorted((g for g in goals if g.kind == kind), key=repr))


MIN_SHARE = 0.1
"""A goal on the way needs at least this share of the line (and 3 moves): one met by
the first move or two is no challenge."""


def _hard(goal: Goal, deal: GoalFacts) -> bool:
    """Whether a goal met by the whole line can be a hard one: it asks more than the win,
    or its figure, which the line does not economise, is to be tightened below the line's
    (challenges.goal_proofs, which checks the goal it proves again)."""
    kind = goal_kind(goal.kind)
    return not kind.figure_stands or kind.beyond_a_win(goal, deal)


def goal_pools(
    candidates: Mapping[Goal, int], line_length: int, deal: GoalFacts
) -> dict[int, list[Goal]]:
    """The candidates each difficulty may choose from (``deal``: the facts of the deal
    before its first move, which say what a win can miss)."""
    fewest = max(3, round(line_length * MIN_SHARE))
    on_the_way = sorted(
        (goal for goal, moves in candidates.items() if fewest <= moves < line_length),
        key=lambda goal: (candidates[goal], repr(goal)),
    )
    whole_line = [
        goal for goal, moves in candidates.items() if moves >= line_length and _hard(goal, deal)
    ]
    easy_count = max(1, len(on_the_way) // 3) if len(on_the_way) > 1 else 0
    return {
        EASY: on_the_way[:easy_count],
        MEDIUM: on_the_way[easy_count:],
        HARD: whole_line,
    }


def goal_chosen(
    *,
    candidates: Mapping[Goal, int],
    line_length: int,
    deal: GoalFacts,
    difficulty: int,
    chooser: random.Random,
) -> Goal | None:
    """The goal of a challenge of this difficulty, or None when the line proves none of
    that difficulty (then a lower pool is not borrowed from: the deal is not used)."""
    return _by_kind(goal_pools(candidates, line_length, deal)[difficulty], chooser)
