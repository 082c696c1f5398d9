"""Variants by key and rules version. A new variant is a new module whose class is
decorated with ``@register`` and which games/engine/__init__.py imports; a new version of
a variant's rules is a subclass with a higher ``rules_version``, registered beside the
old one, so that games dealt under the old rules still load and replay under them."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeGuard, TypeVar

from .errors import EngineError
from .variant import Variant

VariantT = TypeVar("VariantT", bound=Variant[Any])

_VARIANTS: dict[str, dict[int, Variant[Any]]] = {}
"""key -> rules version -> the variant's one instance."""


def register(cls: type[VariantT]) -> type[VariantT]:
    """Class decorator: make the variant available under its ``key`` and
    ``rules_version``."""
    version = getattr(cls, "rules_version", None)
    if not _is_version(version) or version < 1:
        raise EngineError(f"The rules version of {cls.key!r} must be a whole number from 1 up")
    versions = _VARIANTS.setdefault(cls.key, {})
    if version in versions:
        raise EngineError(f"Variant {cls.key!r} version {version} is registered twice")
    versions[version] = cls()
    return cls


def get_variant(key: str, rules_version: int | None = None) -> Variant[Any]:
    """The variant ``key`` under its newest rules, or under ``rules_version`` (the
    version a stored game was dealt under); EngineError for an unknown key or version."""
    versions = _VARIANTS.get(key) if isinstance(key, str) else None
    if versions is None:
        known = ", ".join(variant_keys())
        raise EngineError(f"Unknown variant {key!r}; the variants are: {known}")
    if rules_version is None:
        return versions[max(versions)]
    variant = versions.get(rules_version) if _is_version(rules_version) else None
    if variant is None:
        known = ", ".join(str(version) for version in sorted(versions))
        raise EngineError(
            f"{versions[max(versions)].name} has no rules version {rules_version!r}; "
            f"its versions are: {known}"
        )
    return variant


def rules_versions(key: str) -> list[int]:
    """Every rules version of the variant ``key``, oldest first."""
    get_variant(key)  # the error for an unknown key
    return sorted(_VARIANTS[key])


def _is_version(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def variant_keys() -> list[str]:
    return sorted(_VARIANTS)


@contextmanager
def registered(cls: type[VariantT]) -> Iterator[type[VariantT]]:
    """Register ``cls`` for the length of a ``with`` block, then put the registry back
    as it was: for tests of a rules version (or a variant) that is not published."""
    saved = {key: dict(versions) for key, versions in _VARIANTS.items()}
    try:
        yield register(cls)
    finally:
        _VARIANTS.clear()
        _VARIANTS.update(saved)
