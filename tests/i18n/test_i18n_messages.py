"""The ICU MessageFormat subset: parsing once, formatting many times, errors with positions."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem.i18n.language import Language
from stratagem.i18n.messages import MAX_DEPTH, MessageSyntaxError, parse_message

from .helpers import shipped_language

RU = shipped_language("ru")
EN = shipped_language("en")

SQUADS_RU = "{n, plural, one {# отряд} few {# отряда} many {# отрядов} other {# отряда}}"


@pytest.mark.parametrize(
    ("n", "text"),
    [(1, "1 отряд"), (2, "2 отряда"), (5, "5 отрядов"), (21, "21 отряд"), (11, "11 отрядов"),
     (22, "22 отряда"), (25, "25 отрядов"), (101, "101 отряд"), (111, "111 отрядов"),
     (1.5, "1,5 отряда"), (Fraction(5, 2), "2,5 отряда"), (0, "0 отрядов")],
)
def test_russian_plural_forms(n: object, text: str) -> None:
    assert parse_message(SQUADS_RU).format({"n": n}, RU) == text


def test_english_plural_and_exact_match() -> None:
    message = parse_message("{n, plural, =0 {no units} one {# unit} other {# units}}")
    assert [message.format({"n": n}, EN) for n in (0, 1, 2, 1.5)] == [
        "no units", "1 unit", "2 units", "1.5 units"]


def test_exact_match_is_tried_before_the_rule_and_compares_numbers() -> None:
    message = parse_message("{n, plural, =1.50 {полтора} one {# один} other {#}}")
    assert message.format({"n": 1.5}, RU) == "полтора"
    assert message.format({"n": Fraction(3, 2)}, RU) == "полтора"
    assert message.format({"n": 1}, RU) == "1 один"


def test_substitution_formats_numbers_in_the_language_style() -> None:
    message = parse_message("{unit}: {ratio}")
    assert message.format({"unit": "Эльфы", "ratio": Fraction(5, 2)}, RU) == "Эльфы: 2,5"
    assert message.format({"unit": "Elves", "ratio": Fraction(5, 2)}, EN) == "Elves: 2.5"


def test_a_missing_parameter_stays_visible() -> None:
    message = parse_message("{side} loses {n, plural, one {# unit} other {# units}} to {foe}")
    assert message.format({"side": "Orcs"}, EN) == "Orcs loses {n} units to {foe}"


def test_select_with_other_and_booleans() -> None:
    message = parse_message(
        "{role, select, attacker {атакует} defender {обороняется} other {ждёт}}"
    )
    assert message.format({"role": "attacker"}, RU) == "атакует"
    assert message.format({"role": "scout"}, RU) == "ждёт"
    mounted = parse_message("{m, select, true {конный} false {пеший}}")
    assert mounted.format({"m": True}, RU) == "конный"
    assert mounted.format({"m": "maybe"}, RU) == "maybe"  # no branch and no other: the value


def test_nested_select_in_plural_and_plural_in_select() -> None:
    message = parse_message(
        "{side, select, attacker {{n, plural, one {# атакующий {kind, select, elf {эльф} "
        "other {воин}}} few {# атакующих} many {# атакующих} other {# атакующего}}} "
        "other {{n, plural, one {# защитник} other {# защитников}}}}"
    )
    assert message.format({"side": "attacker", "n": 21, "kind": "elf"}, RU) == "21 атакующий эльф"
    assert message.format({"side": "attacker", "n": 3}, RU) == "3 атакующих"
    assert message.format({"side": "defender", "n": 1}, RU) == "1 защитник"


def test_pound_is_the_innermost_plural_and_literal_outside() -> None:
    message = parse_message("#{a, plural, other {# [{b, plural, other {#}}] #}}")
    assert message.format({"a": 1, "b": 2}, EN) == "#1 [2] 1"


def test_icu_quotes() -> None:
    message = parse_message("it's '{'literal'}' '{x}' a''b {n, plural, other {'#' #}}")
    assert message.format({"n": 3}, EN) == "it's {literal} {x} a'b # 3"


def test_dotted_names_read_keys_and_attributes() -> None:
    message = parse_message("{check.roll} vs {check.target}; {unit.name} ({unit.missing})")
    check = {"roll": 9, "target": 12}
    unit = SimpleNamespace(name="Орки")
    assert message.format({"check": check, "unit": unit}, RU) == "9 vs 12; Орки ({unit.missing})"


def test_a_missing_plural_form_falls_back_to_other_then_to_the_last() -> None:
    with_other = parse_message("{n, plural, one {# отряд} other {# отр.}}")
    assert with_other.format({"n": 5}, RU) == "5 отр."
    without = parse_message("{n, plural, one {# отряд} few {# отряда}}")
    assert without.format({"n": 5}, RU) == "5 отряда"


def test_a_plural_of_a_non_number_uses_other() -> None:
    message = parse_message("{n, plural, one {# unit} other {# units}}")
    assert message.format({"n": "many"}, EN) == "many units"
    assert message.format({"n": "1"}, EN) == "1 unit"  # a numeric text counts as its number


def test_the_message_knows_its_arguments_and_plurals() -> None:
    message = parse_message("{a} {n, plural, one {{b}} other {{c, select, x {#} other {{d}}}}}")
    assert message.arguments == {"a", "n", "b", "c", "d"}
    assert message.plurals == (("n", frozenset({"one", "other"})),)


def test_plain_text_is_returned_as_is() -> None:
    assert parse_message("Итог").format({"x": 1}, RU) == "Итог"
    assert parse_message("").format({}, RU) == ""


@pytest.mark.parametrize(
    ("text", "offset", "fragment"),
    [
        ("Отряд {unit теряет", 12, "expected '}' or ','"),
        ("Отряд {unit", 6, "never closed"),
        ("{unit теряет}", 6, "expected '}' or ','"),
        ("a } b", 2, "closes nothing"),
        ("{}", 1, "expected a parameter name"),
        ("{n, plural, one {# отряд} fw {# отряда}}", 26, "unknown plural form 'fw'"),
        ("{n, plurl, one {x}}", 4, "expected 'plural', 'select' or 'number'"),
        ("{n, plural one {x}}", 11, "expected ','"),
        ("{n, plural, one {a} one {b}}", 20, "written twice"),
        ("{n, plural, one x}", 16, "expected '{'"),
        ("{n, plural, one {x}", 0, "never closed"),
        ("{n, plural, one {x", 16, "branch 'one' is never closed"),
        ("{n, plural, }", 0, "at least one branch"),
        ("{n, plural, offset:1 other {#}}", 12, "offset"),
        ("{x, select, a {b}", 0, "never closed"),
        ("{_secret}", 1, "may not start with '_'"),
        ("{a.__class__}", 3, "may not start with '_'"),
        ("it''s '{ unclosed", 6, "quote is never closed"),
        ("line one\n{n, plural, xx {}}", 21, "unknown plural form"),
    ],
)
def test_syntax_errors_point_at_the_fault(text: str, offset: int, fragment: str) -> None:
    with pytest.raises(MessageSyntaxError) as caught:
        parse_message(text)
    assert caught.value.offset == offset
    assert fragment in caught.value.reason
    caret_line = caught.value.context.splitlines()[1]  # type: ignore[union-attr]
    line_start = text.rfind("\n", 0, offset) + 1
    assert caret_line == "  " + " " * (offset - line_start) + "^"


def test_nesting_is_bounded() -> None:
    deep = "{a, select, other {" * (MAX_DEPTH + 1) + "x" + "}}" * (MAX_DEPTH + 1)
    with pytest.raises(MessageSyntaxError, match="nest deeper"):
        parse_message(deep)
    fine = "{a, select, other {" * MAX_DEPTH + "x" + "}}" * MAX_DEPTH
    assert parse_message(fine).format({"a": "z"}, EN) == "x"


# Hostile and random input: parsing either succeeds or raises our error; formatting never raises.
_PIECES = st.sampled_from(["{", "}", "'", "#", ",", " ", "n", "x", "plural", "select", "one",
                           "other", "=0", "few", "a", "\n", "é"])


@given(st.lists(_PIECES, max_size=30).map("".join))
def test_any_text_parses_or_raises_a_syntax_error(text: str) -> None:
    try:
        message = parse_message(text)
    except MessageSyntaxError as err:
        assert 0 <= err.offset <= len(text)
        return
    for params in ({}, {"n": 1, "x": "a", "a": 2.5}, {"n": "zz", "x": None}):
        assert isinstance(message.format(params, RU), str)


_VALUES = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                    st.fractions(max_denominator=50), st.text(max_size=5), st.none(),
                    st.booleans())


@given(_VALUES)
def test_formatting_any_value_never_raises(value: object) -> None:
    message = parse_message(
        SQUADS_RU + " {n} {n, select, x {y} other {z}} {n, plural, =3 {t} other {#}}"
    )
    for language in (RU, EN, Language("xx")):
        assert isinstance(message.format({"n": value}, language), str)
