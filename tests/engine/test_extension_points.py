"""The engine's extension points are public: a variant adds to its base through the
hooks the base offers (docs/engine.md), never by overriding the base's private
methods, and builds its states with keyword arguments."""

import dataclasses

import pytest

from games.engine import full_deck, get_variant, variant_keys
from games.engine.registry import rules_versions

# Set by ABCMeta on every abstract class: machinery, not a method.
NOT_HOOKS = {"_abc_impl"}


def registered_classes():
    return [
        type(get_variant(key, rules_version=version))
        for key in variant_keys()
        for version in rules_versions(key)
    ]


@pytest.mark.parametrize("cls", registered_classes(), ids=lambda cls: cls.__name__)
def test_no_variant_overrides_a_private_method_of_its_bases(cls):
    for klass in cls.__mro__[:-1]:
        for name in vars(klass):
            private = name.startswith("_") and not name.startswith("__")
            if not private or name in NOT_HOOKS:
                continue
            bases = [base for base in klass.__mro__[1:] if name in vars(base)]
            assert bases == [], (
                f"{klass.__name__}.{name} overrides {bases[0].__name__}.{name}: "
                "add a public hook to the base instead"
            )


@pytest.mark.parametrize("cls", registered_classes(), ids=lambda cls: cls.__name__)
def test_states_are_built_with_keywords_only(cls):
    variant = cls()
    state = variant.deal(variant.deck_of_seed("keywords"))
    fields = dataclasses.fields(state)
    assert all(field.kw_only for field in fields)
    with pytest.raises(TypeError):
        type(state)(*(getattr(state, field.name) for field in fields))


@pytest.mark.parametrize("key", ["klondike", "kingsley", "steps"])
def test_with_parts_is_replace_of_the_family_parts(key):
    variant = get_variant(key)
    state = variant.deal(full_deck(), {"buffers": 2, "retrieval": True} if key == "steps" else {})
    for move in ["draw", "draw", "draw"]:
        state = variant.play(state, move).state
    parts = {
        "tableau": state.tableau[::-1],
        "foundations": (1, 0, 0, 0),
        "stock": state.waste,
        "waste": state.stock,
    }
    rebuilt = state.with_parts(**parts)
    assert rebuilt == dataclasses.replace(state, **parts)
    assert hash(rebuilt) == hash(dataclasses.replace(state, **parts))
    assert type(rebuilt) is type(state)
