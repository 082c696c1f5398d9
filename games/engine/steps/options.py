"""Steps' options, fixed at the deal and stored with the game
(docs/rules/steps.md#options)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeGuard

from ..errors import EngineError
from ..notation import RESERVE_PLACES
from ..variant import Json

DRAW_OPTION, BUFFERS_OPTION, RECYCLES_OPTION, RETRIEVAL_OPTION = (
    "draw",
    "buffers",
    "recycles",
    "retrieval",
)
OPTION_KEYS = (DRAW_OPTION, BUFFERS_OPTION, RECYCLES_OPTION, RETRIEVAL_OPTION)
DRAW_CHOICES = (1, 3)
MAX_BUFFERS = len(RESERVE_PLACES)
MAX_RECYCLES = 99


@dataclass(frozen=True, slots=True, kw_only=True)
class StepsOptions:
    """The options of a deal, stored with the game."""

    draw: int = 1
    buffers: int = MAX_BUFFERS
    """How many reserve slots the deal has: r1 to r<buffers>."""
    recycles: int = 3
    """How many times the waste may be turned back into the stock."""
    retrieval: bool = False

    def as_json(self) -> Json:
        return {
            DRAW_OPTION: self.draw,
            BUFFERS_OPTION: self.buffers,
            RECYCLES_OPTION: self.recycles,
            RETRIEVAL_OPTION: self.retrieval,
        }


DEFAULT_OPTIONS = StepsOptions()


def whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def options_of(options: Mapping[str, object] | None) -> StepsOptions:
    """Validated options; EngineError naming the problem."""
    if options is None:
        return DEFAULT_OPTIONS
    if not isinstance(options, Mapping):
        raise EngineError(f"Options must be an object, not {type(options).__name__}")
    unknown = [key for key in options if key not in OPTION_KEYS]
    if unknown:
        raise EngineError(
            f"Steps has no option(s) {', '.join(map(repr, unknown))}; "
            f"the options are {', '.join(OPTION_KEYS)}"
        )
    draw = options.get(DRAW_OPTION, DEFAULT_OPTIONS.draw)
    if not whole(draw) or draw not in DRAW_CHOICES:
        raise EngineError(f"The draw option is 1 or 3 (cards per draw), not {draw!r}")
    buffers = options.get(BUFFERS_OPTION, DEFAULT_OPTIONS.buffers)
    if not whole(buffers) or not 0 <= buffers <= MAX_BUFFERS:
        raise EngineError(
            f"The buffers option is a whole number of reserve slots from 0 to {MAX_BUFFERS}, "
            f"not {buffers!r}"
        )
    recycles = options.get(RECYCLES_OPTION, DEFAULT_OPTIONS.recycles)
    if not whole(recycles) or not 0 <= recycles <= MAX_RECYCLES:
        raise EngineError(
            f"The recycles option is a whole number from 0 to {MAX_RECYCLES}, not {recycles!r}"
        )
    retrieval = options.get(RETRIEVAL_OPTION, DEFAULT_OPTIONS.retrieval)
    if not isinstance(retrieval, bool):
        raise EngineError(f"The retrieval option is true or false, not {retrieval!r}")
    return StepsOptions(draw=draw, buffers=buffers, recycles=recycles, retrieval=retrieval)


def slots_message(buffers: int) -> str:
    if buffers == 0:
        return "This deal has no reserve slots"
    if buffers == 1:
        return "This deal has 1 reserve slot"
    return f"This deal has {buffers} reserve slots"
