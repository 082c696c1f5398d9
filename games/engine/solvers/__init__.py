"""The solvers: for every game, won (with a winning line), lost (proved) or unknown
(the budget ran out). See docs/solvers.md.

Importing the package registers every game's solver.
"""

from .base import LOST, UNKNOWN, VERDICTS, WON, Budget, Solution, Solver
from .case import solve_case
from .registry import register_solver, solver_for, solvers
from .klondike import KingsleySolver, KlondikeSolver  # noqa: F401  (registers the solvers)
from .spiderette import SpideretteSolver  # noqa: F401  (registers the solver)
from .spike import SpikeSolver  # noqa: F401  (registers the solver)
from .steps import StepsSolver  # noqa: F401  (registers the solver)

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
