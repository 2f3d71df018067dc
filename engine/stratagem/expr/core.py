"""Expressions in rule files: parsed once at load, evaluated safely with simpleeval.

An :class:`Expr` is compiled from text once (a syntax error is a load error
with its position); evaluating it takes a *scope*, any mapping of names to
values. Evaluation is re-entrant: a derived value read in the middle of an
expression evaluates its own expression on a fresh evaluator, so the
simpleeval state of the outer one is never disturbed.
"""

from __future__ import annotations

import ast
import math
import operator as op
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from mypy_extensions import mypyc_attr
from simpleeval import (
    AttributeDoesNotExist,
    EvalWithCompoundTypes,
    FeatureNotAvailable,
    FunctionNotDefined,
    InvalidExpression,
    IterableTooLong,
    NameNotDefined,
    NumberTooHigh,
)

from stratagem.errors import Location, StratagemError, Term, UnknownMember, caret
from stratagem.expr import compiled
from stratagem.expr.bounds import (
    MAX_CELLS,
    MAX_LENGTH,
    METER,
    cells,
    check_cells,
    check_number,
    describe_number,
)
from stratagem.expr.calls import CALL_ERRORS, CallFailed, checked_call, explain_call, plain_words
from stratagem.expr.simple import RuleEval, WithConstants

#: Names every expression may use for the literals YAML authors tend to write.
LITERALS: dict[str, Any] = {
    "true": True,
    "false": False,
    "none": None,
    "True": True,
    "False": False,
    "None": None,
}

MAX_EXPRESSION_LENGTH: Final = 2000
MAX_POWER: Final = 1000
MAX_DEPTH: Final = 50  # expressions evaluated inside one another (simpleeval)
#: Operators and calls nested in one expression (a sum of 1,000 terms nests 1,000 deep):
#: far below Python's own stack, whatever compiles or walks the tree.
MAX_NESTING: Final = 100
LARGE: Final = 10**9  # what ratio(a, 0) answers: "infinitely many times more"


class ExpressionError(StratagemError):
    """An expression in a rule file is malformed or failed to evaluate."""


def _safe_power(a: Any, b: Any) -> Any:
    if abs(b) > MAX_POWER or abs(a) > 10**6:
        raise ExpressionError(f"{describe_number(a)} ** {describe_number(b)} is too large to "
                              "compute", key="expr.power_too_large",
                              params={"a": describe_number(a), "b": describe_number(b)})
    return check_number(a**b)


#: Types ``+`` and ``*`` combine with no bound to check.
_NUMBERS: Final = frozenset({int, float, Fraction})
_SEQUENCES: Final = frozenset({list, tuple, str})


# Exact arithmetic ----------------------------------------------------------------------
#
# Python's Fraction is written in Python: ``f + 1`` passes Fraction.__add__'s dispatch on
# types, ``1 + f`` also a check against the ABC ``numbers.Rational`` (slow), each operand's
# parts are read through properties, and the result is made by Fraction.__new__, which
# checks its arguments again: about 800 ns, against under 300 for the same arithmetic
# written out. The operators below compute a Fraction with an int or a Fraction
# themselves, by the algorithms Fraction uses (Knuth, TAOCP 4.5.1), and make the result
# from its parts, already in lowest terms, without normalising them again. A Fraction in
# lowest terms is one pair of numbers, so the result is the very Fraction Python gives,
# and a Fraction stays a Fraction when it is whole, as Python's does (`1/2 * 2` is
# Fraction(1, 1), which only `number()` makes an int). A float with a Fraction is left to
# Python. `tests/expr/test_exact.py` compares every path with Fraction's own.


def _from_parts(numerator: int, denominator: int) -> Fraction:
    """The Fraction ``numerator/denominator``, given in lowest terms with ``denominator >
    0``, made without Fraction.__new__ (what Python 3.12's private
    ``Fraction._from_coprime_ints`` does, which 3.11 lacks)."""
    made: Any = object.__new__(Fraction)
    made._numerator = numerator
    made._denominator = denominator
    return made


def _normalised(numerator: int, denominator: int) -> Fraction:
    """``_from_parts`` through Fraction's constructor (a Python whose Fraction keeps its
    parts otherwise)."""
    return Fraction(numerator, denominator)


def _parts_kept() -> bool:
    """Whether :func:`_from_parts` makes a Fraction the same as Fraction's constructor
    does: CPython 3.11 to 3.13 keep a Fraction's parts in the slots ``_numerator`` and
    ``_denominator``; a Python that keeps them otherwise (no such slot: AttributeError; a
    Fraction written in C: TypeError) makes them with the constructor."""
    try:
        made, plain = _from_parts(-3, 4), Fraction(-3, 4)
        return (type(made) is Fraction and made == plain and hash(made) == hash(plain)
                and repr(made) == repr(plain) and made.numerator == -3
                and made.denominator == 4 and made + 1 == Fraction(1, 4))
    except Exception:  # noqa: BLE001 - any failure: the constructor
        return False


#: A Fraction from its parts in lowest terms (the denominator positive).
_fraction: Final[Callable[[int, int], Fraction]] = (
    _from_parts if _parts_kept() else _normalised)


def _exact_add(a: Any, b: Any) -> Any:
    """``a + b`` of two numbers, one of them a Fraction (see above)."""
    kind, other = type(a), type(b)
    if other is int:  # a is the Fraction: (n + d*b) / d, in lowest terms as n / d is
        d = a.denominator
        return _fraction(a.numerator + d * b, d)
    if kind is int:
        d = b.denominator
        return _fraction(b.numerator + d * a, d)
    if kind is not other:  # a float
        return a + b
    na, da = a.numerator, a.denominator
    nb, db = b.numerator, b.denominator
    g = math.gcd(da, db)
    if g == 1:
        return _fraction(na * db + da * nb, da * db)
    s = da // g
    t = na * (db // g) + nb * s
    g2 = math.gcd(t, g)
    if g2 == 1:
        return _fraction(t, s * db)
    return _fraction(t // g2, s * (db // g2))


def _exact_mult(a: Any, b: Any) -> Any:
    """``a * b`` of two numbers, one of them a Fraction (see above); unchecked."""
    kind, other = type(a), type(b)
    if other is int:  # n/d * b = (n * (b/g)) / (d/g), g = gcd(b, d)
        d = a.denominator
        g = math.gcd(b, d)
        return _fraction(a.numerator * (b // g), d // g)
    if kind is int:
        d = b.denominator
        g = math.gcd(a, d)
        return _fraction(b.numerator * (a // g), d // g)
    if kind is not other:  # a float
        return a * b
    na, da = a.numerator, a.denominator
    nb, db = b.numerator, b.denominator
    g1 = math.gcd(na, db)
    if g1 > 1:
        na //= g1
        db //= g1
    g2 = math.gcd(nb, da)
    if g2 > 1:
        nb //= g2
        da //= g2
    return _fraction(na * nb, db * da)


def _add(a: Any, b: Any) -> Any:
    kind = type(a)
    if kind in _NUMBERS and type(b) in _NUMBERS:  # the common case, answered first
        if kind is Fraction or type(b) is Fraction:
            return _exact_add(a, b)
        return a + b
    if kind is list and type(b) is list:  # the next (lists of parts): METER.charge written out
        n = len(a) + len(b)
        if n <= MAX_LENGTH:
            joined = a + b
            left = METER.left - n
            METER.left = left
            if left < 0:
                METER.charge(0)  # the meter's error
            return joined
    if (kind is type(b) and kind in _SEQUENCES) or (
            hasattr(a, "__len__") and hasattr(b, "__len__")):
        if len(a) + len(b) > MAX_LENGTH:
            raise ExpressionError(f"joining these would make text or a list longer than "
                                  f"{MAX_LENGTH:,}",
                                  key="expr.join_too_long", params={"max": MAX_LENGTH})
        joined = a + b
        METER.charge(len(joined))
        return joined
    return a + b


def _mult(a: Any, b: Any) -> Any:
    kind, other = type(a), type(b)
    if kind in _NUMBERS and other in _NUMBERS:
        result = _exact_mult(a, b) if kind is Fraction or other is Fraction else a * b
        return result if type(result) is float else check_number(result)
    if (hasattr(a, "__len__") and b * len(a) > MAX_LENGTH) or (
            hasattr(b, "__len__") and a * len(b) > MAX_LENGTH):
        raise ExpressionError(f"repeating this would make text or a list longer than "
                              f"{MAX_LENGTH:,}",
                              key="expr.repeat_too_long", params={"max": MAX_LENGTH})
    result = a * b
    if hasattr(result, "__len__"):
        # its items count as the battle's work; its lists within lists are bounded in full
        METER.charge(len(result))
        seq, times = (a, b) if hasattr(a, "__len__") else (b, a)
        if type(seq) is not str and times * cells(seq) > MAX_CELLS:
            check_cells(result)
    return result


def _div(a: Any, b: Any) -> Any:
    kind, other = type(a), type(b)
    if kind is int and other is int and b:  # the common case: q, or a / b in lowest terms
        q, r = divmod(a, b)
        if not r:
            return q
        g = math.gcd(r, b)  # = gcd(a, b), the sign of b: a positive denominator
        if b < 0:
            g = -g
        return _fraction(a // g, b // g)
    if kind is Fraction and other is int and b:  # (n/g) / (d * b/g), g = gcd(n, b)
        g = math.gcd(a.numerator, b)
        if b < 0:
            g = -g
        return _fraction(a.numerator // g, a.denominator * (b // g))
    if b == 0:
        raise ExpressionError("division by zero", hint="guard the divisor, e.g. `x / max(n, 1)`",
                              key="expr.division_by_zero")
    if isinstance(a, int) and isinstance(b, int):
        q, r = divmod(a, b)
        return q if r == 0 else Fraction(a, b)
    return a / b


def _floordiv(a: Any, b: Any) -> Any:
    if b == 0:
        raise ExpressionError("division by zero", hint="guard the divisor, e.g. `x // max(n, 1)`",
                              key="expr.floor_division_by_zero")
    return a // b


def _mod(a: Any, b: Any) -> Any:
    if b == 0:
        raise ExpressionError("modulo by zero",
                              key="expr.modulo_by_zero")
    return a % b


OPERATORS: dict[type, Callable[..., Any]] = {
    ast.Add: _add,  # bounds the length of joined text and lists
    ast.Sub: op.sub,
    ast.Mult: _mult,  # no 'x' * 10**9
    ast.Div: _div,
    ast.FloorDiv: _floordiv,
    ast.Mod: _mod,
    ast.Pow: _safe_power,
    ast.Eq: op.eq,
    ast.NotEq: op.ne,
    ast.Gt: op.gt,
    ast.Lt: op.lt,
    ast.GtE: op.ge,
    ast.LtE: op.le,
    ast.Not: op.not_,
    ast.USub: op.neg,
    ast.UAdd: op.pos,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: op.is_,
    ast.IsNot: op.is_not,
}


#: How the operators rule expressions lack are written, for the error that refuses them.
_SYMBOLS: dict[type, str] = {
    ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^",
    ast.MatMult: "@", ast.Invert: "~",
}


def _int_if_whole(x: Any) -> Any:
    if isinstance(x, Fraction) and x.denominator == 1:
        return x.numerator
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def round_up(x: Any) -> int:
    """Round toward +infinity (exact for fractions: of a Fraction, what its ``__ceil__``
    computes, without math.ceil's call of it)."""
    if type(x) is Fraction:
        return -(-x.numerator // x.denominator)
    return math.ceil(x)


def round_down(x: Any) -> int:
    """Round toward -infinity (exact for fractions: of a Fraction, what its ``__floor__``
    computes, without math.floor's call of it)."""
    if type(x) is Fraction:
        return x.numerator // x.denominator
    return math.floor(x)


def round_half_up(x: Any) -> int:
    """Round to nearest, halves away from zero (as people round: 2.5 -> 3)."""
    f = Fraction(x) if not isinstance(x, float) else Fraction(str(x))
    sign = -1 if f < 0 else 1
    return sign * math.floor(abs(f) + Fraction(1, 2))


def _rounded_quotient(rounding: Any, divide: Any, a: Any, b: Any) -> Any:
    """``rounding(divide(a, b))``: what compiled code calls for ``floor(a / b)``,
    ``ceil(a / b)``, ``round_down(a / b)`` and ``round_up(a / b)`` (``rounding`` the
    function the call names, ``divide`` the operator ``/``; see
    :meth:`stratagem.expr.compiled._Rewrite.visit_Call`). With the built-in rounding and
    division, two whole numbers (a divisor not 0) need no Fraction: the floor of the exact
    quotient is floor division, its ceiling the floor division of ``-a``, negated (an int,
    as round_down and round_up give). Anything else (a ruleset's own function of that name,
    a Fraction, a zero divisor, a bool) is computed as the call always computed it."""
    if type(a) is int and type(b) is int and b and divide is _div:
        if rounding is round_down:
            return a // b
        if rounding is round_up:
            return -(-a // b)
    return rounding(divide(a, b))


def clamp(x: Any, lo: Any, hi: Any) -> Any:
    return max(lo, min(hi, x))


def avg(xs: Iterable[Any]) -> Any:
    items = list(xs)
    if not items:
        return 0
    return _int_if_whole(_div(sum(items), len(items)) if all(
        isinstance(v, int) for v in items) else sum(items) / len(items))


def ratio(a: Any, b: Any) -> Any:
    """a / b, or a very large number when b is 0 (and a is not)."""
    if b == 0:
        return 0 if a == 0 else LARGE
    return _div(a, b)


def pairs(xs: Iterable[Any]) -> list[tuple[Any, Any]]:
    items = list(xs)
    n = len(items) * (len(items) - 1) // 2
    if n > MAX_LENGTH:
        raise ExpressionError(f"pairs() of {len(items):,} items would make {n:,} pairs; the "
                              f"limit is {MAX_LENGTH:,}", hint="pair fewer items",
                              key="expr.pairs_limit",
                              params={"items": len(items), "pairs": n, "limit": MAX_LENGTH})
    METER.charge(n)
    return [(items[i], items[j]) for i in range(len(items)) for j in range(i + 1, len(items))]


def _sorted_with(read: Callable[[Any, str], Any]) -> Callable[..., list[Any]]:
    """``sorted(units, key='br', reverse=true)``: ``key`` names a field, read as ``x.key``
    is read in an expression (``read``: the evaluator's reader)."""

    def sorted_(xs: Iterable[Any], *, key: str | None = None, reverse: bool = False) -> list[Any]:
        items = list(xs)
        METER.charge(len(items))
        if key is None:
            return sorted(items, reverse=reverse)
        _check_field(key, "sorted", "br")
        return sorted(items, key=lambda item: read(item, key), reverse=reverse)

    return sorted_


def _check_field(key: Any, function: str, example: str) -> None:
    """Refuse a ``key`` that names no field (``function``'s, e.g. ``key='example'``)."""
    if not isinstance(key, str) or key.startswith("_"):
        if function == "sorted":
            raise ExpressionError("sorted(): key must name a field, e.g. key='br'",
                                  key="expr.sorted_key")
        raise ExpressionError(f"{function}(): key must name a field, e.g. key='{example}'",
                              key="expr.field_key", params={"function": function,
                                                            "example": example})


#: The work a group of ``group_by`` counts for: its list and its entry in the map weigh
#: about as much as this many items of a list (a comprehension keeping many maps of many
#: groups stops at ``limits.max_work`` before it fills the memory).
GROUP_WEIGHT: Final = 8


def _grouping_with(read: Callable[[Any, str], Any]
                   ) -> tuple[Callable[..., dict[Any, list[Any]]], Callable[..., list[Any]]]:
    """``group_by(units, 'regiment')`` and ``unique(units, key='regiment')``: one pass over
    the items, each one's ``key`` (a field, read as ``x.key`` is read in an expression)
    looked up in a map; what a comprehension comparing every item with every other does in
    as many steps as there are items squared."""

    # (values and keys are Any: a compiled build would check annotated types at the call,
    # and explain a wrong value otherwise than the sources do)
    def keyed(xs: Any, key: Any, function: str) -> tuple[list[Any], list[Any]]:
        items = list(xs)
        METER.charge(len(items))
        if key is None and function == "unique":  # the items themselves
            return items, items
        _check_field(key, function, "regiment")
        return items, [read(item, key) for item in items]

    def group_by(xs: Any, key: Any) -> dict[Any, list[Any]]:
        items, keys = keyed(xs, key, "group_by")
        groups: dict[Any, list[Any]] = {}
        for value, item in zip(keys, items):
            group = groups.get(value)
            if group is None:
                groups[value] = [item]
            else:
                group.append(item)
        METER.charge(GROUP_WEIGHT * len(groups))
        return groups

    def unique(xs: Any, key: Any = None) -> list[Any]:
        items, keys = keyed(xs, key, "unique")
        seen: set[Any] = set()
        kept = []
        for value, item in zip(keys, items):
            if value not in seen:
                seen.add(value)
                kept.append(item)
        return kept

    return group_by, unique


#: group_by() and unique() reading fields as compiled expressions do
_GROUPING: Final = _grouping_with(compiled.read_attribute)


def _reversed(xs: Iterable[Any]) -> list[Any]:
    items = list(xs)
    METER.charge(len(items))
    items.reverse()
    return items


def _first(xs: Iterable[Any], default: Any = None) -> Any:
    for x in xs:
        return x
    return default


def _sum(xs: Iterable[Any], start: Any = 0) -> Any:
    """``sum(xs)``: of numbers only (joining lists one by one would take as long as the
    square of their length; without a start that is not a number, Python refuses them)."""
    if type(start) not in _NUMBERS:
        raise TypeError(f"unsupported operand type(s) for +: '{type(start).__name__}' and "
                        "'int'")
    if type(xs) is list and len(xs) > 2 and type(start) is int and (
            Fraction in set(map(type, xs))):
        return _exact_sum(xs, start)
    return sum(xs, start)


#: A common denominator past which :func:`_exact_sum` puts its sum in lowest terms again.
_LARGE_DENOMINATOR: Final = 2**62


def _exact_sum(xs: list[Any], start: int) -> Any:
    """``sum(xs, start)`` of a list that holds a Fraction: the Fraction Python's sum gives
    (each ``+`` with a Fraction normalises its result: slow), computed over the least
    common denominator and normalised once. A list holding anything but ints and Fractions
    (a float, text) is left to Python's sum, from the start. (A list of one or two items
    is left to it at once: one or two ``+`` are cheaper than the types gathered.)

    A sum whose common denominator grows large is put in lowest terms again, as Python's
    keeps each partial sum: terms that cancel (``1/p - 1/p`` for many primes ``p``) never
    make it a product of all their denominators."""
    n, d = start, 1
    for x in xs:
        kind = type(x)
        if kind is Fraction:
            xn, xd = x.numerator, x.denominator
            if xd == d:
                n += xn
            else:  # over lcm(d, xd)
                g = math.gcd(d, xd)
                n = n * (xd // g) + xn * (d // g)
                d = d // g * xd
                if d > _LARGE_DENOMINATOR:
                    g = math.gcd(n, d)
                    n //= g
                    d //= g
        elif kind is int:
            n += x * d
        else:
            return sum(xs, start)
    g = math.gcd(n, d)
    return _fraction(n // g, d // g)


def _str(*x: Any) -> str:
    """``str(x)``: of a value whose text stays within the bound of text."""
    if not x:
        return ""
    value = x[0]
    if type(value) is not str and cells(value) > MAX_LENGTH:
        raise ExpressionError(f"str() of a value holding more than {MAX_LENGTH:,} items",
                              hint="show a count or a sum instead", key="expr.str_items",
                              params={"limit": MAX_LENGTH})
    text = str(value)
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"str() would make text longer than {MAX_LENGTH:,}",
                              key="expr.str_length", params={"limit": MAX_LENGTH})
    return text


def _count(xs: Iterable[Any]) -> int:
    return sum(1 for x in xs if x)


def _number(x: Any) -> Any:
    """Show a number plainly: whole fractions become ints, others floats."""
    x = _int_if_whole(x)
    if isinstance(x, Fraction):
        return float(x)
    return x


BASE_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "min": min,
    "max": max,
    "abs": abs,
    "sum": _sum,
    "len": len,
    "any": any,
    "all": all,
    "int": int,
    "float": float,
    "str": _str,
    "bool": bool,
    "range": lambda *a: range(*a) if len(range(*a)) <= MAX_LENGTH else _too_long(),
    "sorted": _sorted_with(compiled.read_attribute),
    "group_by": _GROUPING[0],
    "unique": _GROUPING[1],
    "reversed": _reversed,
    "floor": round_down,
    "ceil": round_up,
    "round_up": round_up,
    "round_down": round_down,
    "round_half_up": round_half_up,
    "clamp": clamp,
    "avg": avg,
    "count": _count,
    "ratio": ratio,
    "pairs": pairs,
    "first": _first,
    "number": _number,
}


def _too_long() -> Any:
    raise ExpressionError(f"range() is limited to {MAX_LENGTH:,} items", key="expr.range_limit",
                          params={"limit": MAX_LENGTH})


@mypyc_attr(native_class=False)
class _NameCollector(ast.NodeVisitor):
    """Free names of an expression: names read, minus comprehension variables and callees."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.calls: set[str] = set()
        self._bound: list[set[str]] = []

    def visit_Name(self, node: ast.Name) -> None:
        if not any(node.id in scope for scope in self._bound):
            self.names.add(node.id)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name):
            self.calls.add(node.func.id)
        else:
            self.visit(node.func)
        for arg in node.args:
            self.visit(arg)
        for kw in node.keywords:
            self.visit(kw.value)

    def _comprehension(self, node: Any) -> None:
        # The first iterable is read in the enclosing scope; later iterables, the
        # conditions and the element see every target bound so far.
        bound: set[str] = set()
        for i, gen in enumerate(node.generators):
            if i == 0:
                self.visit(gen.iter)
                self._bound.append(bound)
            else:
                self.visit(gen.iter)
            for target in ast.walk(gen.target):
                if isinstance(target, ast.Name):
                    bound.add(target.id)
            for cond in gen.ifs:
                self.visit(cond)
        for part in ("elt", "key", "value"):
            if hasattr(node, part):
                self.visit(getattr(node, part))
        self._bound.pop()

    def visit_ListComp(self, node: ast.ListComp) -> None:
        self._comprehension(node)

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> None:
        self._comprehension(node)

    def visit_SetComp(self, node: ast.SetComp) -> None:
        self._comprehension(node)

    def visit_DictComp(self, node: ast.DictComp) -> None:
        self._comprehension(node)


_ALLOWED_NODES = (
    ast.Expression, ast.Expr, ast.Name, ast.Load, ast.Store, ast.Constant, ast.UnaryOp,
    ast.BinOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.keyword, ast.Subscript,
    ast.Attribute, ast.Slice, ast.List, ast.Tuple, ast.Dict, ast.ListComp, ast.GeneratorExp,
    ast.DictComp, ast.comprehension, ast.operator, ast.unaryop, ast.boolop, ast.cmpop,
    ast.expr_context,
)


@mypyc_attr(native_class=False)
class _Literals(ast.NodeTransformer):
    """Turn `true`, `false`, `none` (YAML habits) into constants, and fold tuples of
    constants (and the list after `in`) into one constant, built once."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in LITERALS:
            return ast.copy_location(ast.Constant(LITERALS[node.id]), node)
        return node

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        self.generic_visit(node)
        return _folded(node) or node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        for i, (cmp, right) in enumerate(zip(node.ops, node.comparators)):
            if isinstance(cmp, (ast.In, ast.NotIn)) and isinstance(right, (ast.List, ast.Set)):
                node.comparators[i] = _folded(right) or right
        return node


def _folded(node: ast.Tuple | ast.List | ast.Set) -> ast.Constant | None:
    if all(isinstance(e, ast.Constant) for e in node.elts):
        # all() made every element a Constant, which mypy cannot see through
        values = tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
        # a tuple of constants is a Constant's value (CPython folds to them), typeshed omits it
        return ast.copy_location(ast.Constant(values), node)  # type: ignore[arg-type]
    return None


@dataclass(frozen=True)
class Expr:
    """A compiled expression: its text, parsed tree, free names and called functions."""

    text: str
    node: ast.AST = field(repr=False, compare=False)
    names: frozenset[str]
    calls: frozenset[str]
    location: Location | None = field(default=None, compare=False)
    constant: Any = field(default=None, compare=False)
    is_constant: bool = field(default=False, compare=False)
    #: For a bare name or a chain like ``side.units``: the names, read without simpleeval.
    path: tuple[str, ...] | None = field(default=None, compare=False)
    #: [evaluator namespace, function]: the compiled form, made on first use
    compiled: list[Any] = field(default_factory=list, compare=False, repr=False)

    def __str__(self) -> str:
        return self.text


def compile_expr(text: Any, location: Location | None = None) -> Expr:
    """Parse an expression once. Numbers and booleans are constant expressions.

    Raises :class:`ExpressionError` with the position of the mistake.
    """
    if isinstance(text, (bool, int, float)) or text is None:
        return Expr(repr(text), ast.Constant(text), frozenset(), frozenset(), location, text, True)
    if not isinstance(text, str):
        raise ExpressionError(
            f"expected an expression (text or a number), got {type(text).__name__}",
            location=location, key="expr.not_text", params={"type": type(text).__name__},
        )
    source = text.strip()
    if not source:
        raise ExpressionError("empty expression", location=location,
                              hint="write a value, e.g. `0`, or remove the key", key="expr.empty")
    if len(source) > MAX_EXPRESSION_LENGTH:
        raise ExpressionError(
            f"expression is {len(source)} characters long; the limit is {MAX_EXPRESSION_LENGTH}",
            location=location, hint="split it into several `set` values or a formula",
            key="expr.too_long",
            params={"length": str(len(source)), "max": str(MAX_EXPRESSION_LENGTH)},
        )
    try:
        # Parenthesised, so an expression may run over several lines of a YAML block.
        tree = ast.parse(f"({source}\n)", mode="eval")
    except SyntaxError as err:
        line_no = (err.lineno or 1)
        col = (err.offset or 2) - (1 if line_no == 1 else 0)
        if line_no > 1:
            lines = source.split("\n")
            start = sum(len(line) + 1 for line in lines[:line_no - 1])
            raise ExpressionError(
                f"cannot read expression (line {line_no} of it): {err.msg}",
                location=location, context=caret(source, start + max(col - 1, 0)),
                hint="expressions use Python-like syntax: `a + b`, `x if c else y`, `f(x)`",
                key="expr.syntax_line", params={"line": line_no, "reason": err.msg},
            ) from None
        where = location
        if location is not None and location.line is not None and "\n" not in source:
            where = Location(location.file, location.line, (location.column or 1) + col - 1,
                             location.path)
        raise ExpressionError(
            f"cannot read expression `{source}`: {err.msg}",
            location=where, context=caret(source, col - 1),
            hint="expressions use Python-like syntax: `a + b`, `x if c else y`, `f(x)`",
            key="expr.syntax", params={"expr": source, "reason": err.msg},
        ) from None
    _check_nesting(tree, source, location)
    # Every node is checked against the allowed ones first, so that a refused construct
    # is named for what it is (`(lambda: 1)()` uses Lambda: it is not "a method").
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES):
            raise ExpressionError(
                f"`{source}` uses {type(node).__name__}, which rule expressions do not allow",
                location=location,
                hint="use arithmetic, comparisons, `and/or/not`, `x if c else y` and functions",
                key="expr.node", params={"expr": source, "node": type(node).__name__},
            )
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            raise ExpressionError(
                f"`{source}` calls a method; rule expressions call only functions",
                location=location,
                hint="expressions never change the state: use a function such as len(), "
                     "sorted(), sum(), or a step such as `update`",
                key="expr.method", params={"expr": source},
            )
        if isinstance(node, ast.Call) and not isinstance(node.func, ast.Name):
            raise ExpressionError(
                f"`{source}` calls a value that is not a function's name; rule expressions "
                "call functions by name", location=location,
                hint="write the function's name before the brackets, e.g. `max(a, b)`",
                key="expr.callee", params={"expr": source},
            )
        if isinstance(node, ast.keyword) and node.arg is None:
            raise ExpressionError(f"`{source}` unpacks a map into a call (`**`), which rule "
                                  "expressions do not do", location=location,
                                  hint="name each option, e.g. `sorted(xs, reverse=true)`",
                                  key="expr.unpack", params={"expr": source})
        if isinstance(node, ast.Name) and node.id.startswith("_"):
            raise ExpressionError(f"`{source}`: names starting with '_' are not allowed",
                                  location=location, key="expr.underscore",
                                  params={"expr": source})
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise ExpressionError(f"`{source}`: names starting with '_' are not allowed",
                                  location=location, key="expr.underscore",
                                  params={"expr": source})
        if isinstance(node, (ast.operator, ast.unaryop, ast.cmpop)) and type(node) not in OPERATORS:
            symbol = _SYMBOLS.get(type(node), type(node).__name__)
            raise ExpressionError(
                f"`{source}` uses the operator {symbol}, which rule expressions do not have",
                location=location,
                hint="use + - * / // % ** and comparisons; `not`, `and`, `or` for truth values",
                key="expr.operator", params={"expr": source, "symbol": symbol})
        if isinstance(node, ast.comprehension) and not all(
                isinstance(t, (ast.Name, ast.Tuple, ast.List, ast.Store))
                for t in ast.walk(node.target)):
            raise ExpressionError(f"`{source}`: a comprehension may only name its variables "
                                  "(`for x in ...`, `for a, b in ...`)", location=location,
                                  key="expr.comprehension", params={"expr": source})
    tree = _Literals().visit(tree)
    collector = _NameCollector()
    collector.visit(tree)
    body = tree.body
    if isinstance(body, ast.Constant):
        return Expr(source, body, frozenset(), frozenset(), location, body.value, True)
    names = frozenset(collector.names)
    return Expr(source, body, names, frozenset(collector.calls), location, path=_path(body))


def _check_nesting(tree: ast.AST, source: str, location: Location | None) -> None:
    """Refuse an expression nested more than :data:`MAX_NESTING` deep (walked without
    recursion: the tree is as deep as the text is long)."""
    todo: list[tuple[ast.AST, int]] = [(tree, 0)]
    while todo:
        node, depth = todo.pop()
        if depth > MAX_NESTING:
            raise ExpressionError(
                f"the expression nests more than {MAX_NESTING} operations in one another "
                f"(`{source[:40]}{'…' if len(source) > 40 else ''}`)", location=location,
                hint="split it into several `set` values, or use sum() over a list",
                key="expr.nesting", params={"max": MAX_NESTING,
                                            "expr": source[:40] + ("…" if len(source) > 40
                                                                   else "")})
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop,
                                      ast.boolop)):
                todo.append((child, depth + 1))


def _path(node: ast.AST) -> tuple[str, ...] | None:
    """``a`` → ('a',); ``a.b.c`` → ('a', 'b', 'c'); anything else → None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return tuple(reversed(parts))


SAFE_RESULT_TYPES = compiled.SAFE_RESULT_TYPES


@mypyc_attr(native_class=False)
class _Functions(dict):  # type: ignore[type-arg]
    """The evaluator's functions, mirrored into the globals of its compiled expressions
    (rulesets add their formulas after the evaluator is made)."""

    def __init__(self, namespace: dict[str, Any], functions: Mapping[str, Any]) -> None:
        super().__init__()
        self.namespace = namespace
        self.update(functions)

    def __setitem__(self, name: str, fn: Any) -> None:
        super().__setitem__(name, fn)
        self.namespace[compiled.global_name(name)] = fn

    def update(self, *args: Any, **kwargs: Any) -> None:
        for name, fn in dict(*args, **kwargs).items():
            self[name] = fn


#: The evaluators: ``compiled`` (the default) turns each expression into a Python function
#: once; ``simpleeval`` walks the tree with simpleeval every time. They give the same
#: results (the tests compare them); the environment variable STRATAGEM_EVALUATOR picks
#: one, e.g. to check a surprising result against the reference.
EVALUATORS = ("compiled", "simpleeval")


class Evaluator:
    """Evaluates compiled expressions with a fixed set of functions.

    One evaluator serves a whole ruleset. The compiled evaluator turns each expression
    into a Python function on its first use (:mod:`stratagem.expr.compiled`); the
    simpleeval evaluator keeps a small stack of simpleeval instances so nested
    evaluations (derived values, formulas) never share one.
    """

    def __init__(self, functions: Mapping[str, Callable[..., Any]] | None = None,
                 mode: str | None = None,
                 attribute: Callable[[Any, str], Any] = compiled.read_attribute,
                 own: Mapping[str, Callable[[Any, str], Any]] | None = None) -> None:
        mode = mode or os.environ.get("STRATAGEM_EVALUATOR") or "compiled"
        if mode not in EVALUATORS:
            raise StratagemError(f"unknown evaluator '{mode}'",
                                 hint="STRATAGEM_EVALUATOR is 'compiled' or 'simpleeval'",
                                 key="expr.unknown_evaluator", params={"mode": mode})
        self.mode = mode
        self.attribute = attribute
        self.namespace = compiled.namespace({}, OPERATORS, attribute, checked_call, own,
                                            _rounded_quotient)
        #: the ruleset's constants: names every expression may read after its scope's own
        self.constants: Mapping[str, Any] = {}
        self.functions = _Functions(self.namespace, BASE_FUNCTIONS)
        self.functions["sorted"] = _sorted_with(attribute)
        self.functions["group_by"], self.functions["unique"] = _grouping_with(attribute)
        if functions:
            self.functions.update(functions)
        self._pool: list[EvalWithCompoundTypes] = []
        self._depth = 0
        #: the member reads whose owner's type the static checks know, and how each is
        #: read (:meth:`set_reads`)
        self.reads: dict[int, compiled.TypedRead] = {}
        #: the readers compiled code calls (:meth:`_reader`): by id, its global and itself
        self._readers: dict[int, tuple[str, Callable[[Any], Any]]] = {}

    def _make(self) -> EvalWithCompoundTypes:
        ev = RuleEval(operators=dict(OPERATORS), functions=self.functions, names={})
        ev.ATTR_INDEX_FALLBACK = False
        ev.attribute = self.attribute
        return ev

    def set_constants(self, constants: Mapping[str, Any]) -> None:
        """The constants every expression sees behind its scope's names (before any is
        compiled: compiled expressions hold them)."""
        self.constants = constants
        for name, value in constants.items():
            self.namespace[compiled.constant_name(name)] = value

    def set_reads(self, reads: Mapping[int, tuple[ast.AST, str | Callable[[Any], Any]]]
                  ) -> None:
        """How to read the members whose owner's type the static checks know (before any
        expression is compiled: compiled expressions hold them): by the id of each
        ``ast.Attribute`` node of the ruleset's expressions, the node and either one of
        :data:`compiled.STORES` (``owner.<store>['b']``) or a reader ``f(owner)``, which
        must answer exactly as the evaluator's ``attribute`` does. (A store read that
        fails, its owner not what the checks said, gives way to ``attribute``: see
        :func:`compiled.compile_function`.)"""
        typed: dict[int, compiled.TypedRead] = {}
        for key, (node, how) in reads.items():
            if isinstance(how, str):
                if how not in compiled.STORES:
                    raise ValueError(f"no store '{how}'")
                typed[key] = (node, compiled.TYPED_STORE, how)
                continue
            typed[key] = (node, compiled.TYPED_READER, self._reader(how))
        self.reads = typed

    def _reader(self, reader: Callable[[Any], Any]) -> str:
        """The global through which compiled code calls ``reader`` (one per reader, named
        by the evaluator: :func:`compiled.reader_name`)."""
        known = self._readers.get(id(reader))
        if known is None:
            known = self._readers[id(reader)] = (compiled.reader_name(len(self._readers)),
                                                 reader)
            self.namespace[known[0]] = reader
        return known[0]

    def _function(self, expr: Expr) -> Callable[[Mapping[str, Any]], Any]:
        slot = expr.compiled
        if slot and slot[0] is self.namespace:
            return slot[1]
        fn = compiled.compile_function(expr.node, expr.text, self.namespace, OPERATORS,
                                       self.constants, reads=self.reads)
        slot[:] = [self.namespace, fn]
        return fn

    def eval(self, expr: Expr, scope: Mapping[str, Any]) -> Any:
        slot = expr.compiled
        try:
            if slot and slot[0] is self.namespace:
                return slot[1](scope)
            if expr.is_constant:
                return expr.constant
            if self.mode == "compiled":
                return self._function(expr)(scope)
            return self._simpleeval(expr, scope)
        except Exception as err:  # noqa: BLE001 - every failure becomes a rule-file error
            raise self.failure(err, expr, scope) from None

    def function(self, expr: Expr) -> Callable[[Mapping[str, Any]], Any] | None:
        """The compiled function that :meth:`eval` calls for ``expr`` (made now if need be;
        None for the simpleeval evaluator). Whoever calls it directly hands what it raises
        to :meth:`failure`, as :meth:`eval` does."""
        return self._function(expr) if self.mode == "compiled" else None

    def own_function(self, expr: Expr, own: Mapping[str, str | Callable[[Any], Any]]
                     ) -> Callable[[Any, Any], Any] | None:
        """A function ``f(entity, fields)`` computing ``expr`` as :meth:`eval` would in the
        entity's scope, for an entity answering the names ``own`` says
        (:func:`stratagem.expr.compiled.compile_function`; a name read by a reader ``f(entity)``
        of its own: that reader, which the function calls through a global the evaluator
        names), made now; None for the simpleeval evaluator and a constant expression.
        Whoever calls it hands what it raises to :meth:`failure` with the entity's scope, as
        :meth:`eval` does."""
        if self.mode != "compiled" or expr.is_constant:
            return None
        names = {name: how if isinstance(how, str) else self._reader(how)
                 for name, how in own.items()}
        return compiled.compile_function(expr.node, expr.text, self.namespace, OPERATORS,
                                         self.constants, own=names, reads=self.reads)

    def failure(self, err: Exception, expr: Expr, scope: Mapping[str, Any]) -> Exception:
        """The rule-file error that ``err``, raised while evaluating ``expr`` in ``scope``,
        becomes."""
        if isinstance(err, CallFailed):
            return _call_error(err, expr)
        if isinstance(err, UnknownMember):  # the expression, then the error in the reader's language
            return ExpressionError(
                f"`{expr.text}`: {err.message}", location=expr.location, hint=err.hint,
                key="expr.in" if err.key else None,
                hint_key=(err.hint_key or f"{err.key}.hint") if err.key else None,
                params={**err.params, "expr": expr.text,
                        "inner": Term(err.key or "", err.message, tuple(err.params.items()))},
            )
        if isinstance(err, StratagemError):
            if err.location is None:
                err.location = expr.location
            if err.message and not err.message.startswith("`"):
                if err.key:  # the expression, then the error in the reader's language
                    inner = Term(err.key, err.message, tuple(err.params.items()))
                    err.hint_key = err.hint_key or f"{err.key}.hint"
                    err.keyed("expr.in", f"`{expr.text}`: {err.message}", expr=expr.text,
                              inner=inner)
                else:
                    err.message = f"`{expr.text}`: {err.message}"
            return err
        if self.mode == "compiled" and isinstance(err, CALL_ERRORS):
            called = self._failed_call(expr, scope)
            if called is not None:
                return called
        return _explain(err, expr, scope)

    def _failed_call(self, expr: Expr, scope: Mapping[str, Any]) -> ExpressionError | None:
        """The failed call that made a compiled expression fail, if a call did: the
        expression run again with each call checked (it has no side effects), as the
        simpleeval evaluator runs every call."""
        checked = compiled.compile_function(expr.node, expr.text, self.namespace, OPERATORS,
                                            self.constants, checked=True)
        try:
            checked(scope)
        except CallFailed as failed:
            return _call_error(failed, expr)
        except Exception:  # noqa: BLE001, S110 - the first failure is explained instead
            pass
        return None

    def _simpleeval(self, expr: Expr, scope: Mapping[str, Any]) -> Any:
        if self.constants:
            scope = WithConstants(scope, self.constants)
        path = expr.path
        if path is not None:
            try:
                value = scope[path[0]]
                for attr in path[1:]:
                    value = self.attribute(value, attr)
            except (KeyError, AttributeError, compiled.MethodRefused):
                pass  # let simpleeval explain the mistake
            else:
                if not callable(value):
                    return value
        depth = self._depth
        if depth >= MAX_DEPTH:
            raise ExpressionError(
                f"`{expr.text}` recurses too deeply (a derived value or formula that uses itself?)",
                location=expr.location, key="expr.recursion", params={"expr": expr.text})
        if depth == len(self._pool):
            self._pool.append(self._make())
        ev = self._pool[depth]
        ev.names = scope
        self._depth = depth + 1
        try:
            return ev.eval(expr.text, previously_parsed=expr.node)
        finally:
            self._depth = depth


def _call_error(failed: CallFailed, expr: Expr) -> ExpressionError:
    """What a failed call of an expression says: which function, what it takes, what it
    got; a caret under the call."""
    message, hint = explain_call(failed.name, failed.fn, failed.args_given, failed.kwargs,
                                 failed.err)
    return ExpressionError(f"`{expr.text}`: {message}", location=expr.location,
                           hint=str(hint) if hint is not None else None,
                           key="expr.in", hint_key=hint.key or None if hint else None,
                           params={"expr": expr.text, "inner": message,
                                   **dict(hint.params if hint else ())},
                           context=caret(expr.text, _offset(expr.text, failed.line,
                                                            failed.column)))


def _offset(text: str, line: int, column: int) -> int:
    """The character of ``text`` at ``line`` and ``column`` (a UTF-8 byte offset) of
    the tree :func:`compile_expr` parsed: ``(text``, one more character on line 1."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return 0
    start = sum(len(part) + 1 for part in lines[:line - 1])
    head = ("(" + lines[0]) if line == 1 else lines[line - 1]
    within = len(head.encode()[:column].decode(errors="ignore"))
    return max(start + within - (1 if line == 1 else 0), 0)


def _explain(err: Exception, expr: Expr, scope: Mapping[str, Any]) -> Exception:
    """What went wrong in an expression, in the rule writer's terms."""
    text = expr.text
    if isinstance(err, NameNotDefined):
        return ExpressionError(f"`{text}`: the name '{err.name}' is not defined here",
                               location=expr.location,
                               key="compile.unknown_name", params={"expr": text, "name": err.name})
    if isinstance(err, KeyError) and err.args and err.args[0] in expr.names and (
            err.args[0] not in scope):
        return ExpressionError(f"`{text}`: the name '{err.args[0]}' is not defined here",
                               location=expr.location,
                               key="compile.unknown_name",
                               params={"expr": text, "name": err.args[0]})
    if isinstance(err, (AttributeDoesNotExist, AttributeError)):
        attr = getattr(err, "attr", None) or getattr(err, "name", None)
        return ExpressionError(f"`{text}`: no field or value called '{attr}'",
                               location=expr.location,
                               key="expr.no_member", params={"expr": text, "attr": attr})
    if isinstance(err, compiled.MissingEntry):
        return ExpressionError(f"`{text}` failed: no entry {err.key!r}", location=expr.location,
                               key="expr.no_entry", params={"expr": text, "entry": repr(err.key)})
    if isinstance(err, compiled.MethodRefused):
        return ExpressionError(f"`{text}`: '.{err.attr}' is a method; rule expressions use "
                               "values and functions only", location=expr.location,
                               key="expr.method_attr", params={"expr": text, "attr": err.attr})
    if isinstance(err, FunctionNotDefined):
        return ExpressionError(f"`{text}`: unknown function '{err.func_name}'",
                               location=expr.location,
                               key="compile.unknown_function",
                               params={"expr": text, "name": err.func_name})
    if isinstance(err, NameError):
        name = compiled.function_name(getattr(err, "name", "") or "")
        return ExpressionError(f"`{text}`: unknown function '{name}'", location=expr.location,
                               key="compile.unknown_function", params={"expr": text, "name": name})
    if isinstance(err, (IterableTooLong, NumberTooHigh, compiled.TooManyItems,
                        FeatureNotAvailable, InvalidExpression)):
        return ExpressionError(f"`{text}`: {err}", location=expr.location,
                               key="expr.refused", params={"expr": text, "problem": str(err)})
    if isinstance(err, (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError,
                        OverflowError, RecursionError)):
        return ExpressionError(f"`{text}` failed: {plain_words(err)}", location=expr.location,
                               key="expr.failed",
                               params={"expr": text, "problem": plain_words(err)})
    raise err
