"""Plural categories come from Unicode CLDR (through Babel), for every language, from no file."""

from __future__ import annotations

import pytest

from stratagem.i18n.plural import PluralRule, babel_locale, plural_rule

RU, EN, PL, DE = (plural_rule(code) for code in ("ru", "en", "pl", "de"))


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


# Polish: 'one' is exactly 1, so 21 is 'many' (21 rund) where Russian says 'one'; 22 is 'few'.
@pytest.mark.parametrize(
    ("shown", "category"),
    [("1", "one"), ("2", "few"), ("4", "few"), ("5", "many"), ("12", "many"), ("21", "many"),
     ("22", "few"), ("112", "many"), ("1.5", "other"), ("0", "many")],
)
def test_polish_categories(shown: str, category: str) -> None:
    assert PL.category(shown) == category


@pytest.mark.parametrize(
    ("shown", "category"),
    [("1", "one"), ("0", "other"), ("2", "other"), ("21", "other"), ("1.5", "other"),
     ("-1", "one"), ("1.0", "other")],  # "1.0 rounds": a shown fraction digit is not 'one'
)
def test_english_categories(shown: str, category: str) -> None:
    assert EN.category(shown) == category


def test_the_categories_each_language_uses() -> None:
    assert RU.categories == ("one", "few", "many", "other")
    assert PL.categories == ("one", "few", "many", "other")
    assert EN.categories == DE.categories == ("one", "other")
    assert plural_rule("ar").categories == ("zero", "one", "two", "few", "many", "other")
    assert plural_rule("ja").categories == ("other",)


def test_a_regional_or_unknown_language_takes_its_base_language_or_root() -> None:
    assert plural_rule("pt-BR").category("1") == "one"
    assert plural_rule("de-AT").categories == DE.categories
    assert str(babel_locale("ru-XX")) == "ru"  # a region CLDR lacks: the language
    assert PluralRule("x-klingon").categories == ("other",)  # no such language: CLDR's root


def test_a_number_that_does_not_parse_gives_other_and_never_raises() -> None:
    assert RU.category("not a number") == "other"
    assert RU.category("inf") == "other"
