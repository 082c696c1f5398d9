"""Every achievement, declared in this one place.

An achievement is a code (stable: stored with each award), a title, a
description, the game it belongs to (None for all games), an icon (a name in
templates/achievements/_icon.html) and the rule that decides it from a closed
game (achievements/rules.py). A repeatable achievement is awarded once per game
that earns it and shows a count; any other is awarded once per player.

Declaring a new one is all it takes: the next catch-up task
(`achievements_catch_up_task`, on the beat) evaluates every past game for it.
A game that lands later gets its first-win and no-undo badges from its spec
(games/specs.py, `generic_badges`).

The monthly challenge badges are declared apart (MONTHLY_ACHIEVEMENTS): their
rule reads a player's month of daily challenges, not a game, so neither the
evaluation of a closed game nor the backfill runs them; a completion's task
(`challenge_month_awards_task`) and the catch-up do. Each is earned once per
player and month, every month anew.
"""

from dataclasses import dataclass

from achievements import rules
from achievements.monthly import MonthRule, month_rule
from achievements.rules import Rule
from challenges.stars import MONTH_THRESHOLDS
from games.specs import game_specs


@dataclass(frozen=True)
class Achievement:
    code: str
    title: str
    description: str
    game: str | None
    icon: str
    rule: Rule
    repeatable: bool = False


@dataclass(frozen=True)
class MonthlyAchievement:
    """A badge of a month of daily challenges, for all games."""

    code: str
    title: str
    description: str
    icon: str
    rule: MonthRule
    game: None = None
    repeatable: bool = True


# The games with a first-win and a no-undo badge (games.specs): key and name.
GAMES: dict[str, str] = {spec.key: spec.name for spec in game_specs() if spec.generic_badges}

ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement(
        code="spike-summit-gold",
        title="Gold Summit",
        description=(
            "End a Spike game with all five spikes cleared and more than 10 cards left "
            "in the stock."
        ),
        game="spike",
        icon="summit-gold",
        rule=rules.summit_badge("gold"),
        repeatable=True,
    ),
    Achievement(
        code="spike-summit-silver",
        title="Silver Summit",
        description="End a Spike game with all five spikes cleared.",
        game="spike",
        icon="summit-silver",
        rule=rules.summit_badge("silver"),
        repeatable=True,
    ),
    Achievement(
        code="spike-summit-bronze",
        title="Bronze Summit",
        description="End a Spike game with at least three spikes cleared.",
        game="spike",
        icon="summit-bronze",
        rule=rules.summit_badge("bronze"),
        repeatable=True,
    ),
    Achievement(
        code="steps-flawless-ascension",
        title="Flawless Ascension",
        description="Win a game of Steps without using a single reserve slot.",
        game="steps",
        icon="feather",
        rule=rules.steps_win_without_reserve(),
    ),
    Achievement(
        code="steps-master-architect",
        title="Master Architect",
        description=(
            "Win the ranked attempt at a Steps daily deal with the top ledger score of the deal."
        ),
        game="steps",
        icon="column",
        rule=rules.steps_top_of_deal(),
        repeatable=True,
    ),
    *(
        Achievement(
            code=f"first-win-{key}",
            title=f"First {name} win",
            description=f"Win a game of {name}.",
            game=key,
            icon="star",
            rule=rules.first_win(key),
        )
        for key, name in GAMES.items()
    ),
    Achievement(
        code="wins-10",
        title="Ten wins",
        description="Win 10 games, all games together.",
        game=None,
        icon="trophy",
        rule=rules.wins(10),
    ),
    Achievement(
        code="wins-100",
        title="A hundred wins",
        description="Win 100 games, all games together.",
        game=None,
        icon="trophy-gold",
        rule=rules.wins(100),
    ),
    Achievement(
        code="daily-streak-3",
        title="Three days running",
        description="Play a daily deal three days in a row.",
        game=None,
        icon="flame",
        rule=rules.daily_streak(3),
    ),
    Achievement(
        code="daily-streak-7",
        title="A week of dailies",
        description="Play a daily deal seven days in a row.",
        game=None,
        icon="flame",
        rule=rules.daily_streak(7),
    ),
    Achievement(
        code="daily-streak-30",
        title="A month of dailies",
        description="Play a daily deal thirty days in a row.",
        game=None,
        icon="flame",
        rule=rules.daily_streak(30),
    ),
    Achievement(
        code="klondike-under-3-minutes",
        title="Klondike in under 3 minutes",
        description="Win a game of Klondike in less than three minutes.",
        game="klondike",
        icon="stopwatch",
        rule=rules.win_under("klondike", 180),
    ),
    *(
        Achievement(
            code=f"no-undo-win-{key}",
            title=f"{name} without undo",
            description=f"Win a game of {name} without taking a move back.",
            game=key,
            icon="shield",
            rule=rules.win_without_undo(key),
        )
        for key, name in GAMES.items()
    ),
    Achievement(
        code="first-match-win",
        title="First match win",
        description="Win a match against another player, in any mode.",
        game=None,
        icon="trophy",
        rule=rules.match_win(),
    ),
    Achievement(
        code="sprint-clear",
        title="Sprint clear",
        description="Clear the whole board in an Architect's Sprint before the clock runs out.",
        game="steps",
        icon="column",
        rule=rules.sprint_clear(),
        repeatable=True,
    ),
    Achievement(
        code="duel-won-by-100",
        title="Duel by a hundred",
        description="Win a Head-to-Head Duel by 100 points or more.",
        game="steps",
        icon="trophy",
        rule=rules.duel_won_by(100),
    ),
    Achievement(
        code="spiderette-all-four-runs",
        title="All four runs",
        description="Take all four runs off the table in Spiderette.",
        game="spiderette",
        icon="runs",
        rule=rules.all_runs_removed(4),
    ),
)

# Judged again when a match settles (achievements.services.match_achievements_evaluate).
MATCH_ACHIEVEMENT_CODES = ("first-match-win", "sprint-clear", "duel-won-by-100")


def _monthly_description(stars: int | None) -> str:
    if stars is None:
        return "Complete every daily challenge of a month."
    return f"Earn {stars} daily challenge stars in one month."


# Bronze, silver, gold and perfect, from the thresholds the challenges page shows.
MONTHLY_ACHIEVEMENTS: tuple[MonthlyAchievement, ...] = tuple(
    MonthlyAchievement(
        code=f"challenges-{threshold.badge}",
        title=f"{threshold.title} challenger",
        description=_monthly_description(threshold.stars),
        icon=f"challenges-{threshold.badge}",
        rule=month_rule(threshold),
    )
    for threshold in MONTH_THRESHOLDS
)

BY_CODE: dict[str, Achievement] = {achievement.code: achievement for achievement in ACHIEVEMENTS}
MONTHLY_BY_CODE: dict[str, MonthlyAchievement] = {
    achievement.code: achievement for achievement in MONTHLY_ACHIEVEMENTS
}
if len(BY_CODE) != len(ACHIEVEMENTS) or len(MONTHLY_BY_CODE) != len(MONTHLY_ACHIEVEMENTS):
    raise RuntimeError("Two achievements share a code")
if BY_CODE.keys() & MONTHLY_BY_CODE.keys():
    raise RuntimeError("A monthly achievement shares its code with another")


def achievement_for(code: str) -> Achievement | None:
    return BY_CODE.get(code)
