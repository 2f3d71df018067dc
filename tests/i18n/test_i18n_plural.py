"""Plural rules are data: the shipped Russian and English rules, the default, and bad rules."""

from __future__ import annotations

import pytest

from stratagem.errors import Location, StratagemError
from stratagem.i18n.plural import DEFAULT_RULE, PluralRule, operands

from .helpers import shipped_language

RU = shipped_language("ru").plural
EN = shipped_language("en").plural


# The brief's examples (1 отряд, 2 отряда, 5 отрядов; 21 отряд, 11 отрядов) and CLDR's Russian
# categories: fractions are 'other' ("1,5 отряда").
@pytest.mark.parametrize(
    ("shown", "category"),
    [
        ("1", "one"), ("2", "few"), ("5", "many"), ("11", "many"), ("21", "one"),
        ("22", "few"), ("25", "many"), ("101", "one"), ("111", "many"), ("1.5", "other"),
        ("0", "many"), ("12", "many"), ("14", "many"), ("24", "few"), ("112", "many"),
        ("1001", "one"), ("-21", "one"), ("0.5", "other"),
    ],
)
def test_russian_categories(shown: str, category: str) -> None:
    assert RU.category(shown) == category


@pytest.mark.parametrize(
    ("shown", "category"),
    [("1", "one"), ("0", "other"), ("2", "other"), ("21", "other"), ("1.5", "other"),
     ("-1", "one")],
)
def test_english_categories(shown: str, category: str) -> None:
    assert EN.category(shown) == category


def test_categories_a_rule_produces_are_found_when_it_loads() -> None:
    assert RU.categories == ("one", "few", "many", "other")
    assert EN.categories == ("one", "other")


def test_default_rule_is_one_for_exactly_one() -> None:
    rule = PluralRule()
    assert rule.source == DEFAULT_RULE
    assert [rule.category(s) for s in ("0", "1", "2", "1.5")] == ["other", "one", "other", "other"]


@pytest.mark.parametrize(
    ("shown", "expected"),
    [("5", (5, 5, 0, 0)), ("1.5", (1.5, 1, 1, 5)), ("-2.25", (2.25, 2, 2, 25)),
     ("0", (0, 0, 0, 0))],
)
def test_operands_follow_cldr(shown: str, expected: tuple[float, int, int, int]) -> None:
    assert operands(shown) == expected


def test_an_operand_names_the_shown_fraction_digits() -> None:
    rule = PluralRule("'other' if v else 'one' if i == 1 else 'many'")
    assert rule.category("1") == "one"
    assert rule.category("1.5") == "other"


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("'one' if n == 1 else", "not a valid expression"),
        ("'one' if count == 1 else 'other'", "unknown name 'count'"),
        ("'one' if n.real == 1 else 'other'", "attributes"),
        ("'single' if n == 1 else 'other'", "returns 'single' for n = 1"),
        ("n", "returns 0 for n = 0"),
        ("'one' if 1 / (n - 3) else 'other'", "fails for n = 3"),
        ("", "non-empty"),
        ("'one'; 'other'", "one expression"),
        ("'other'" + " " * 2001, "limit is 2000"),
        ("__import__('os')", "unknown name '__import__'"),
        ("'one' if n ** 9999999 else 'other'", "fails for n = 0"),  # simpleeval bounds powers
    ],
)
def test_a_bad_rule_is_a_load_error_at_its_place(source: str, fragment: str) -> None:
    where = Location("ru.yaml", 4, 9, "$.plural")
    with pytest.raises(StratagemError) as caught:
        PluralRule(source, where)
    assert fragment in caught.value.message
    assert caught.value.location == where
    assert caught.value.hint


def test_a_rule_that_fails_on_an_unusual_number_at_run_time_gives_other() -> None:
    # Fine on every sample number, but 1e6 makes it divide by zero.
    rule = PluralRule("'one' if 1 // (n - 1000000) == 0 else 'few'")
    assert rule.category("1000000") == "other"
