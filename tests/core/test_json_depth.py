"""The nesting of a JSON text, measured without parsing it (core.json_depth): the
brackets outside strings count, those inside strings do not, and a text nested past
the limit is found whatever else it holds."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.json_depth import MAX_DEPTH, json_too_deep


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    ("text", "deep"),
    [
        ("", False),
        ('{"move": "draw", "revision": 3}', False),
        (nested(MAX_DEPTH), False),
        (nested(MAX_DEPTH + 1), True),
        ('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), True),
        # Unclosed: json's parser recurses into each before it finds the text broken.
        ("[" * 999, True),
        # Brackets inside a string, escaped quotes and backslashes included, are text.
        (json.dumps({"password": "[" * 5000}), False),
        (json.dumps({"password": '\\"' + "[" * 5000}), False),
        (json.dumps({"note": "\\"}) + nested(MAX_DEPTH + 1), True),
        # An unterminated string runs to the end: nothing after it is a bracket.
        ('"' + "[" * 5000, False),
        # Stray closing brackets do not let a later nesting through.
        ("]" * 100 + nested(MAX_DEPTH + 1), True),
    ],
)
def test_the_depth_outside_strings_is_measured(text, deep):
    assert json_too_deep(text) is deep


def test_the_limit_is_well_below_the_recursion_limit_of_json():
    # Parsed where the stack is already deep (a request inside Django, DRF and the
    # middleware), json's recursion meets the limit near 900; this is far from it.
    assert MAX_DEPTH * 10 < 900
    assert json.loads(nested(MAX_DEPTH)) is not None


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab:,'),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(alphabet='[]{}"\\ab'), children, max_size=3)
    ),
    max_leaves=40,
)


def depth_of(value) -> int:
    if isinstance(value, list):
        return 1 + max((depth_of(item) for item in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth_of(item) for item in value.values()), default=0)
    return 0


@given(value=values, limit=st.integers(0, 6))
def test_any_json_value_is_measured_as_deep_as_it_nests(value, limit):
    assert json_too_deep(json.dumps(value), limit=limit) is (depth_of(value) > limit)
