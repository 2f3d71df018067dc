"""What a language needs besides its texts: how it writes numbers and picks plural forms."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from math import floor, isfinite

from stratagem.i18n.plural import PluralRule

#: The value shown for a missing (``None``) parameter.
NONE_TEXT = "—"


@dataclass(frozen=True)
class NumberFormat:
    """How a language writes numbers: ``decimal: ","`` gives ``2,5``; ``group`` splits thousands.

    Whole numbers are written without fraction digits; other numbers are
    rounded (half away from zero) to ``fraction_digits`` digits and lose
    their trailing zeros: with 2 digits, 7/3 is ``2.33`` and 2.50 is ``2.5``.
    """

    decimal: str = "."
    group: str = ""
    fraction_digits: int = 2

    def plain(self, value: float | Fraction | Decimal) -> str:
        """The number rounded as shown, in ASCII (``-` sign, ``.`` point, no grouping)."""
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            if not isfinite(value):
                return str(value)
            if value.is_integer():
                return str(int(value))
            text = f"{value:.{self.fraction_digits}f}"
        else:
            exact = Fraction(value)
            if exact.denominator == 1:
                return str(exact.numerator)
            scale = 10**self.fraction_digits
            units = floor(abs(exact) * scale + Fraction(1, 2))
            whole, frac = divmod(units, scale)
            sign = "-" if exact < 0 else ""
            text = f"{sign}{whole}"
            if scale > 1:
                text += f".{frac:0{self.fraction_digits}d}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return "0" if text == "-0" else text

    def localize(self, plain: str) -> str:
        """Turn a :meth:`plain` number into this language's writing."""
        if self.decimal == "." and not self.group:
            return plain
        sign = "-" if plain.startswith("-") else ""
        whole, dot, frac = plain.lstrip("-").partition(".")
        if self.group and whole.isdigit() and len(whole) > 3:
            head = len(whole) % 3 or 3
            parts = [whole[:head]] + [whole[k : k + 3] for k in range(head, len(whole), 3)]
            whole = self.group.join(parts)
        return sign + whole + (self.decimal + frac if dot else "")

    def format(self, value: float | Fraction | Decimal) -> str:
        """The number as this language writes it."""
        return self.localize(self.plain(value))


def is_number(value: object) -> bool:
    """True for the numbers a message formats as numbers (``bool`` is not one)."""
    return isinstance(value, (int, float, Fraction, Decimal)) and not isinstance(value, bool)


@dataclass(frozen=True)
class Language:
    """One language: its code (``ru``), own name, plural rule and number format."""

    code: str
    name: str = ""
    plural: PluralRule = field(default_factory=PluralRule)
    numbers: NumberFormat = field(default_factory=NumberFormat)

    def format_value(self, value: object) -> str:
        """Text of a ``{name}`` parameter: numbers in this language's style, lists joined."""
        if isinstance(value, str):
            return value
        if is_number(value):
            return self.numbers.format(value)  # type: ignore[arg-type]
        if isinstance(value, bool):
            return "true" if value else "false"
        if value is None:
            return NONE_TEXT
        if isinstance(value, (list, tuple)):
            return ", ".join(self.format_value(item) for item in value)
        return str(value)
