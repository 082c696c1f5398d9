"""Replaying a stored game from its deal with the engine, and comparing the
outcome with what was stored: the verification of a result.

Both the automatic check and the reviewers' replay viewer start here. The deal
is the game's secret seed shuffled again (`shuffled_deck`) and dealt with the
game's options, exactly as `games.services.game_start` dealt it.
"""

from dataclasses import dataclass
from typing import Any

from games.engine import EngineError, Variant, get_variant, shuffled_deck
from games.models import Game

# The engine's status of the replayed position, for each stored status of a closed game.
EXPECTED_ENGINE_STATUS: dict[str, str] = {
    Game.Status.WON.value: "won",
    Game.Status.LOST.value: "lost",
    Game.Status.FINISHED.value: "in_progress",
    Game.Status.ABANDONED.value: "in_progress",
}


@dataclass(frozen=True)
class ReplayError:
    index: int
    move: str
    message: str

    def sentence(self) -> str:
        return f"move {self.index + 1} ({self.move!r}) was refused: {self.message}"


@dataclass(frozen=True)
class ReplayRun:
    """Where a replay stopped: after `applied` moves, or at the refused one."""

    variant: Variant[Any]
    state: Any
    applied: int
    error: ReplayError | None


class UnplayableGame(Exception):
    """The game cannot be dealt again (unknown variant, invalid options)."""


def replay_game(game: Game, *, upto: int | None = None) -> ReplayRun:
    """Deal the game again from its seed and play its stored moves (the first
    `upto` of them, or all). A refused move stops the replay there."""
    try:
        variant = get_variant(game.variant)
        state = variant.deal(shuffled_deck(game.seed), variant.normalize_options(game.options))
    except EngineError as error:
        raise UnplayableGame(str(error)) from error
    moves = list(game.move_log if upto is None else game.move_log[: max(0, upto)])
    applied = 0
    for index, text in enumerate(moves):
        try:
            if not isinstance(text, str):
                raise EngineError(f"a move must be text, not {type(text).__name__}")
            state = variant.play(state, text).state
        except EngineError as error:
            return ReplayRun(variant, state, applied, ReplayError(index, str(text), str(error)))
        applied += 1
    return ReplayRun(variant, state, applied, None)


@dataclass(frozen=True)
class VerificationOutcome:
    ok: bool
    details: str
    figures: dict[str, Any]
    mismatches: list[str]


def verify_game(game: Game) -> VerificationOutcome:
    """Re-run the whole move log from the deal; the status, score, final score,
    move count and the full position must all be what the game stored."""
    stored = {
        "status": game.status,
        "score": game.score,
        "final_score": game.final_score,
        "move_count": game.move_count,
        "moves_logged": len(game.move_log),
        "elapsed_seconds": game.elapsed_ms // 1000,
    }
    try:
        run = replay_game(game)
    except UnplayableGame as error:
        message = f"the deal could not be dealt again: {error}"
        return VerificationOutcome(
            False, f"Replay mismatch: {message}.", {"stored": stored, "error": message}, [message]
        )
    variant, state = run.variant, run.state
    engine_status = variant.status(state)
    replayed = {
        "status": engine_status,
        "score": variant.score(state),
        "final_score": variant.final_score(state, game.elapsed_ms // 1000),
        "moves_applied": run.applied,
    }
    mismatches = []
    if run.error is not None:
        mismatches.append(run.error.sentence())
    expected = EXPECTED_ENGINE_STATUS.get(game.status)
    if expected != engine_status:
        mismatches.append(
            f"status: stored {game.status}, the replay ends {engine_status.replace('_', ' ')}"
        )
    if replayed["score"] != game.score:
        mismatches.append(f"score: stored {game.score}, replayed {replayed['score']}")
    if replayed["final_score"] != game.final_score:
        mismatches.append(
            f"final score: stored {game.final_score}, replayed {replayed['final_score']}"
        )
    if run.applied != game.move_count or len(game.move_log) != game.move_count:
        mismatches.append(
            f"moves: stored {game.move_count}, {len(game.move_log)} in the log, "
            f"{run.applied} replayed"
        )
    try:
        same_position = variant.load(game.state) == state
    except (EngineError, TypeError, KeyError, ValueError) as error:
        mismatches.append(f"the stored position is not a valid state: {error}")
    else:
        if not same_position:
            mismatches.append("the stored position differs from the replayed one")
    figures: dict[str, Any] = {"stored": stored, "replayed": replayed}
    if run.error is not None:
        figures["error"] = {
            "index": run.error.index,
            "move": run.error.move,
            "message": run.error.message,
        }
    if mismatches:
        details = "Replay mismatch: " + "; ".join(mismatches) + "."
    else:
        details = (
            f"Replay matches: {engine_status.replace('_', ' ')} ({game.status}), score "
            f"{game.score}, final score {game.final_score}, {game.move_count} moves, "
            "same position."
        )
    return VerificationOutcome(not mismatches, details, figures, mismatches)
