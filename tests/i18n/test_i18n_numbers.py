"""Numbers are written in each language's style: decimal separator, grouping, rounding."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from stratagem.i18n.language import NONE_TEXT, Language, NumberFormat

from .helpers import shipped_language


@pytest.mark.parametrize(
    ("value", "plain"),
    [
        (5, "5"), (-3, "-3"), (2.0, "2"), (2.5, "2.5"), (-2.5, "-2.5"), (1 / 3, "0.33"),
        (Fraction(7, 2), "3.5"), (Fraction(7, 3), "2.33"), (Fraction(2, 3), "0.67"),
        (Fraction(-1, 8), "-0.13"), (Fraction(1, 8), "0.13"),  # half away from zero
        (Fraction(6, 3), "2"), (Decimal("1.250"), "1.25"), (-0.001, "0"),
        (float("inf"), "inf"),
    ],
)
def test_plain_rounds_to_two_digits_and_drops_trailing_zeros(value: object, plain: str) -> None:
    assert NumberFormat().plain(value) == plain  # type: ignore[arg-type]


def test_fraction_digits_is_a_locale_setting() -> None:
    assert NumberFormat(fraction_digits=0).plain(Fraction(7, 2)) == "4"
    assert NumberFormat(fraction_digits=3).plain(Fraction(1, 3)) == "0.333"


def test_russian_writes_a_decimal_comma() -> None:
    ru = shipped_language("ru")
    assert ru.format_value(2.5) == "2,5"
    assert ru.format_value(Fraction(7, 2)) == "3,5"
    assert ru.format_value(1200) == "1200"


def test_grouping_is_optional_data() -> None:
    style = NumberFormat(decimal=",", group=" ")
    assert style.format(1234567.5) == "1 234 567,5"
    assert style.format(-1234) == "-1 234"
    assert style.format(999) == "999"


@pytest.mark.parametrize(
    ("value", "text"),
    [("text", "text"), (True, "true"), (False, "false"), (None, NONE_TEXT),
     ([1, 2.5, "x"], "1, 2.5, x")],
)
def test_other_values(value: object, text: str) -> None:
    assert Language("en").format_value(value) == text
