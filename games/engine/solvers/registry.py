"""The solvers by variant key: each game's solver module registers its class."""

from collections.abc import Mapping
from typing import Any, TypeVar

from ..errors import EngineError
from .base import Solver

_SOLVERS: dict[str, Solver[Any]] = {}
SolverClass = TypeVar("SolverClass", bound=type[Solver[Any]])


def register_solver(cls: SolverClass) -> SolverClass:
    """Class decorator: the solver of ``cls.variant_key``."""
    key = cls.variant_key
    if key in _SOLVERS:
        raise EngineError(f"A solver for {key!r} is already registered")
    _SOLVERS[key] = cls()
    return cls


def solver_for(variant_key: str) -> Solver[Any]:
    try:
        return _SOLVERS[variant_key]
    except KeyError:
        raise EngineError(f"No solver for {variant_key!r}") from None


def solvers() -> Mapping[str, Solver[Any]]:
    return dict(_SOLVERS)
