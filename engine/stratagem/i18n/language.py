"""What a language needs besides its texts: how it writes numbers and picks plural forms.

Both come from Unicode CLDR through Babel (:mod:`.plural`): a locale file holds
translations only.
"""

from __future__ import annotations

from copy import copy
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from math import floor, isfinite

from stratagem.i18n.plural import PluralRule, babel_locale, plural_rule

#: The value shown for a missing (``None``) parameter.
NONE_TEXT = "—"

#: At most this many fraction digits are shown.
FRACTION_DIGITS = 2


@dataclass(frozen=True)
class NumberFormat:
    """How a language writes numbers, from CLDR: ``2,5`` and ``308 833`` in Russian.

    Whole numbers are written without fraction digits; other numbers are
    rounded (half away from zero) to ``fraction_digits`` digits and lose
    their trailing zeros: with 2 digits, 7/3 is ``2.33`` and 2.50 is ``2.5``.
    """

    language: str = "en"
    fraction_digits: int = FRACTION_DIGITS

    def plain(self, value: float | Fraction | Decimal) -> str:
        """The number rounded as shown, in ASCII (``-`` sign, ``.`` point, no grouping)."""
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
        """Turn a :meth:`plain` number into this language's writing (CLDR's pattern)."""
        if len(plain) <= 3 and plain.isdigit():
            return plain
        try:
            number = Decimal(plain)
        except ArithmeticError:
            return plain
        if not number.is_finite():
            return plain
        from babel.numbers import format_decimal  # imported here: --help shows no number

        try:
            return str(format_decimal(number, locale=babel_locale(self.language),
                                      decimal_quantization=False))
        except (ArithmeticError, ValueError):  # beyond the decimal context (1e+25): as it is
            return plain

    def format(self, value: float | Fraction | Decimal) -> str:
        """The number as this language writes it."""
        return self.localize(self.plain(value))

    def fixed(self, value: float, digits: int) -> str:
        """``value`` with exactly ``digits`` fraction digits (``12,50`` in Russian), for columns
        of figures that line up."""
        from babel.numbers import format_decimal

        pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
        try:
            return str(format_decimal(Decimal(f"{value:.{max(digits, 0)}f}"), format=pattern,
                                      locale=babel_locale(self.language)))
        except (ArithmeticError, ValueError):  # nan, inf: as Python writes them
            return str(value)

    def percent(self, value: float | Fraction | Decimal) -> str:
        """``value`` (a share: 0.25) as a percentage the language's way (``25 %`` in Russian)."""
        from babel.numbers import format_percent

        try:
            shown = Decimal(self.plain(Fraction(value) * 100)) / 100
            return str(format_percent(shown, locale=babel_locale(self.language),
                                      decimal_quantization=False))
        except (ArithmeticError, ValueError):
            return self.format(value)

    def currency(self, value: float | Fraction | Decimal, code: str) -> str:
        """``value`` in the currency ``code`` (``USD``) the language's way (``308 833 $``)."""
        locale = babel_locale(self.language)
        pattern = copy(locale.currency_formats["standard"])
        pattern.frac_prec = (0, self.fraction_digits)  # whole sums without ".00", as elsewhere
        try:
            return str(pattern.apply(Decimal(self.plain(value)), locale, currency=code.upper(),
                                     currency_digits=False, decimal_quantization=False))
        except (ArithmeticError, ValueError):
            return f"{self.format(value)} {code.upper()}"


def is_number(value: object) -> bool:
    """True for the numbers a message formats as numbers (``bool`` is not one)."""
    return isinstance(value, (int, float, Fraction, Decimal)) and not isinstance(value, bool)


def _numbers(language: str) -> NumberFormat:
    return NumberFormat(language)


@dataclass(frozen=True)
class Language:
    """One language: its code (``ru``), own name, and CLDR's plural rule and number format."""

    code: str
    name: str = ""
    plural: PluralRule = field(default=None)  # type: ignore[assignment]
    numbers: NumberFormat = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.plural is None:
            object.__setattr__(self, "plural", plural_rule(self.code))
        if self.numbers is None:
            object.__setattr__(self, "numbers", _numbers(self.code))

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
