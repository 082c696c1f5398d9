"""The rule of a Codex campaign badge: it reads a player's records in the scenarios
(codex.selectors.scenario_records), not one game. Each badge is earned once per
player, by the game that completed it: the latest of the first games that reached
the mark in each of its scenarios."""

from collections.abc import Mapping
from dataclasses import dataclass

from codex.selectors import Milestone, ScenarioRecord


@dataclass(frozen=True)
class CampaignRule:
    scenarios: tuple[str, ...]
    """The keys of the scenarios the badge needs."""
    stars: int
    """The stars each of them needs: one for a win, three for three stars."""

    def earned_by(self, records: Mapping[str, ScenarioRecord]) -> Milestone | None:
        """The game that completed the mark in the last of the scenarios, or None
        while one of them falls short."""
        milestones = []
        for key in self.scenarios:
            record = records.get(key)
            milestone = record.reached.get(self.stars) if record is not None else None
            if milestone is None:
                return None
            milestones.append(milestone)
        return max(milestones, key=lambda milestone: (milestone.at, str(milestone.game_id)))
