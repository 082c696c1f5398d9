"""The solver's proof of a challenge, stepped through once the proof is open
(selectors.proof_open): before that nothing of the line leaves this module."""

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.models import AbstractBaseUser

from challenges.models import Challenge, Completion
from challenges.selectors import ChallengeEntry, challenge_entry, proof_open
from games.engine import get_variant
from games.engine.goals import GoalFacts, Progress, goal_of, goal_progress
from games.specs import game_keys
from leaderboards.selectors import LineReplay, line_replay


class ProofClosed(Exception):
    """The proof may not be shown to this viewer today (or the challenge has none)."""


@dataclass(frozen=True, kw_only=True)
class ProofReplay:
    entry: ChallengeEntry
    replay: LineReplay
    progress: Progress
    """The goal's progress at the step shown."""
    goal_step: int
    """The move of the line that meets the goal: its last, as the line is stored up to
    the first position that meets it (challenges.services.making)."""


def challenge_proof(
    *, challenge_id: int, player: AbstractBaseUser | None, step: int, today: date
) -> ProofReplay:
    """The proof line of a challenge at `step`, from the engine's public view, under
    the rules the challenge was made with. Challenge.DoesNotExist for no such
    challenge; ProofClosed while the proof is not open to this viewer."""
    challenge = Challenge.objects.get(id=challenge_id, variant__in=game_keys())
    completed = (
        player is not None
        and player.is_authenticated
        and Completion.objects.filter(challenge=challenge, player_id=player.pk).exists()
    )
    if not proof_open(challenge=challenge, completed=completed, today=today):
        raise ProofClosed("The proof is shown once its day is over, to those who completed it")
    line = [str(move) for move in challenge.proof_line]
    if not line:
        raise ProofClosed("This challenge has no proof line")
    engine = get_variant(challenge.variant, rules_version=challenge.rules_version)
    replay = line_replay(
        variant=engine,
        deck=engine.deck_of_seed(challenge.seed),
        options=challenge.options,
        line=line,
        step=step,
    )
    facts = GoalFacts(public=replay.board.public, status=replay.status, moves=replay.step, undos=0)
    return ProofReplay(
        entry=challenge_entry(challenge_id=challenge.id, player=player, today=today),
        replay=replay,
        progress=goal_progress(goal_of(challenge.goal, engine), facts),
        goal_step=len(line),
    )
