"""The variant configurations that the contract and golden-count tests cover: every
registered variant, each with the option sets worth covering (Spike's modes, a spread
of Steps' options); a variant not listed here is covered with its default options."""

from games.engine import get_variant, variant_keys

OPTION_SETS: dict[str, list[dict[str, object]]] = {
    "spike": [{"mode": "classic"}, {"mode": "time_attack"}, {"mode": "relaxed"}],
    "steps": [
        {},
        {"draw": 3, "buffers": 2, "recycles": 3, "retrieval": True},
        {"draw": 1, "buffers": 1, "recycles": 1, "retrieval": False},
        {"draw": 1, "buffers": 0, "recycles": 0, "retrieval": False},
    ],
}

TWO_PLAYER = frozenset({"steps_duel"})
"""Variants with no solver and no hints: two-player games (a match gives no hints)."""


def config_id(key: str, options: dict[str, object]) -> str:
    """ "klondike", "steps:buffers=2,draw=3,recycles=3,retrieval=True"."""
    if not options:
        return key
    return key + ":" + ",".join(f"{name}={value}" for name, value in sorted(options.items()))


def configs() -> list[tuple[str, dict[str, object]]]:
    """(variant key, options) for every registered variant and each of its option sets."""
    return [(key, options) for key in variant_keys() for options in OPTION_SETS.get(key, [{}])]


def hinted_configs() -> list[tuple[str, dict[str, object]]]:
    """The configurations of the variants that hints serve."""
    return [(key, options) for key, options in configs() if key not in TWO_PLAYER]


def check_option_sets() -> None:
    """Every variant named above is registered and accepts its option sets."""
    for key, option_sets in OPTION_SETS.items():
        variant = get_variant(key)
        for options in option_sets:
            variant.normalize_options(options)
