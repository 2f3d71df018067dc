"""Numbers are written in each language's style (CLDR): decimal separator, grouping, rounding,
percentages and sums of money."""

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


def test_fraction_digits_bound_the_rounding() -> None:
    assert NumberFormat(fraction_digits=0).plain(Fraction(7, 2)) == "4"
    assert NumberFormat(fraction_digits=3).plain(Fraction(1, 3)) == "0.333"


def test_russian_writes_a_decimal_comma_and_groups_thousands() -> None:
    ru = shipped_language("ru")
    assert ru.format_value(2.5) == "2,5"
    assert ru.format_value(Fraction(7, 2)) == "3,5"
    # the brief: the Russian report printed "$308833"; CLDR groups with a no-break space
    assert ru.format_value(308833) == "308\u00a0833"


@pytest.mark.parametrize(
    ("code", "big", "fraction"),
    [("en", "1,234,567.5", "2.5"), ("de", "1.234.567,5", "2,5"), ("ru", "1\u00a0234\u00a0567,5",
     "2,5"), ("pl", "1\u00a0234\u00a0567,5", "2,5"), ("fr", "1\u202f234\u202f567,5", "2,5")],
)
def test_every_language_writes_numbers_as_cldr_says(code: str, big: str, fraction: str) -> None:
    numbers = Language(code).numbers
    assert numbers.format(1234567.5) == big
    assert numbers.format(2.5) == fraction
    assert numbers.format(-999) == "-999"


def test_percentages_and_money_in_each_language() -> None:
    en, ru, de = (Language(code).numbers for code in ("en", "ru", "de"))
    assert (en.percent(0.125), ru.percent(0.125), de.percent(0.125)) == (
        "12.5%", "12,5\u00a0%", "12,5\u00a0%")
    assert en.currency(308833, "USD") == "$308,833"  # whole sums without ".00"
    assert ru.currency(308833, "USD") == "308\u00a0833\u00a0$"
    assert de.currency(Fraction(7, 2), "EUR") == "3,5\u00a0€"


@pytest.mark.parametrize(
    ("value", "text"),
    [("text", "text"), (True, "true"), (False, "false"), (None, NONE_TEXT),
     ([1, 2.5, "x"], "1, 2.5, x")],
)
def test_other_values(value: object, text: str) -> None:
    assert Language("en").format_value(value) == text
