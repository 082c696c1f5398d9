"""Replaying a stored game from its deal with the engine, and comparing the
outcome with what was stored: the verification of a result.

Both the automatic check and the reviewers' replay viewer start here. The deal
is the game's secret seed shuffled again (`shuffled_deck`) and dealt with the
game's options, exactly as `games.services.game_start` dealt it.
"""

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine import EngineError, Variant
from games.models import Game
from games.variants import game_variant
from leaderboards.models import Result
from leaderboards.selectors import daily_deal_id_of
from leaderboards.services import ranking_rule_for

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
        variant = game_variant(game)
        state = variant.deal(
            variant.deck_of_seed(game.seed), variant.normalize_options(game.options)
        )
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


# What a verification vouches for, and so what its digest covers: the game's
# figures and line of play, and the leaderboard row made from them.
GAME_RECORD_FIELDS = ("status", "score", "final_score", "move_count", "elapsed_ms", "move_log")
RESULT_RECORD_FIELDS = (
    "player_id",
    "daily_deal_id",
    "score",
    "won",
    "move_count",
    "elapsed_ms",
    "rank_key",
)


def record_digest(game: Mapping[str, Any], result: Mapping[str, Any] | None) -> str:
    """SHA-256 of the canonical JSON (sorted keys, no spaces, ASCII) of a game's
    record (GAME_RECORD_FIELDS) and of its result's (RESULT_RECORD_FIELDS, or
    null without a result). Equal digests: nothing the verification looked at
    has changed since."""
    record = {
        "game": {field: game[field] for field in GAME_RECORD_FIELDS},
        "result": None
        if result is None
        else {field: result[field] for field in RESULT_RECORD_FIELDS},
    }
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def game_record_digest(game: Game, result: Result | None) -> str:
    return record_digest(
        {field: getattr(game, field) for field in GAME_RECORD_FIELDS},
        None
        if result is None
        else {field: getattr(result, field) for field in RESULT_RECORD_FIELDS},
    )


@dataclass(frozen=True)
class VerificationOutcome:
    ok: bool
    details: str
    figures: dict[str, Any]
    mismatches: list[str]
    digest: str
    """The record_digest of exactly the game and result this outcome is about."""


def verify_game(game: Game) -> VerificationOutcome:
    """Re-run the whole move log from the deal; the status, score, final score,
    move count and the full position must all be what the game stored, and its
    leaderboard result (if any) must carry the game's figures."""
    result = Result.objects.filter(game_id=game.id).first()
    digest = game_record_digest(game, result)
    stored = {
        "status": game.status,
        "score": game.score,
        "final_score": game.final_score,
        "move_count": game.move_count,
        "moves_logged": len(game.move_log),
        "elapsed_seconds": game.elapsed_ms // 1000,
    }
    result_mismatches = _result_mismatches(game, result)
    try:
        run = replay_game(game)
    except UnplayableGame as error:
        message = f"the deal could not be dealt again: {error}"
        mismatches = [message, *result_mismatches]
        return VerificationOutcome(
            False,
            "Replay mismatch: " + "; ".join(mismatches) + ".",
            {"stored": stored, "error": message, **_result_figures(result)},
            mismatches,
            digest,
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
    mismatches.extend(result_mismatches)
    figures: dict[str, Any] = {"stored": stored, "replayed": replayed, **_result_figures(result)}
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
    return VerificationOutcome(not mismatches, details, figures, mismatches, digest)


def _result_figures(result: Result | None) -> dict[str, Any]:
    if result is None:
        return {}
    return {"result": {field: getattr(result, field) for field in RESULT_RECORD_FIELDS}}


def _result_mismatches(game: Game, result: Result | None) -> list[str]:
    """The leaderboard row against the game it was made from (result_record):
    a result changed on its own ranks what the game never scored."""
    if result is None:
        return []
    expected = {
        "player_id": game.player_id,
        "daily_deal_id": daily_deal_id_of(game),
        "score": game.final_score,
        "won": game.status == Game.Status.WON,
        "move_count": game.move_count,
        "elapsed_ms": game.elapsed_ms,
    }
    labels = {
        "player_id": ("player", "the game's player"),
        "daily_deal_id": ("daily deal", "the game's daily deal"),
        "score": ("score", "the game's final score"),
        "won": ("won", "the game's status gives won"),
        "move_count": ("moves", "the game's moves"),
        "elapsed_ms": ("time in ms", "the game's time in ms"),
    }
    mismatches = [
        f"result: {labels[field][0]} {getattr(result, field)} on the leaderboards, "
        f"{labels[field][1]} {value}"
        for field, value in expected.items()
        if getattr(result, field) != value
    ]
    try:
        rank_key = ranking_rule_for(result.variant).rank_key(result)
    except KeyError:  # a game no longer ranked daily: its figures above still count
        rank_key = result.rank_key
    if rank_key != result.rank_key:
        mismatches.append(
            f"result: rank key: on the leaderboards {result.rank_key}, its figures give {rank_key}"
        )
    return mismatches
