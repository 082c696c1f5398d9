"""Variants by key. A new variant is a new module whose class is decorated with
``@register`` and which games/engine/__init__.py imports."""

from typing import Any, TypeVar

from .errors import EngineError
from .variant import Variant

VariantT = TypeVar("VariantT", bound=Variant[Any])

_VARIANTS: dict[str, Variant[Any]] = {}


def register(cls: type[VariantT]) -> type[VariantT]:
    """Class decorator: make the variant available under its ``key``."""
    if cls.key in _VARIANTS:
        raise EngineError(f"Variant key {cls.key!r} is registered twice")
    _VARIANTS[cls.key] = cls()
    return cls


def get_variant(key: str) -> Variant[Any]:
    variant = _VARIANTS.get(key) if isinstance(key, str) else None
    if variant is None:
        known = ", ".join(variant_keys())
        raise EngineError(f"Unknown variant {key!r}; the variants are: {known}")
    return variant


def variant_keys() -> list[str]:
    return sorted(_VARIANTS)
