"""Replaying a stored game: a deal and a move log in, the outcome out.

The input is a "case": {"variant": key, "rules_version": N (optional: the newest by
default), "options": {...}, "deck": [the codes in deal order] or "seed": "...", "moves":
["draw", "w-t3", ...]}. Bad input raises EngineError;
an illegal or malformed move does not: it stops the replay and is reported in the result.
"""

from collections.abc import Mapping
from typing import Any

from .errors import EngineError
from .registry import get_variant
from .variant import Json, Variant

_CASE_KEYS = ("variant", "rules_version", "options", "deck", "seed", "moves")


def replay(case: Mapping[str, Any]) -> Json:
    """{"rules_version": the version replayed under, "status", "score", ["points",]
    "moves_applied", "error": None or {"index", "move", "message"}, "public": the public
    view where the replay stopped}; "points" only for a variant whose ``points`` hook
    gives a figure (Steps' action points)."""
    if not isinstance(case, Mapping):
        raise EngineError("A replay case must be a JSON object")
    unknown = [key for key in case if key not in _CASE_KEYS]
    if unknown:
        raise EngineError(
            f"Unknown key(s) in the case: {', '.join(map(repr, unknown))}; "
            f"the keys are {', '.join(_CASE_KEYS)}"
        )
    moves = case.get("moves")
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise EngineError("The case's moves must be a list of strings")
    variant, state = deal_of_case(case)

    error = None
    applied = 0
    for index, text in enumerate(moves):
        try:
            state = variant.play(state, text).state
        except EngineError as exc:
            error = {"index": index, "move": text, "message": str(exc)}
            break
        applied += 1
    result: Json = {
        "rules_version": variant.rules_version,
        "status": variant.status(state),
        "score": variant.score(state),
    }
    points = variant.points(state)
    if points is not None:  # only variants with a second figure (Steps) report it
        result["points"] = points
    result.update(
        moves_applied=applied,
        error=error,
        public=variant.public_view(state),
    )
    return result


def deal_of_case(case: Mapping[str, Any]) -> tuple[Variant[Any], Any]:
    """The variant (under the case's rules version) and the starting state of a case's
    deal; EngineError naming what is wrong. The solve command reads its cases with it."""
    if "variant" not in case:
        raise EngineError("The case has no variant")
    if "rules_version" in case and case["rules_version"] is None:
        raise EngineError("The case's rules_version must be a whole number, or left out")
    variant = get_variant(case["variant"], case.get("rules_version"))
    if "options" in case and not isinstance(case["options"], Mapping):
        raise EngineError("The case's options must be an object")
    options = variant.normalize_options(case.get("options"))
    if ("deck" in case) == ("seed" in case):
        raise EngineError("The case must give either a deck or a seed, not both or neither")
    deck = case["deck"] if "deck" in case else variant.deck_of_seed(case["seed"])
    return variant, variant.deal(deck, options)
