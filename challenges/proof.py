"""The solver's proof of a challenge, stepped through once the proof is open
(selectors.proof_open): before that nothing of the line leaves this module."""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from challenges.models import Challenge, Completion
from challenges.selectors import ChallengeEntry, challenge_entry, proof_open
from games.engine import EngineError, Variant, get_variant
from games.engine.goals import GoalFacts, Progress, goal_of, goal_progress, line_facts
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


@dataclass(frozen=True, kw_only=True)
class _OpenProof:
    challenge: Challenge
    engine: Variant[Any]
    line: list[str]


def _proof_opened(*, challenge_id: int, player: AbstractBaseUser | None, today: date) -> _OpenProof:
    """The challenge and its proof line, once the proof is open to this viewer: the one
    rule (selectors.proof_open) and the one read of both the stepper and the whole line."""
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
    return _OpenProof(challenge=challenge, engine=engine, line=line)


def challenge_proof(
    *, challenge_id: int, player: AbstractBaseUser | None, step: int, today: date
) -> ProofReplay:
    """The proof line of a challenge at `step`, from the engine's public view, under
    the rules the challenge was made with. Challenge.DoesNotExist for no such
    challenge; ProofClosed while the proof is not open to this viewer."""
    opened = _proof_opened(challenge_id=challenge_id, player=player, today=today)
    challenge, engine, line = opened.challenge, opened.engine, opened.line
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


@dataclass(frozen=True, kw_only=True)
class ProofPosition:
    """One position of the proof: the engine's public view after `step` moves."""

    step: int
    move: str | None
    """The move that led here; None for the deal."""
    public: Mapping[str, Any]
    status: str
    progress: Progress


@dataclass(frozen=True, kw_only=True)
class ProofLine:
    entry: ChallengeEntry
    positions: list[ProofPosition]
    """The deal, then the position after each move of the line."""
    goal_step: int


def challenge_proof_line(
    *, challenge_id: int, player: AbstractBaseUser | None, today: date
) -> ProofLine:
    """Every position of a challenge's proof at once (the API's, which an app steps
    through itself), from the engine's public view under the challenge's own rules:
    the line played once, where the stepper plays it again for each step. Opens when
    challenge_proof does and raises as it does; ProofClosed also for a line that no
    longer replays."""
    opened = _proof_opened(challenge_id=challenge_id, player=player, today=today)
    challenge, engine, line = opened.challenge, opened.engine, opened.line
    goal = goal_of(challenge.goal, engine)
    state = engine.deal(
        engine.deck_of_seed(challenge.seed), engine.normalize_options(challenge.options)
    )
    try:
        timeline = line_facts(engine, state, line)
    except EngineError as refused:
        raise ProofClosed(f"This challenge's proof no longer replays: {refused}") from refused
    return ProofLine(
        entry=challenge_entry(challenge_id=challenge.id, player=player, today=today),
        positions=[
            ProofPosition(
                step=step,
                move=line[step - 1] if step else None,
                public=facts.public,
                status=facts.status,
                progress=goal_progress(goal, facts),
            )
            for step, facts in enumerate(timeline)
        ],
        goal_step=len(line),
    )
