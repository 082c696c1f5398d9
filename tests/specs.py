"""Changing the registry of games (games.specs) for one test."""

from dataclasses import replace
from typing import Any

import pytest

from games import specs


def override_game_specs(monkeypatch: pytest.MonkeyPatch, **changes: dict[str, Any]) -> None:
    """Replace fields of the named games' specs, e.g. ``spike={"min_win_seconds": None}``."""
    unknown = set(changes) - set(specs.game_keys())
    if unknown:
        raise ValueError(f"No spec for {sorted(unknown)}")
    changed = tuple(replace(spec, **changes.get(spec.key, {})) for spec in specs.GAME_SPECS)
    monkeypatch.setattr(specs, "GAME_SPECS", changed)
    monkeypatch.setattr(specs, "_BY_KEY", {spec.key: spec for spec in changed})
