"""The games the site offers: one `GameSpec` per game, in the order the site shows them.

A game joins the platform by its spec here, its engine variant, its templates
(`templates/games/<key>/`) and its rules document; every list the platform keeps
(the games shown, the deal options, daily deals and their ranking, the review's
win-time rule, the per-game badges) reads from this registry.
docs/adding-a-game.md walks through it.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from django import forms

from games.engine import get_variant
from games.options import SpikeOptionsForm, StepsOptionsForm

TEMPLATE_PARTS = ("board", "hud", "summary", "rules")
"""The templates every game has in its folder: the board, the figures beside the
score in the heads-up display, the lines of the summary and the rules page."""


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    key: str
    """The engine variant's key: the game's name in URLs, rows and notation."""
    options_form: type[forms.Form] | None = None
    """The deal options a player chooses; None for a game without options."""
    daily_options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The options of the game's daily deal."""
    has_daily_deal: bool = True
    ranking: str = "won_score_time_moves"
    """The name of the ranking rule of its leaderboards (leaderboards/ranking.py)."""
    min_win_seconds: int | None = 45
    """A win faster than this is flagged for review as implausible (None: no such rule)."""
    generic_badges: bool = True
    """Whether the game has the first-win and win-without-undo badges."""
    pooled_options: tuple[Mapping[str, Any], ...] = (MappingProxyType({}),)
    """The option sets that keep a pool of certified winnable deals (games.services.pool),
    each as the options form posts it or a part of it (the engine fills in the defaults);
    the default options by default, none: () (winnable deals certified while the
    player waits, docs/pool.md)."""

    @property
    def name(self) -> str:
        return get_variant(self.key).name

    @property
    def template_folder(self) -> str:
        return f"games/{self.key}"

    def template(self, part: str) -> str:
        """The template of one part of the game (one of TEMPLATE_PARTS)."""
        if part not in TEMPLATE_PARTS:
            raise ValueError(f"A game has no {part!r} template; the parts are {TEMPLATE_PARTS}")
        # The board's parts are Jinja2 templates (jinja_templates/, games.rendering); the rules
        # page is one of Django's.
        return f"{self.template_folder}/{part}.{'html' if part == 'rules' else 'jinja'}"

    def options_form_for(self, data: Any = None) -> forms.Form | None:
        """The options form (bound when `data` is given), or None when the game has none."""
        if self.options_form is None:
            return None
        return self.options_form(data) if data is not None else self.options_form()


GAME_SPECS: tuple[GameSpec, ...] = (
    GameSpec(key="klondike"),
    GameSpec(key="kingsley"),
    GameSpec(key="spiderette"),
    GameSpec(
        key="steps",
        options_form=StepsOptionsForm,
        ranking="score_time",
        pooled_options=(
            MappingProxyType({}),
            MappingProxyType({"draw": 3}),
            MappingProxyType({"retrieval": True}),
        ),
    ),
    GameSpec(
        key="spike",
        options_form=SpikeOptionsForm,
        daily_options=MappingProxyType({"mode": "classic"}),
        pooled_options=tuple(
            MappingProxyType({"mode": mode}) for mode in ("classic", "time_attack", "relaxed")
        ),
        ranking="score_time",
        min_win_seconds=20,
    ),
)

_BY_KEY: dict[str, GameSpec] = {spec.key: spec for spec in GAME_SPECS}
if len(_BY_KEY) != len(GAME_SPECS):
    raise RuntimeError("Two game specs share a key")

ENGINE_ONLY_VARIANTS: frozenset[str] = frozenset({"steps_duel"})
"""Variants the engine registers that are deliberately not offered on the site."""


def game_specs() -> tuple[GameSpec, ...]:
    return GAME_SPECS


def game_spec(key: str) -> GameSpec | None:
    """The spec of a game the site offers, or None."""
    return _BY_KEY.get(key) if isinstance(key, str) else None


def game_keys() -> tuple[str, ...]:
    return tuple(spec.key for spec in GAME_SPECS)


def daily_game_specs() -> tuple[GameSpec, ...]:
    return tuple(spec for spec in GAME_SPECS if spec.has_daily_deal)
