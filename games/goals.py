"""A game's goal, as its track set it (a daily challenge's): read from the game and
measured by the engine (games.engine.goals) from the position and the game's history."""

from collections.abc import Mapping
from typing import Any

from games.engine import Variant
from games.engine.goals import Goal, GoalFacts, Progress, goal_of, goal_progress
from games.models import Game


def game_goal(game: Game, variant: Variant[Any]) -> Goal | None:
    """The game's goal, or None when its track set none."""
    return goal_of(game.goal, variant) if game.goal else None


def game_goal_progress(
    game: Game,
    variant: Variant[Any],
    state: Any,
    goal: Goal | None = None,
    public: Mapping[str, Any] | None = None,
) -> Progress | None:
    """How far the game's position is from its goal; None for a game without one.
    `public`: the position's public view, when the caller has it already."""
    goal = goal or game_goal(game, variant)
    if goal is None:
        return None
    facts = GoalFacts(
        public=public if public is not None else variant.public_view(state),
        status=variant.status(state),
        moves=game.move_count,
        undos=game.undo_count,
    )
    return goal_progress(goal, facts)
