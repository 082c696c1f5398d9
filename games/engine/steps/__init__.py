"""Steps, as /work/shared/rulebooks/steps.txt states it, with the readings of
docs/rules/steps.md (Classic Ascension, solo).

A member of the Klondike family (klondike_family.py): the same seven-pile deal, building
down in alternating colours, sequences moving as a unit, Kings alone filling empty piles,
foundations by suit, stock and waste. Steps adds, through the family's hooks:

- up to four reserve slots r1..r4 holding one card each: any single exposed card of the
  tableau or the waste goes into an empty slot, and a slot's card plays to a pile or a
  foundation when that is legal;
- options stored with the deal (``options``): ``draw`` 1 or 3, ``buffers`` 0 to 4
  slots, ``recycles`` allowed, ``retrieval`` (the top foundation card may come back onto
  a pile);
- two figures (``ledger``): the action points of the rulebook's table 2.5, kept in the
  state move by move (``points``), and the Architect Ledger of 2.7, which is the score;
- a game lost by Stagnation Lockout (``lost``), decided by the bounded search of
  stuck.py over the tableau, the reserve slots and (with retrieval) the foundations.

The variant itself is in ``variant``, its state in ``state``.
"""

from .ledger import LEDGER_LABELS, ledger, ledger_lines, ledger_values, move_points, time_bonus
from .lost import LOST_REASON, is_locked_out, position_of
from .options import DEFAULT_OPTIONS, OPTION_KEYS, StepsOptions, options_of
from .state import EMPTY_RESERVES, StepsState
from .variant import TOURNAMENT, Steps

__all__ = [
    "DEFAULT_OPTIONS",
    "EMPTY_RESERVES",
    "LEDGER_LABELS",
    "LOST_REASON",
    "OPTION_KEYS",
    "TOURNAMENT",
    "Steps",
    "StepsOptions",
    "StepsState",
    "is_locked_out",
    "ledger",
    "ledger_lines",
    "ledger_values",
    "move_points",
    "options_of",
    "position_of",
    "time_bonus",
]
