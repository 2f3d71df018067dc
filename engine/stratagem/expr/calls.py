"""What each function of the expressions takes, and what a failed call says.

Both evaluators call the functions directly; when a call fails, both hand the function,
its values and Python's exception to :func:`explain_call`, which says in the rule
writer's terms which function it was, what it takes and what it got (never in Python's
wording). The same words serve every other failure of an expression (:func:`plain_words`).
Nothing here runs unless an expression has already failed.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from stratagem.errors import did_you_mean

NUMBER = "a number"
WHOLE = "a whole number"
TEXT = "text"
LIST = "a list"
NUMBERS = "a list of numbers"
SIZED = "a list, text or a map"
NUMBER_OR_TEXT = "a number or text"
ANY = ""

#: The exceptions a function's mistake shows as (the evaluator's own errors pass through).
CALL_ERRORS = (TypeError, ValueError, ArithmeticError, LookupError)


@dataclass(frozen=True)
class Signature:
    """What a function takes: its values (``params``, with the kind each must be), how many
    of them (``least`` to ``most``; ``None``: any number), and its options (keywords). The
    values are given in order, as the static checks demand, except where ``by_name``: a
    function described from its Python signature, and the ``key`` of group_by and unique."""

    params: tuple[str, ...]
    kinds: tuple[str, ...]
    least: int
    most: int | None
    options: tuple[str, ...] = ()
    example: str = ""
    #: for min/max: what a single value must be (several values are compared)
    alone: str = ""
    by_name: bool = False


def _one(kind: str, example: str, param: str = "x") -> Signature:
    return Signature((param,), (kind,), 1, 1, example=example)


#: The built-in functions (stratagem.expr.core.BASE_FUNCTIONS). A function listed in neither
#: table (a ruleset's formula) is described from its Python signature.
SIGNATURES: dict[str, Signature] = {
    # (no key=: an expression has no function to hand it; sorted() takes a field's name)
    "min": Signature(("values",), (ANY,), 1, None, ("default",), "min(xs) or min(a, b)", LIST),
    "max": Signature(("values",), (ANY,), 1, None, ("default",), "max(xs) or max(a, b)", LIST),
    "abs": _one(NUMBER, "abs(x - y)"),
    "sum": Signature(("values", "start"), (NUMBERS, NUMBER), 1, 2, example="sum(xs)"),
    "len": _one(SIZED, "len(xs)", "values"),
    "any": _one(LIST, "any(v > 0 for v in xs)", "values"),
    "all": _one(LIST, "all(v > 0 for v in xs)", "values"),
    "int": Signature(("x",), (NUMBER_OR_TEXT,), 0, 1, example="int(x)"),
    "float": Signature(("x",), (NUMBER_OR_TEXT,), 0, 1, example="float(x)"),
    "str": Signature(("x",), (ANY,), 0, 1, example="str(x)"),
    "bool": Signature(("x",), (ANY,), 0, 1, example="bool(x)"),
    "range": Signature(("start", "stop", "step"), (WHOLE, WHOLE, WHOLE), 1, 3,
                       example="range(n) or range(1, n + 1)"),
    "sorted": Signature(("values",), (LIST,), 1, 1, ("key", "reverse"),
                        "sorted(units, key='count', reverse=true)"),
    "reversed": _one(LIST, "reversed(xs)", "values"),
    "floor": _one(NUMBER, "floor(x / 2)"),
    "ceil": _one(NUMBER, "ceil(x / 2)"),
    "round_up": _one(NUMBER, "round_up(x / 2)"),
    "round_down": _one(NUMBER, "round_down(x / 2)"),
    "round_half_up": _one(NUMBER, "round_half_up(x / 2)"),
    "clamp": Signature(("x", "lo", "hi"), (NUMBER, NUMBER, NUMBER), 3, 3,
                       example="clamp(x, 0, 10)"),
    "avg": _one(NUMBERS, "avg(xs)", "values"),
    "count": _one(LIST, "count(v > 0 for v in xs)", "values"),
    "ratio": Signature(("a", "b"), (NUMBER, NUMBER), 2, 2, example="ratio(a, b)"),
    "pairs": _one(LIST, "pairs(units)", "values"),
    "first": Signature(("values",), (LIST,), 1, 1, ("default",),
                       "first(u for u in units if u.count > 0)"),
    "number": _one(NUMBER, "number(x / 2)"),
    # (key: a field's name, as sorted() takes it; given by name or in its place)
    "group_by": Signature(("values", "key"), (LIST, TEXT), 2, 2,
                          example="group_by(units, 'regiment')", by_name=True),
    "unique": Signature(("values", "key"), (LIST, TEXT), 1, 2,
                        example="unique(units) or unique(units, key='regiment')", by_name=True),
}

#: The functions the ruleset itself gives its expressions, bound to its tables and enums
#: (compile/ruleset.py). Described from this table, not from their Python signatures, so a
#: compiled build explains a wrong call in the same words as the sources.
RULESET_SIGNATURES: dict[str, Signature] = {
    "lookup": Signature(("table", "key"), (ANY, ANY), 2, None, ("shift",),
                        "lookup(table, key, ...[, shift=N])"),
    "row": Signature(("table", "id"), (ANY, ANY), 2, 2, example="row(table, id)"),
    "has": Signature(("table", "key"), (ANY, ANY), 2, None, example="has(table, key, ...)"),
    "keys": Signature(("table",), (ANY,), 1, 1, example="keys(table)"),
    "rows": Signature(("table",), (ANY,), 1, 1, example="rows(table)"),
    "label": Signature(("enum", "value"), (ANY, ANY), 1, 2,
                       example="label(enum, value) or label(key)"),
}


class CallFailed(Exception):
    """A function of an expression failed on the values it was given: the call (``name``
    at ``line``, ``column`` of the parsed text), what it got and Python's exception, for
    the evaluator to explain with the expression's text (see :func:`checked_call`)."""

    def __init__(self, name: str, line: int, column: int, fn: Callable[..., Any],
                 args: tuple[Any, ...], kwargs: dict[str, Any], err: Exception) -> None:
        super().__init__(name)
        self.name = name
        self.line = line
        self.column = column
        self.fn = fn
        self.args_given = args
        self.kwargs = kwargs
        self.err = err


def checked_call(name: str, line: int, column: int, fn: Callable[..., Any], /, *args: Any,
                 **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``, the call ``name(...)`` of an expression; its failure is a
    :class:`CallFailed`. The simpleeval evaluator calls every function so; compiled code
    only when it runs an expression again to explain how it failed."""
    try:
        return fn(*args, **kwargs)
    except CALL_ERRORS as err:
        raise CallFailed(name, line, column, fn, args, kwargs, err) from None


def signature(name: str, fn: Callable[..., Any]) -> Signature | None:
    """What the function ``name`` takes: from the table, else from its Python signature
    (None when it has none to read, or takes anything)."""
    known = SIGNATURES.get(name) or RULESET_SIGNATURES.get(name)
    if known is not None:
        return known
    try:
        found = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    params, options, least, most = [], [], 0, 0
    unbounded = False
    for p in found.parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            unbounded = True
            params.append(f"{p.name}...")
        elif p.kind is p.VAR_KEYWORD:
            return None  # takes anything (a formula checks its own values)
        elif p.kind is p.KEYWORD_ONLY:
            options.append(p.name)
        else:
            params.append(p.name)
            most += 1
            if p.default is p.empty:
                least += 1
    return Signature(tuple(params), (ANY,) * len(params), least, None if unbounded else most,
                     tuple(options), by_name=True)


def explain_call(name: str, fn: Callable[..., Any], args: tuple[Any, ...],
                 kwargs: Mapping[str, Any], err: BaseException) -> tuple[str, str | None]:
    """The message and hint for ``name(*args, **kwargs)`` failing with ``err``."""
    sig = signature(name, fn)
    if sig is not None:
        said = _arity(name, sig, args, kwargs) or _kinds(name, sig, args)
        if said is not None:
            return said
    if any(isinstance(a, float) and not math.isfinite(a) for a in args):
        return (f"{name}() got a number too large to compute ({describe(args[0])})",
                "a result beyond about 1e308 is infinite: bound it, e.g. with min()")
    if isinstance(err, ValueError) and name in ("min", "max") and "default" not in kwargs:
        return (f"{name}() of an empty list", f"give a value for that case, e.g. "
                f"{name}(xs, default=0)")
    if isinstance(err, ValueError) and name in ("int", "float") and args and isinstance(
            args[0], str):
        return f"{name}() cannot read {describe(args[0])} as a number", None
    return f"{name}() failed: {plain_words(err)}", None


def _arity(name: str, sig: Signature, args: tuple[Any, ...],
           kwargs: Mapping[str, Any]) -> tuple[str, str | None] | None:
    hint = f"e.g. {sig.example}" if sig.example else f"write it as {name}({', '.join(sig.params)})"
    for key in kwargs:
        if key not in sig.options and not (sig.by_name and key in sig.params):
            if sig.options:
                return (f"{name}() has no option '{key}'",
                        did_you_mean(key, sig.options) or "its options: " + ", ".join(sig.options))
            return f"{name}() takes no options ('{key}=')", hint
    given = len(args) + sum(1 for key in kwargs if sig.by_name and key in sig.params)
    if sig.least <= given and (sig.most is None or given <= sig.most):
        return None
    if sig.alone:
        return f"{name}() takes {sig.alone} or two or more values, got none", hint
    return f"{name}() takes {_how_many(sig)} ({', '.join(sig.params)}), got {given}", hint


def _how_many(sig: Signature) -> str:
    if sig.most is None:
        return f"at least {_values(sig.least)}"
    if sig.least == sig.most:
        return _values(sig.most)
    joint = " or " if sig.most == sig.least + 1 else " to "
    return f"{sig.least}{joint}{_values(sig.most)}"


def _values(n: int) -> str:
    return f"{n} value" if n == 1 else f"{n} values"


def _kinds(name: str, sig: Signature, args: tuple[Any, ...]) -> tuple[str, str | None] | None:
    hint = f"e.g. {sig.example}" if sig.example else None
    if sig.alone and len(args) == 1:
        if not is_kind(args[0], sig.alone):
            return (f"{name}() takes {sig.alone} or two or more values, got "
                    f"{describe(args[0])}", hint)
        return None
    for i, value in enumerate(args[:len(sig.kinds)]):
        kind = sig.kinds[i]
        if kind and not is_kind(value, kind):
            what = describe(value)
            if kind == NUMBERS and is_kind(value, LIST):
                what = "a list holding " + describe(next(
                    v for v in value if not is_kind(v, NUMBER)))
            if len(sig.params) == 1:
                return f"{name}() takes {kind}, got {what}", hint
            return f"{name}()'s {sig.params[i]} must be {kind}, got {what}", hint
    return None


_NUMBER_TYPES = (int, float, Fraction)
_LIST_TYPES = (list, tuple, range, dict)


def is_kind(value: Any, kind: str) -> bool:
    """Whether ``value`` is of the kind a function's value is described as."""
    if kind == NUMBER:
        return isinstance(value, _NUMBER_TYPES)
    if kind == WHOLE:
        return isinstance(value, int)
    if kind == NUMBER_OR_TEXT:
        return isinstance(value, (*_NUMBER_TYPES, str))
    if kind == TEXT:
        return isinstance(value, str)
    if kind == LIST:
        return isinstance(value, _LIST_TYPES)
    if kind == NUMBERS:
        return isinstance(value, _LIST_TYPES) and all(is_kind(v, NUMBER) for v in value)
    if kind == SIZED:
        return isinstance(value, (*_LIST_TYPES, str))
    return True


def describe(value: Any) -> str:
    """A value as a message names it: ``the number 3``, ``the text 'x'``, ``a unit``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        value = value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, (int, float)):
        text = str(value)
        return f"the number {text if len(text) <= 20 else text[:8] + '…'}"
    if isinstance(value, str):
        shown = value if len(value) <= 30 else value[:30] + "…"
        return f"the text {shown!r}"
    if isinstance(value, (list, tuple, range)):
        n = len(value)
        return "an empty list" if n == 0 else f"a list of {_values(n)}"
    if isinstance(value, dict):
        return "a map"
    return kind_of(type(value).__name__, value)


#: Python's names of types, as the rule writer knows them.
_KINDS = {
    "int": "a number", "float": "a number", "Fraction": "a number", "str": "text",
    "list": "a list", "tuple": "a list", "range": "a list", "dict": "a map",
    "NoneType": "none", "bool": "true/false", "Row": "a table row", "Label": "a label",
    "Entity": "an entity",
}


def kind_of(type_name: str, value: Any = None) -> str:
    """A Python type's name as the rule writer knows it (an entity by its kind)."""
    type_name = type_name.split("[")[0].rsplit(".", 1)[-1]  # tuple[int, int], a.b.Row
    if type_name == "Entity" and value is not None:
        try:
            return f"a {value.kind}"
        except Exception:  # noqa: BLE001 - only the name of a value is at stake
            pass
    return _KINDS.get(type_name, f"a {type_name}")


_T = r"'?([\w.]+)'?"
_T_COMPILED = r"([\w.]+(?:\[[\w., ]*\])?)"  # how a compiled (mypyc) function names a type
#: Python's wording of a failure -> the rule writer's (the type names become kinds).
_REWORDED: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(rf"'(.+)' not supported between instances of {_T} and {_T}"),
     lambda m: f"cannot compare {kind_of(m[2])} with {kind_of(m[3])} ({m[1]})"),
    (re.compile(rf"unsupported operand type\(s\) for (.+?): {_T} and {_T}"),
     lambda m: f"cannot apply {m[1]} to {kind_of(m[2])} and {kind_of(m[3])}"),
    (re.compile(rf"bad operand type for unary (.+): {_T}"),
     lambda m: f"cannot apply {m[1]} to {kind_of(m[2])}"),
    (re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+'),
     lambda m: f"cannot join {kind_of(m[2])} to {kind_of(m[1])}"),
    (re.compile(r"can't multiply sequence by non-int of type '(\w+)'"),
     lambda m: f"text or a list repeats a whole number of times, not {kind_of(m[1])}"),
    (re.compile(r"'(\w+)' object is not iterable"),
     lambda m: f"{kind_of(m[1])} is not a list"),
    (re.compile(r"object of type '(\w+)' has no len\(\)"),
     lambda m: f"{kind_of(m[1])} has no length"),
    (re.compile(r"'(\w+)' object is not subscriptable"),
     lambda m: f"{kind_of(m[1])} cannot be indexed with [ ]"),
    (re.compile(r"(\w+) indices must be integers(?: or slices)?, not (\w+)"),
     lambda m: f"{kind_of(m[1])} is indexed by whole numbers, not {kind_of(m[2])}"),
    (re.compile(r"(\w+) index out of range"),
     lambda m: f"there is no item at that position ({kind_of(m[1])} is shorter)"),
    (re.compile(r"unhashable type: '(\w+)'"),
     lambda m: f"{kind_of(m[1])} cannot be a key"),
    (re.compile(r"slice step cannot be zero"), lambda m: "a slice's step cannot be 0"),
    (re.compile(rf"{_T_COMPILED} object expected; got {_T_COMPILED}"),
     lambda m: f"expected {kind_of(m[1])}, got {kind_of(m[2])}"),
    (re.compile(r"'(\w+)' is not a column's name"),
     lambda m: f"a table row's cells are named by text, not by {kind_of(m[1])}"),
    (re.compile(r"cannot unpack non-iterable (\w+) object"),
     lambda m: f"{kind_of(m[1])} cannot be split into the variables of `for a, b in ...`"),
    (re.compile(r"too many values to unpack \(expected (\d+)"),
     lambda m: f"more values than the {m[1]} variables of `for ... in` take"),
    (re.compile(r"not enough values to unpack \(expected (\d+), got (\d+)\)"),
     lambda m: f"{m[2]} value{'s' if m[2] != '1' else ''} for the {m[1]} variables of "
               "`for ... in`"),
]


def plain_words(err: BaseException) -> str:
    """What went wrong, in the rule writer's words where Python's are known."""
    if isinstance(err, KeyError):
        return f"no entry {err.args[0]!r}" if err.args else "no such entry"
    if isinstance(err, ZeroDivisionError):
        return "division by zero"
    if isinstance(err, OverflowError):
        return "a number too large to compute"
    if isinstance(err, RecursionError):
        return "it goes too deep (a value that uses itself?)"
    text = str(err)
    for pattern, words in _REWORDED:
        found = pattern.search(text)
        if found:
            return words(found)
    return text or type(err).__name__
