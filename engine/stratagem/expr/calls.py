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

from stratagem.errors import Term, did_you_mean

NUMBER = "a number"
WHOLE = "a whole number"
TEXT = "text"
LIST = "a list"
NUMBERS = "a list of numbers"
SIZED = "a list, text or a map"
NUMBER_OR_TEXT = "a number or text"
ANY = ""

#: How a message names each kind, in the reader's language.
KIND_TERMS: dict[str, Term] = {
    NUMBER: Term("type.number", NUMBER), WHOLE: Term("type.integer", WHOLE),
    TEXT: Term("type.string", TEXT), LIST: Term("type.array", LIST),
    NUMBERS: Term("kind.numbers", NUMBERS), SIZED: Term("kind.sized", SIZED),
    NUMBER_OR_TEXT: Term("kind.number_or_text", NUMBER_OR_TEXT),
}

#: What a failed call says: a message and a hint, each with its key and parameters.
Said = tuple[Term, Term | None]

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


def _term(key: str, english: str, /, **params: object) -> Term:
    return Term(key, english, tuple(params.items()))


def explain_call(name: str, fn: Callable[..., Any], args: tuple[Any, ...],
                 kwargs: Mapping[str, Any], err: BaseException) -> Said:
    """The message and hint for ``name(*args, **kwargs)`` failing with ``err`` (their
    English is the terms' fallback; their parameters are named ``call_*``)."""
    sig = signature(name, fn)
    if sig is not None:
        said = _arity(name, sig, args, kwargs) or _kinds(name, sig, args)
        if said is not None:
            return said
    if any(isinstance(a, float) and not math.isfinite(a) for a in args):
        value = describe(args[0])
        return (_term("call.infinite", f"{name}() got a number too large to compute ({value})",
                      call_name=name, call_value=value),
                _term("call.infinite.hint", "a result beyond about 1e308 is infinite: bound "
                      "it, e.g. with min()"))
    if isinstance(err, ValueError) and name in ("min", "max") and "default" not in kwargs:
        return (_term("call.empty", f"{name}() of an empty list", call_name=name),
                _term("call.empty.hint", f"give a value for that case, e.g. "
                      f"{name}(xs, default=0)", call_name=name))
    if isinstance(err, ValueError) and name in ("int", "float") and args and isinstance(
            args[0], str):
        value = describe(args[0])
        return (_term("call.not_a_number", f"{name}() cannot read {value} as a number",
                      call_name=name, call_value=value), None)
    reason = plain_words(err)
    return _term("call.failed", f"{name}() failed: {reason}", call_name=name,
                 call_reason=reason), None


def _usage(name: str, sig: Signature) -> Term:
    if sig.example:
        return _term("call.example.hint", f"e.g. {sig.example}", call_example=sig.example)
    params = ", ".join(sig.params)
    return _term("call.write.hint", f"write it as {name}({params})", call_name=name,
                 call_params=params)


def _arity(name: str, sig: Signature, args: tuple[Any, ...],
           kwargs: Mapping[str, Any]) -> Said | None:
    for key in kwargs:
        if key not in sig.options and not (sig.by_name and key in sig.params):
            said = _term("call.no_option" if sig.options else "call.no_options",
                         f"{name}() has no option '{key}'" if sig.options
                         else f"{name}() takes no options ('{key}=')",
                         call_name=name, call_option=key)
            if not sig.options:
                return said, _usage(name, sig)
            options = ", ".join(sig.options)
            close = did_you_mean(key, sig.options)
            return said, (Term("", close) if close else _term(
                "call.options.hint", f"its options: {options}", call_options=options))
    given = len(args) + sum(1 for key in kwargs if sig.by_name and key in sig.params)
    if sig.least <= given and (sig.most is None or given <= sig.most):
        return None
    if sig.alone:
        return (_term("call.alone_none",
                      f"{name}() takes {sig.alone} or two or more values, got none",
                      call_name=name, call_kind=KIND_TERMS.get(sig.alone, sig.alone)),
                _usage(name, sig))
    form = ("more" if sig.most is None else "exact" if sig.least == sig.most
            else "two" if sig.most == sig.least + 1 else "range")
    params = ", ".join(sig.params)
    return (_term("call.arity", f"{name}() takes {_how_many(sig)} ({params}), got {given}",
                  call_name=name, call_form=form, call_least=sig.least,
                  call_most=sig.most if sig.most is not None else sig.least,
                  call_params=params, call_given=given),
            _usage(name, sig))


def _how_many(sig: Signature) -> str:
    if sig.most is None:
        return f"at least {_values(sig.least)}"
    if sig.least == sig.most:
        return _values(sig.most)
    joint = " or " if sig.most == sig.least + 1 else " to "
    return f"{sig.least}{joint}{_values(sig.most)}"


def _values(n: int) -> str:
    return f"{n} value" if n == 1 else f"{n} values"


def _kinds(name: str, sig: Signature, args: tuple[Any, ...]) -> Said | None:
    hint = _usage(name, sig) if sig.example else None
    if sig.alone and len(args) == 1:
        if not is_kind(args[0], sig.alone):
            what = describe(args[0])
            return (_term("call.alone_kind", f"{name}() takes {sig.alone} or two or more "
                          f"values, got {what}", call_name=name,
                          call_kind=KIND_TERMS.get(sig.alone, sig.alone), call_value=what),
                    hint)
        return None
    for i, value in enumerate(args[:len(sig.kinds)]):
        kind = sig.kinds[i]
        if kind and not is_kind(value, kind):
            what = describe(value)
            if kind == NUMBERS and is_kind(value, LIST):
                inner = describe(next(v for v in value if not is_kind(v, NUMBER)))
                what = _term("value.list_holding", f"a list holding {inner}", value=inner)
            wanted = KIND_TERMS.get(kind, kind)
            if len(sig.params) == 1:
                return (_term("call.kind", f"{name}() takes {kind}, got {what}",
                              call_name=name, call_kind=wanted, call_value=what), hint)
            return (_term("call.param_kind", f"{name}()'s {sig.params[i]} must be {kind}, "
                          f"got {what}", call_name=name, call_param=sig.params[i],
                          call_kind=wanted, call_value=what), hint)
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


def describe(value: Any) -> Term:
    """A value as a message names it: ``the number 3``, ``the text 'x'``, ``a unit`` (a
    term: English as text, the reader's language as a message's parameter)."""
    if value is None:
        return Term("value.none", "none")
    if isinstance(value, bool):
        return Term("value.true", "true") if value else Term("value.false", "false")
    if isinstance(value, Fraction):
        value = value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, (int, float)):
        text = str(value)
        shown = text if len(text) <= 20 else text[:8] + "…"
        return _term("value.number", f"the number {shown}", number=shown)
    if isinstance(value, str):
        quoted = repr(value if len(value) <= 30 else value[:30] + "…")
        return _term("value.text", f"the text {quoted}", text=quoted)
    if isinstance(value, (list, tuple, range)):
        n = len(value)
        return (Term("value.empty_list", "an empty list") if n == 0
                else _term("value.list_of", f"a list of {_values(n)}", n=n))
    if isinstance(value, dict):
        return Term("value.map", "a map")
    return kind_of(type(value).__name__, value)


#: Python's names of types, as the rule writer knows them.
_KINDS = {
    "int": KIND_TERMS[NUMBER], "float": KIND_TERMS[NUMBER], "Fraction": KIND_TERMS[NUMBER],
    "str": KIND_TERMS[TEXT], "list": KIND_TERMS[LIST], "tuple": KIND_TERMS[LIST],
    "range": KIND_TERMS[LIST], "dict": Term("value.map", "a map"),
    "NoneType": Term("value.none", "none"), "bool": Term("type.boolean", "true/false"),
    "Row": Term("value.row", "a table row"), "Label": Term("value.label", "a label"),
    "Entity": Term("value.entity", "an entity"),
}


def kind_of(type_name: str, value: Any = None) -> Term:
    """A Python type's name as the rule writer knows it (an entity by its kind)."""
    type_name = type_name.split("[")[0].rsplit(".", 1)[-1]  # tuple[int, int], a.b.Row
    if type_name == "Entity" and value is not None:
        try:
            kind = str(value.kind)
        except Exception:  # noqa: BLE001 - only the name of a value is at stake
            pass
        else:
            return _term("value.entity_kind", f"a {kind}", kind=kind)
    return _KINDS.get(type_name) or _term("value.kind", f"a {type_name}", kind=type_name)


_T = r"'?([\w.]+)'?"
_T_COMPILED = r"([\w.]+(?:\[[\w., ]*\])?)"  # how a compiled (mypyc) function names a type
#: Python's wording of a failure -> the rule writer's (the type names become kinds).
_REWORDED: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Term]]] = [
    (re.compile(rf"'(.+)' not supported between instances of {_T} and {_T}"),
     lambda m: _term("words.compare", f"cannot compare {kind_of(m[2])} with {kind_of(m[3])} "
                     f"({m[1]})", a=kind_of(m[2]), b=kind_of(m[3]), op=m[1])),
    (re.compile(rf"unsupported operand type\(s\) for (.+?): {_T} and {_T}"),
     lambda m: _term("words.operands", f"cannot apply {m[1]} to {kind_of(m[2])} and "
                     f"{kind_of(m[3])}", op=m[1], a=kind_of(m[2]), b=kind_of(m[3]))),
    (re.compile(rf"bad operand type for unary (.+): {_T}"),
     lambda m: _term("words.operand", f"cannot apply {m[1]} to {kind_of(m[2])}", op=m[1],
                     a=kind_of(m[2]))),
    (re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+'),
     lambda m: _term("words.join", f"cannot join {kind_of(m[2])} to {kind_of(m[1])}",
                     a=kind_of(m[2]), b=kind_of(m[1]))),
    (re.compile(r"can't multiply sequence by non-int of type '(\w+)'"),
     lambda m: _term("words.repeat", "text or a list repeats a whole number of times, not "
                     f"{kind_of(m[1])}", a=kind_of(m[1]))),
    (re.compile(r"'(\w+)' object is not iterable"),
     lambda m: _term("words.not_a_list", f"{kind_of(m[1])} is not a list", a=kind_of(m[1]))),
    (re.compile(r"object of type '(\w+)' has no len\(\)"),
     lambda m: _term("words.no_length", f"{kind_of(m[1])} has no length", a=kind_of(m[1]))),
    (re.compile(r"'(\w+)' object is not subscriptable"),
     lambda m: _term("words.not_indexed", f"{kind_of(m[1])} cannot be indexed with [ ]",
                     a=kind_of(m[1]))),
    (re.compile(r"(\w+) indices must be integers(?: or slices)?, not (\w+)"),
     lambda m: _term("words.index_kind", f"{kind_of(m[1])} is indexed by whole numbers, not "
                     f"{kind_of(m[2])}", a=kind_of(m[1]), b=kind_of(m[2]))),
    (re.compile(r"(\w+) index out of range"),
     lambda m: _term("words.no_item", "there is no item at that position "
                     f"({kind_of(m[1])} is shorter)", a=kind_of(m[1]))),
    (re.compile(r"unhashable type: '(\w+)'"),
     lambda m: _term("words.not_a_key", f"{kind_of(m[1])} cannot be a key", a=kind_of(m[1]))),
    (re.compile(r"slice step cannot be zero"),
     lambda m: Term("words.slice_step", "a slice's step cannot be 0")),
    (re.compile(rf"{_T_COMPILED} object expected; got {_T_COMPILED}"),
     lambda m: _term("words.expected", f"expected {kind_of(m[1])}, got {kind_of(m[2])}",
                     a=kind_of(m[1]), b=kind_of(m[2]))),
    (re.compile(r"'(\w+)' is not a column's name"),
     lambda m: _term("words.cell_name", "a table row's cells are named by text, not by "
                     f"{kind_of(m[1])}", a=kind_of(m[1]))),
    (re.compile(r"cannot unpack non-iterable (\w+) object"),
     lambda m: _term("words.unpack", f"{kind_of(m[1])} cannot be split into the variables "
                     "of `for a, b in ...`", a=kind_of(m[1]))),
    (re.compile(r"too many values to unpack \(expected (\d+)"),
     lambda m: _term("words.too_many", f"more values than the {m[1]} variables of "
                     "`for ... in` take", n=int(m[1]))),
    (re.compile(r"not enough values to unpack \(expected (\d+), got (\d+)\)"),
     lambda m: _term("words.too_few", f"{m[2]} value{'s' if m[2] != '1' else ''} for the "
                     f"{m[1]} variables of `for ... in`", n=int(m[1]), got=int(m[2]))),
]


def plain_words(err: BaseException) -> Term:
    """What went wrong, in the rule writer's words where Python's are known (a term: what
    Python says, where it is not known, has no translation)."""
    if isinstance(err, KeyError):
        if err.args:
            entry = repr(err.args[0])
            return _term("words.no_entry", f"no entry {entry}", entry=entry)
        return Term("words.no_such_entry", "no such entry")
    if isinstance(err, ZeroDivisionError):
        return Term("words.division_by_zero", "division by zero")
    if isinstance(err, OverflowError):
        return Term("words.too_large", "a number too large to compute")
    if isinstance(err, RecursionError):
        return Term("words.too_deep", "it goes too deep (a value that uses itself?)")
    text = str(err)
    for pattern, words in _REWORDED:
        found = pattern.search(text)
        if found:
            return words(found)
    return Term("", text or type(err).__name__)
