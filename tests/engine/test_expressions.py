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


# each with the bound or the refusal it meets: another error (a typo in the case, a name
# unknown) is not the clear error asked for
@pytest.mark.parametrize("text, says", [
    ("'a' * 10**8", "repeating this would make text or a list longer than 100,000"),
    ("[0] * 10**8", "repeating this would make text or a list longer than 100,000"),
    ("2 ** 10**6", "2 ** 1000000 is too large to compute"),
    ("range(10**9)", "range() is limited to 100,000 items"),
    ("[x for x in range(100000) for y in range(100000)]",
     "comprehensions walk more than 10,000 items"),
    ("1 / 0", "division by zero"),
    ("unknown_name + 1", "the name 'unknown_name' is not defined here"),
])
def test_hostile_expressions_stop_with_a_clear_error(text, says):
    with pytest.raises(ExpressionError) as caught:
        ev(text)
    assert says in caught.value.message, caught.value.message


@pytest.mark.parametrize("text, says", [
    ("__import__('os')", "names starting with '_' are not allowed"),
    ("(lambda: 1)()", "uses Lambda, which rule expressions do not allow"),
    ("max(1, 2)(3)", "calls a value that is not a function's name"),
    ("[abs][0](1)", "calls a value that is not a function's name"),
    ("x.__class__", "names starting with '_' are not allowed"),
    ("'a'.upper()", "calls a method; rule expressions call only functions"),
    ("x := 1", "uses NamedExpr, which rule expressions do not allow"),
    ("a if b", "expected 'else' after 'if' expression"),
])
def test_forbidden_or_malformed_expressions_are_load_errors(text, says):
    with pytest.raises(ExpressionError) as caught:
        compile_expr(text)
    assert says in caught.value.message, caught.value.message
