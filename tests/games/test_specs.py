"""The registry of games: every spec is complete and every engine variant is accounted for."""

import pytest
from django.template.loader import get_template

from games.engine import get_variant, variant_keys
from games.specs import (
    ENGINE_ONLY_VARIANTS,
    TEMPLATE_PARTS,
    GameSpec,
    daily_game_specs,
    game_keys,
    game_spec,
    game_specs,
)
from leaderboards.ranking import RANKING_RULES


def test_every_engine_variant_is_a_game_or_deliberately_absent():
    offered = set(game_keys())
    assert offered.isdisjoint(ENGINE_ONLY_VARIANTS)
    assert set(variant_keys()) == offered | ENGINE_ONLY_VARIANTS


@pytest.mark.parametrize("spec", game_specs(), ids=lambda spec: spec.key)
@pytest.mark.parametrize("part", TEMPLATE_PARTS)
def test_every_game_has_its_templates(spec: GameSpec, part: str):
    kind = "html" if part == "rules" else "jinja"
    assert get_template(spec.template(part)).origin.name.endswith(f"games/{spec.key}/{part}.{kind}")


@pytest.mark.parametrize("spec", game_specs(), ids=lambda spec: spec.key)
def test_a_specs_defaults_are_options_its_engine_accepts(spec: GameSpec):
    variant = get_variant(spec.key)
    assert spec.name == variant.name
    assert spec.ranking in RANKING_RULES
    assert variant.normalize_options(spec.daily_options) is not None
    form = spec.options_form_for()
    if form is not None:
        initial = {name: field.initial for name, field in form.fields.items()}
        bound = spec.options_form_for({k: v for k, v in initial.items() if v is not False})
        assert bound is not None
        assert bound.is_valid(), bound.errors
        variant.normalize_options(bound.cleaned_data)


def test_lookups():
    assert game_spec("spike") is not None
    assert game_spec("patience") is None
    assert game_spec(None) is None  # type: ignore[arg-type]
    assert [spec.key for spec in daily_game_specs()] == list(game_keys())
    assert game_keys() == ("klondike", "kingsley", "spiderette", "steps", "spike")


def test_a_part_that_is_not_a_template_is_refused():
    with pytest.raises(ValueError, match="no 'lobby' template"):
        game_specs()[0].template("lobby")
