"""The Citadel Layout Codex as the platform reads it: the 20 Steps scenarios of
games/data/citadel_codex.json, checked by the engine (games.engine.steps.codex) once
per process. A file that does not check out stops the site at its first read with the
engine's message, naming the scenario."""

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from games.engine import EngineError, get_variant
from games.engine.solvers import WON, Budget, Solution, solver_for
from games.engine.steps.codex import Scenario, codex_of, scenario_state
from games.models import Game
from games.tracks import Track

CODEX_FILE = Path(__file__).resolve().parent / "data" / "citadel_codex.json"
CERTIFY_NODES = 400_000
"""The re-certification's budget per scenario, in positions (the same on every machine);
the Codex's hardest needs about half of it."""


class CodexInvalid(EngineError):
    """The Codex's file does not hold a valid Codex (the message says where)."""


def codex_read(path: Path = CODEX_FILE) -> tuple[Scenario, ...]:
    """The scenarios a Codex file holds; CodexInvalid with the reason otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CodexInvalid(f"{path.name} cannot be read as JSON: {error}") from error
    try:
        return codex_of(data, get_variant("steps"))
    except EngineError as error:
        raise CodexInvalid(f"{path.name}: {error}") from error


@cache
def codex_scenarios() -> tuple[Scenario, ...]:
    return codex_read()


def codex_scenario(key: str) -> Scenario | None:
    return next((scenario for scenario in codex_scenarios() if scenario.key == key), None)


def scenario_certify(scenario: Scenario, *, native: bool | None = None) -> Solution:
    """The solver's answer for the scenario's starting position, within the
    re-certification's budget."""
    steps = get_variant("steps")
    return solver_for("steps").solve(
        steps, scenario_state(scenario, steps), budget=Budget(nodes=CERTIFY_NODES), native=native
    )


def scenario_certified(solution: Solution) -> bool:
    return solution.verdict == WON


DIFFICULTIES = ((100, "Gentle"), (1_000, "Steady"), (10_000, "Hard"), (100_000, "Fierce"))
"""A scenario's difficulty by the solver's effort to win it (positions expanded): below
each bound, its word; from the last bound on, SUMMIT. Tenfold steps, as the effort of
the Codex's scenarios spans four orders of magnitude (docs/codex.md)."""
SUMMIT = "Summit"
DIFFICULTY_WORDS = (*(word for _, word in DIFFICULTIES), SUMMIT)


def scenario_difficulty(scenario: Scenario) -> str:
    """The scenario's difficulty in a word, from the solver's effort (`nodes`)."""
    return next((word for bound, word in DIFFICULTIES if scenario.nodes < bound), SUMMIT)


def difficulty_rule() -> str:
    """The rule in words, as the Codex page and the API state it."""
    bounds = ", ".join(f"{word} under {bound:,}" for bound, word in DIFFICULTIES)
    return f"{bounds} positions, {SUMMIT} beyond"


# Stars against par (docs/codex.md): decided here, shown on the Codex page and the board.
PAR_MARGIN = 0.2
"""Two stars need a win within par plus this share of it."""


def par_margin_moves(par: int) -> int:
    """The most moves a two-star win may take."""
    return par + round(par * PAR_MARGIN)


def scenario_stars(*, scenario: Scenario, won: bool, moves: int, reserve_used: bool) -> int:
    """A game's stars: one for a win, two for a win within par plus 20 percent of it,
    three for a win at or under par with no reserve slot used; none without a win."""
    if not won:
        return 0
    if moves <= scenario.par and not reserve_used:
        return 3
    return 2 if moves <= par_margin_moves(scenario.par) else 1


def scenario_track(scenario: Scenario) -> Track:
    """The track of a scenario's games: its deal, its options and its handicaps."""
    return Track(
        kind=Game.Track.SCENARIO,
        ref=scenario.key,
        seed=scenario.seed,
        options=MappingProxyType(dict(scenario.options)),
        time_limit_seconds=scenario.time_limit_seconds,
        undo_limit=scenario.undo_allowance,
    )


def handicap_words(scenario: Scenario) -> list[str]:
    """The scenario's handicaps and layout, in words, for the dashboard and the Codex."""
    options = scenario.options
    words = [
        f"{options['draw']} card{'s' if options['draw'] > 1 else ''} a draw",
        f"{options['buffers']} reserve slot{'' if options['buffers'] == 1 else 's'}",
        f"{options['recycles']} recycle{'' if options['recycles'] == 1 else 's'}",
    ]
    if options["retrieval"]:
        words.append("retrieval from the foundations")
    if scenario.undo_allowance is not None:
        words.append(f"{scenario.undo_allowance} undo{'' if scenario.undo_allowance == 1 else 's'}")
    if scenario.time_limit_seconds is not None:
        minutes, seconds = divmod(scenario.time_limit_seconds, 60)
        words.append(f"{minutes}:{seconds:02d} on the clock")
    return words


@dataclass(frozen=True, kw_only=True)
class ScenarioDashboard:
    """The Architect Dashboard of a scenario's board."""

    number: int
    name: str
    tier: int
    par: int
    two_star_moves: int
    stars_in_reach: int
    """The most stars the game can still earn from where it stands."""
    handicaps: list[str]


def scenario_dashboard(*, game: Game, public: Mapping[str, Any]) -> ScenarioDashboard | None:
    scenario = codex_scenario(game.track_ref)
    if scenario is None:
        return None
    reachable = scenario_stars(
        scenario=scenario,
        won=True,
        moves=game.move_count,
        reserve_used=bool(public.get("reserve_used_ever")),
    )
    if not game.is_active and game.status != Game.Status.WON:
        reachable = 0
    return ScenarioDashboard(
        number=scenario.number,
        name=scenario.name,
        tier=scenario.tier,
        par=scenario.par,
        two_star_moves=par_margin_moves(scenario.par),
        stars_in_reach=reachable,
        handicaps=handicap_words(scenario),
    )
