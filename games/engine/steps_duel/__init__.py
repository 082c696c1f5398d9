"""The Steps Head-to-Head Duel (``steps_duel``), the rulebook's 2.6.3 with the readings
of docs/rules/steps-duel.md: two seats take turns, one move a turn, on one board dealt
from two decks (104 cards) in Steps' stepped tableau, with a shared stock, waste and
four reserve slots and eight foundation pillars, two per suit. Each move's action points
(Steps' table 2.5, ``steps.move_points``) go to the seat that made it; the game ends at
a full build, two passes in a row, a Stagnation Lockout or twenty moves without
progress, and the higher score wins.

The variant is in ``variant`` (with the platform's calls: ``seat_to_move``,
``seat_scores``, ``is_over``, ``end_reason``, ``winner``, ``pass_move``), the state and
the pillars in ``state``, the board's moves in ``moves``, the snapshot in ``storage``.
"""

from .moves import PASS_MOVE, is_progress
from .state import DuelState, pillar_for
from .variant import END_REASONS, StepsDuel

__all__ = ["END_REASONS", "PASS_MOVE", "DuelState", "StepsDuel", "is_progress", "pillar_for"]
