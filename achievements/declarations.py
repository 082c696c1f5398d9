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

The Codex campaign's badges (CAMPAIGN_ACHIEVEMENTS) read a player's records in the
scenarios: they are judged with every evaluation of one of the player's scenario
games, in its transaction, and earned once per player.

A title (TITLES) is held by one player at a time, the leader of a figure, and moves
when another overtakes them: the Codex's task confers it (codex.services).
"""

from dataclasses import dataclass

from achievements import rules
from achievements.campaign import CampaignRule
from achievements.monthly import MonthRule, month_rule
from achievements.rules import Rule
from challenges.stars import MONTH_THRESHOLDS
from codex.selectors import MASTER_ARCHITECT, TIER_NAMES
from games.codex import codex_scenarios
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


@dataclass(frozen=True)
class CampaignAchievement:
    """A badge of the Codex campaign (docs/codex.md), earned once per player."""

    code: str
    title: str
    description: str
    icon: str
    rule: CampaignRule
    game: str = "steps"
    repeatable: bool = False


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


def _campaign_achievements() -> tuple[CampaignAchievement, ...]:
    """Each tier cleared and each at three stars, then all twenty both ways."""
    tiers = sorted({scenario.tier for scenario in codex_scenarios()})
    declared = []
    for tier in tiers:
        keys = tuple(scenario.key for scenario in codex_scenarios() if scenario.tier == tier)
        name = TIER_NAMES.get(tier, f"Tier {tier}")
        declared += [
            CampaignAchievement(
                code=f"codex-tier-{tier}-cleared",
                title=f"{name} cleared",
                description=f"Win every scenario of tier {tier} of the Codex, {name}.",
                icon="codex-tier",
                rule=CampaignRule(scenarios=keys, stars=1),
            ),
            CampaignAchievement(
                code=f"codex-tier-{tier}-three-stars",
                title=f"{name} at three stars",
                description=f"Earn three stars in every scenario of tier {tier}, {name}.",
                icon="codex-stars",
                rule=CampaignRule(scenarios=keys, stars=3),
            ),
        ]
    every = tuple(scenario.key for scenario in codex_scenarios())
    return (
        *declared,
        CampaignAchievement(
            code="codex-all-won",
            title="The Citadel ascended",
            description=f"Win all {len(every)} scenarios of the Citadel Layout Codex.",
            icon="codex-tier",
            rule=CampaignRule(scenarios=every, stars=1),
        ),
        CampaignAchievement(
            code="codex-all-three-stars",
            title="Flawless architect",
            description=f"Earn three stars in all {len(every)} scenarios of the Codex.",
            icon="codex-stars",
            rule=CampaignRule(scenarios=every, stars=3),
        ),
    )


CAMPAIGN_ACHIEVEMENTS: tuple[CampaignAchievement, ...] = _campaign_achievements()

BY_CODE: dict[str, Achievement] = {achievement.code: achievement for achievement in ACHIEVEMENTS}
MONTHLY_BY_CODE: dict[str, MonthlyAchievement] = {
    achievement.code: achievement for achievement in MONTHLY_ACHIEVEMENTS
}
CAMPAIGN_BY_CODE: dict[str, CampaignAchievement] = {
    achievement.code: achievement for achievement in CAMPAIGN_ACHIEVEMENTS
}
_DECLARED: tuple[Achievement | MonthlyAchievement | CampaignAchievement, ...] = (
    *ACHIEVEMENTS,
    *MONTHLY_ACHIEVEMENTS,
    *CAMPAIGN_ACHIEVEMENTS,
)
if len({achievement.code for achievement in _DECLARED}) != len(_DECLARED):
    raise RuntimeError("Two achievements share a code")


@dataclass(frozen=True)
class Title:
    """A title held by one player at a time, the leader of a figure: it moves when
    another overtakes them (its reigns: codex.models.TitleReign)."""

    code: str
    title: str
    description: str
    figure_name: str
    icon: str


TITLES: tuple[Title, ...] = (
    Title(
        code=MASTER_ARCHITECT,
        title="Master Architect of the Ascension Citadel",
        description=(
            "Held by the player with the highest campaign ledger: the sum of their best "
            "Architect Ledger in every scenario of the Codex."
        ),
        figure_name="campaign ledger",
        icon="crown",
    ),
)
TITLES_BY_CODE: dict[str, Title] = {title.code: title for title in TITLES}
if len(TITLES_BY_CODE) != len(TITLES) or TITLES_BY_CODE.keys() & {a.code for a in _DECLARED}:
    raise RuntimeError("Two titles, or a title and a badge, share a code")

GameBadge = Achievement | CampaignAchievement
"""What one game can earn, and its finish summary announces."""


def achievement_for(code: str) -> GameBadge | None:
    return BY_CODE.get(code) or CAMPAIGN_BY_CODE.get(code)
