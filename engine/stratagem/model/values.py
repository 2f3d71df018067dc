"""Small helpers shared by the model: positions in documents and exact numbers."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from stratagem.errors import Location, did_you_mean


def where(node: Any, key: Any = None) -> Location | None:
    """The position of ``node[key]`` (or of ``node``) if the loader recorded one."""
    locate = getattr(node, "where", None)
    if locate is None:
        return None
    try:
        return locate(key) if key is not None else locate()
    except (KeyError, IndexError, TypeError):
        return locate()


def exact(value: Any) -> Any:
    """Numbers as exact values: floats written in YAML (0.8) become fractions (4/5)."""
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return value
        f = Fraction(repr(value))
        return f.numerator if f.denominator == 1 else f
    return value


def plain(value: Any) -> Any:
    """A JSON-friendly form of a value: fractions become ints or floats, tuples lists."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "to_plain"):
        return value.to_plain()
    return value


#: A 'did you mean' hint for a misspelt name (stratagem.errors.did_you_mean).
closest = did_you_mean


@dataclass(frozen=True)
class Label:
    """A localisable name (an enum value, a field, a table) rendered at report time."""

    key: str
    fallback: str

    def to_plain(self) -> dict[str, str]:
        return {"label": self.key, "text": self.fallback}

    def __str__(self) -> str:
        return self.fallback
