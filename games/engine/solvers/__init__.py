"""The solvers: for every game, won (with a winning line), lost (proved) or unknown
(the budget ran out). See docs/solvers.md.

Importing the package registers every game's solver.
"""

from . import klondike, spiderette, spike, steps  # noqa: F401  (registers the solvers)
from .base import LOST, UNKNOWN, VERDICTS, WON, Budget, Solution, Solver
from .case import solve_case
from .registry import register_solver, solver_for, solvers

__all__ = [
    "LOST",
    "UNKNOWN",
    "VERDICTS",
    "WON",
    "Budget",
    "Solution",
    "Solver",
    "register_solver",
    "solve_case",
    "solver_for",
    "solvers",
]
