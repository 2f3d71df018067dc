"""Exact arithmetic written out (`stratagem.expr.core`: `_add`, `_mult`, `_div`, `sum`,
`floor`/`ceil`) against what Python's Fraction gives: the same value of the same type, a
Fraction in lowest terms, the same error. Battles reach few of these paths (a whole number
with a Fraction, mostly), so every pair of a grid of hostile numbers is compared here: ints
and Fractions of both signs, zero, whole Fractions, floats, bools, numbers at the bound of
digits an operator may make (`bounds.MAX_DIGITS`).
"""

from __future__ import annotations

import itertools
import math
import sys
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.errors import StratagemError
from stratagem.expr import core
from stratagem.expr.bounds import MAX_DIGITS, check_number

BIG = 10**MAX_DIGITS - 1  # the largest whole number an operator may make
HALF = 10 ** (MAX_DIGITS // 2)
VALUES: list[Any] = [
    0, 1, -1, 2, -3, 7, 100, -100, 2**62, -(2**64) - 1, HALF, -HALF, BIG, -BIG,
    Fraction(1, 2), Fraction(-1, 2), Fraction(7, 3), Fraction(-22, 7), Fraction(3, 1),
    Fraction(0), Fraction(-5), Fraction(1, 100), Fraction(HALF + 1, 3), Fraction(1, BIG),
    Fraction(-BIG, 2), Fraction(BIG, BIG - 1), Fraction(2**61 - 1, 2**64),
    0.0, 0.5, -2.25, 1e308, float("inf"), float("nan"),
    True, False,
]


def plain_add(a: Any, b: Any) -> Any:
    return a + b


def plain_mult(a: Any, b: Any) -> Any:
    result = a * b
    return result if type(result) is float else check_number(result)


def plain_div(a: Any, b: Any) -> Any:
    """`_div` as it was written before the exact paths."""
    if b == 0:
        raise core.ExpressionError("division by zero",
                                   hint="guard the divisor, e.g. `x / max(n, 1)`",
                                   key="expr.division_by_zero")
    if isinstance(a, int) and isinstance(b, int):
        q, r = divmod(a, b)
        return q if r == 0 else Fraction(a, b)
    return a / b


def plain_sum(xs: Any, start: Any = 0) -> Any:
    return sum(xs, start)


def outcome(fn: Any, *args: Any) -> tuple[Any, ...]:
    """What ``fn(*args)`` gives, comparable: its type and value (a Fraction's parts, so
    that one not in lowest terms differs; NaN by its text), or its error's type and
    words."""
    try:
        value = fn(*args)
    except Exception as err:  # noqa: BLE001 - the error is the outcome
        return ("error", type(err), str(err), getattr(err, "key", None))
    if type(value) is Fraction:
        assert value.denominator > 0 and math.gcd(value.numerator, value.denominator) == 1
        return (Fraction, value.numerator, value.denominator)
    if type(value) is float and math.isnan(value):
        return (float, "nan")
    return (type(value), value)


PAIRS = list(itertools.product(VALUES, repeat=2))
PRIMES = [p for p in range(2, 2800) if all(p % q for q in range(2, int(p**0.5) + 1))][:400]
#: terms that cancel, pair by pair
CANCELLING = [Fraction(s, p) for p in PRIMES for s in (1, -1)]


@pytest.mark.parametrize(("fast", "plain"), [(core._add, plain_add), (core._mult, plain_mult),
                                             (core._div, plain_div)],
                         ids=["add", "mult", "div"])
def test_the_operators_answer_as_python_does(fast: Any, plain: Any) -> None:
    for a, b in PAIRS:
        assert outcome(fast, a, b) == outcome(plain, a, b), (a, b)


@pytest.mark.parametrize(("fast", "plain"), [(core.round_down, math.floor),
                                             (core.round_up, math.ceil)],
                         ids=["floor", "ceil"])
def test_rounding_answers_as_python_does(fast: Any, plain: Any) -> None:
    values = [*VALUES, *(Fraction(n, d) for n in range(-13, 14) for d in range(1, 7)),
              Fraction(-BIG, 7), Fraction(BIG, 10**MAX_DIGITS)]
    for x in values:
        assert outcome(fast, x) == outcome(plain, x), x


def test_the_sum_of_fractions_answers_as_python_does() -> None:
    lists = [[a, b, c] for a in VALUES[14:27] for b in VALUES for c in VALUES[:27:3]]
    lists += [[Fraction(1, d) for d in range(1, 60)], [Fraction(1, 2)] * 1000,
              [Fraction(1, 3), 2, Fraction(2, 3)], [Fraction(1, 2), "a"],
              [Fraction(1, 2), Fraction(1, 2), None], [Fraction(-1, 2), Fraction(1, 2)],
              [Fraction(BIG, 3), Fraction(BIG, 7), -BIG], CANCELLING]
    for xs in lists:
        for start in (0, 5, -1, 0.5, Fraction(1, 3)):
            assert outcome(core._sum, xs, start) == outcome(plain_sum, xs, start), (xs, start)
    assert outcome(core._sum, (Fraction(1, 2), 1)) == (Fraction, 3, 2)
    assert outcome(core._sum, iter([Fraction(1, 2), 1])) == (Fraction, 3, 2)


def test_a_sum_whose_terms_cancel_stays_small() -> None:
    """The common denominator is put in lowest terms again once it grows (the terms
    1/p - 1/p of 400 primes p: otherwise a product of 400 primes)."""
    assert outcome(core._sum, CANCELLING + [Fraction(1, 3)]) == (Fraction, 1, 3)
    assert core._exact_sum(CANCELLING, 0) == 0


numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.fractions(max_denominator=10**12),
    st.fractions(min_value=-1000, max_value=1000, max_denominator=60),
    st.floats(allow_nan=False),
    st.booleans(),
)


@settings(derandomize=True, max_examples=3000, deadline=None, database=None)
@given(a=numbers, b=numbers)
def test_random_numbers_answer_as_python_does(a: Any, b: Any) -> None:
    for fast, plain in ((core._add, plain_add), (core._mult, plain_mult),
                        (core._div, plain_div)):
        assert outcome(fast, a, b) == outcome(plain, a, b), (fast.__name__, a, b)
    assert outcome(core._sum, [a, b], 0) == outcome(plain_sum, [a, b], 0)
    assert outcome(core.round_down, a) == outcome(math.floor, a)
    assert outcome(core.round_up, a) == outcome(math.ceil, a)


def test_division_by_zero_is_the_same_error() -> None:
    for a in (0, 1, -7, BIG, Fraction(1, 2), 0.5, True):
        for b in (0, False, 0.0, Fraction(0)):
            with pytest.raises(StratagemError) as caught:
                core._div(a, b)
            assert caught.value.key == "expr.division_by_zero"


def test_fractions_are_made_from_their_parts_on_cpython() -> None:
    """CPython 3.11-3.13 keep a Fraction's parts in slots `_from_parts` fills; another
    Python (or a later one that keeps them otherwise) makes them with the constructor."""
    if sys.implementation.name == "cpython" and sys.version_info < (3, 14):
        assert core._parts_kept()
        assert core._fraction is core._from_parts
    made = core._from_parts(-7, 3)
    assert type(made) is Fraction
    assert made == Fraction(-7, 3) and hash(made) == hash(Fraction(-7, 3))
    assert (made.numerator, made.denominator) == (-7, 3) and str(made) == "-7/3"


def test_the_constructor_gives_the_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback of a Python whose Fraction keeps its parts otherwise."""
    monkeypatch.setattr(core, "_fraction", core._normalised)
    for a, b in PAIRS[::3]:
        for fast, plain in ((core._add, plain_add), (core._mult, plain_mult),
                            (core._div, plain_div)):
            assert outcome(fast, a, b) == outcome(plain, a, b), (a, b)
    assert outcome(core._sum, [Fraction(1, 2), Fraction(1, 3), 1]) == (Fraction, 11, 6)


# what a battle keeps: `bounds.stored` ---------------------------------------------------

def test_a_kept_fraction_is_bounded_as_its_comparisons_bound_it() -> None:
    from stratagem.expr.bounds import MAX_MAGNITUDE, _INT_BOUND, _number_kept
    edges = [MAX_MAGNITUDE, MAX_MAGNITUDE - 1, MAX_MAGNITUDE + 1, 0, 1, 7, _INT_BOUND,
             _INT_BOUND - 1, BIG]
    for n in (*edges, *(-e for e in edges)):
        for d in (1, 2, 3, 10**9, _INT_BOUND - 1, _INT_BOUND, _INT_BOUND + 7):
            x = Fraction(n, d)
            expected = not (-MAX_MAGNITUDE < x < MAX_MAGNITUDE and x.denominator < _INT_BOUND)
            assert _number_kept(x, Fraction) is expected, x


def test_lists_of_short_lists_are_measured_as_walking_them_measures() -> None:
    """`_two_levels` (a list of lists that hold no list, the short ones in one loop) gives
    what `_walked` gives, or refuses the same number first."""
    from stratagem.expr.bounds import MAX_MAGNITUDE, _measure, _walked
    huge = MAX_MAGNITUDE
    parts: list[Any] = ["a", "", "morale", 0, -5, huge - 1, huge, -huge, 2.5, float("nan"),
                        float("inf"), Fraction(1, 3), Fraction(huge * 3, 2), 1j, True,
                        None, [1], [huge], ("x", [2]), {"k": huge}, []]
    short = [tuple(p) for p in itertools.product(parts, repeat=2)]
    values: list[Any] = [[p] for p in short]
    values += [[p, q] for p, q in zip(short, reversed(short))]
    values += [[("a", 1), ("b", huge)], [("a", huge), ("b", -huge)], ["text", ("a", 1)],
               [tuple(range(9))], [tuple(range(8)) + (huge,)], [tuple(range(9)) + (huge,)],
               [list(range(20)), ("x", 1.5)], [("a", [huge]), ("b", huge)]]
    shared = ("s", 3)
    values.append([shared, shared, "x", shared])
    for value in values:
        for numbers in (True, False):
            assert outcome(_measure, value, numbers) == outcome(_walked, value, numbers), value


# floor(a / b) and the other roundings of a quotient: one call in compiled code -----------

ROUNDED = ["floor(a / b)", "ceil(a / b)", "round_down(a / b)", "round_up(a / b)",
           "round_up(a * 3 / b)", "floor((a - 1) / (b + 0))", "[floor(x / b) for x in [a, 5]]",
           "[y for y in range(ceil(a / b) % 3)]"]


def evaluated(ev: Any, text: str, scope: dict[str, Any]) -> tuple[Any, ...]:
    from stratagem.expr import compile_expr
    return outcome(lambda: ev.eval(compile_expr(text), scope))


def test_a_rounded_quotient_is_what_rounding_the_division_gives() -> None:
    """Compiled with `__quotient` as without it (the code every other call gets), and as
    the simpleeval evaluator computes it: the value, its type, the error's words."""
    from stratagem.expr import Evaluator, compile_expr
    fused, simple = Evaluator(mode="compiled"), Evaluator(mode="simpleeval")
    plain = Evaluator(mode="compiled")
    del plain.namespace["__quotient"]
    assert "__quotient" in fused.function(compile_expr("floor(a / b)")).__code__.co_names
    assert "__quotient" not in plain.function(compile_expr("floor(a / b)")).__code__.co_names
    numbers = [0, 1, -1, 7, -7, 12, 100, -100, BIG, -BIG, 2**70 + 1, True, False,
               Fraction(7, 2), Fraction(-1, 3), 2.5, -0.0, "x", None]
    for a, b in itertools.product(numbers, repeat=2):
        for text in ROUNDED:
            scope = {"a": a, "b": b}
            expected = evaluated(plain, text, scope)
            assert evaluated(fused, text, scope) == expected, (text, a, b)
            assert evaluated(simple, text, scope) == expected, (text, a, b)


def test_a_function_of_the_ruleset_named_floor_is_still_called() -> None:
    from stratagem.expr import Evaluator, compile_expr
    ev = Evaluator(mode="compiled")
    ev.functions["floor"] = lambda x: ("mine", x)
    assert ev.eval(compile_expr("floor(a / b)"), {"a": 7, "b": 2}) == ("mine", Fraction(7, 2))
    assert ev.eval(compile_expr("ceil(a / b)"), {"a": 7, "b": 2}) == 4
