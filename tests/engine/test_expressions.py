"""Expressions in rule files: exact arithmetic, and every resource bounded."""

from fractions import Fraction

import pytest

from stratagem.expr import Evaluator, ExpressionError, compile_expr


def ev(text, **names):
    return Evaluator().eval(compile_expr(text), names)


def test_division_is_exact_and_rounding_is_explicit():
    assert ev("7 / 2") == Fraction(7, 2)
    assert ev("7 // 2") == 3
    assert ev("round_up(7 / 2)") == 4
    assert ev("round_half_up(5 / 2)") == 3
    assert ev("round_half_up(-5 / 2)") == -3


def test_yaml_literals_and_multiline():
    assert ev("true and not false") is True
    assert ev("none") is None
    assert ev("[1,\n 2]\n+ [3]") == [1, 2, 3]


@pytest.mark.parametrize("text", [
    "'a' * 10**8",
    "[0] * 10**8",
    "2 ** 10**6",
    "range(10**9)",
    "[x for x in range(100000) for y in range(100000)]",
    "1 / 0",
    "unknown_name + 1",
])
def test_hostile_expressions_stop_with_a_clear_error(text):
    with pytest.raises(ExpressionError):
        ev(text)


@pytest.mark.parametrize("text", [
    "__import__('os')", "(lambda: 1)()", "x.__class__", "'a'.upper()", "x := 1", "a if b",
])
def test_forbidden_or_malformed_expressions_are_load_errors(text):
    with pytest.raises(ExpressionError):
        compile_expr(text)
