"""Plural rules as data: a locale's ``plural:`` expression, compiled once.

A locale file says how its language chooses a plural form with one
expression, evaluated safely with simpleeval::

    plural: "'one' if n == 1 else 'other'"

It returns a CLDR category name (``zero one two few many other``). These
names are bound, following CLDR's plural operands for the number *as shown*
(after rounding to the locale's ``fraction_digits``):

``n``
    the absolute value (an ``int`` when it shows no fraction digits, else a float);
``i``
    its integer part;
``v``
    how many fraction digits it shows (0 for a whole number);
``f``
    those fraction digits as an integer (1.25 → 25, 1.5 → 5).

Without a ``plural:`` key the rule is ``'one' if n == 1 else 'other'``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from fractions import Fraction

from simpleeval import InvalidExpression, SimpleEval

from stratagem.errors import Location, StratagemError

#: The category names CLDR uses; a rule may return only these.
CATEGORIES = ("zero", "one", "two", "few", "many", "other")

#: The names a rule may use.
OPERANDS = ("n", "i", "v", "f")

#: The rule of a locale that writes no ``plural:`` key.
DEFAULT_RULE = "'one' if n == 1 else 'other'"

#: Longest rule accepted (the same bound as any expression in a rule file).
MAX_RULE_LENGTH = 2000

#: Numbers a rule is tried on when it loads: every category it can produce shows up here.
SAMPLE_NUMBERS: tuple[int | Fraction, ...] = (
    *range(201),
    *(Fraction(k, 10) for k in (1, 5, 15, 25, 105, 215)),
    Fraction(125, 100),
    Fraction(1001, 100),
)

#: Operand tuples cached per shown number; bounded so a long run cannot grow it without end.
_CACHE_LIMIT = 4096

_FUNCTIONS = {"abs": abs, "int": int}


def operands(shown: str) -> tuple[int | float, int, int, int]:
    """CLDR operands ``(n, i, v, f)`` of a number as shown with ``.`` as decimal point.

    ``shown`` is plain ASCII (``-12.50``); the sign is ignored, as CLDR does.
    """
    digits = shown.lstrip("-")
    whole, _, frac = digits.partition(".")
    i = int(whole or "0")
    if not frac:
        return i, i, 0, 0
    return float(digits), i, len(frac), int(frac)


class PluralRule:
    """A compiled ``plural:`` expression: ``rule.category("21")`` → ``'one'``."""

    __slots__ = ("_cache", "_eval", "_node", "categories", "location", "source")

    def __init__(self, source: str = DEFAULT_RULE, location: Location | None = None) -> None:
        """Compile ``source`` and try it on :data:`SAMPLE_NUMBERS`.

        Raises :class:`StratagemError` (at ``location``) when the expression does
        not parse, uses a name other than ``n i v f`` or returns something other
        than a category name.
        """
        self.source = source
        self.location = location
        self._node = _compile(source, location)
        self._eval = SimpleEval(functions=dict(_FUNCTIONS), names={})
        self._cache: dict[str, str] = {}
        #: Every category the rule produced on the sample numbers, in CLDR order.
        self.categories: tuple[str, ...] = self._probe()

    def category(self, shown: str) -> str:
        """The category of a number shown as ``shown`` (``"21"``, ``"1.5"``).

        Never raises: a rule that fails at run time on an unusual number gives
        ``'other'`` (the rule was tried on many numbers when it loaded).
        """
        cached = self._cache.get(shown)
        if cached is not None:
            return cached
        try:
            result = self._run(shown)
        except (InvalidExpression, ArithmeticError, TypeError, ValueError):
            result = "other"
        if result not in CATEGORIES:
            result = "other"
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[shown] = result
        return result

    def _run(self, shown: str) -> object:
        n, i, v, f = operands(shown)
        self._eval.names = {"n": n, "i": i, "v": v, "f": f}
        return self._eval.eval(self.source, previously_parsed=self._node)

    def _probe(self) -> tuple[str, ...]:
        seen: set[str] = set()
        for number in SAMPLE_NUMBERS:
            shown = _plain(number)
            try:
                result = self._run(shown)
            except (InvalidExpression, ArithmeticError, TypeError, ValueError) as err:
                raise _error(
                    f"the plural rule fails for n = {shown}: {err}", self.location
                ) from None
            if result not in CATEGORIES:
                raise _error(
                    f"the plural rule returns {result!r} for n = {shown}; "
                    f"it must return one of {', '.join(CATEGORIES)}",
                    self.location,
                )
            seen.add(str(result))
        return tuple(c for c in CATEGORIES if c in seen)

    def __repr__(self) -> str:
        return f"PluralRule({self.source!r})"


def _plain(number: int | Fraction) -> str:
    if isinstance(number, int):
        return str(number)
    return f"{float(number):.2f}".rstrip("0").rstrip(".")


def _error(message: str, location: Location | None) -> StratagemError:
    return StratagemError(
        message,
        location=location,
        hint="write a Python-like expression over n, i, v, f that returns 'one', 'few', "
        "'many', 'other'...; see docs/translating.md",
    )


def _compile(source: str, location: Location | None) -> ast.AST:
    if not isinstance(source, str) or not source.strip():
        raise _error("the plural rule must be a non-empty text", location)
    if len(source) > MAX_RULE_LENGTH:
        raise _error(
            f"the plural rule is {len(source)} characters long; the limit is {MAX_RULE_LENGTH}",
            location,
        )
    try:
        tree = ast.parse(source.strip())
    except SyntaxError as err:
        raise _error(f"the plural rule is not a valid expression: {err.msg}", location) from None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        raise _error("the plural rule must be one expression", location)
    node = tree.body[0]
    _check_names(ast.walk(node), location)
    return node


def _check_names(nodes: Iterable[ast.AST], location: Location | None) -> None:
    for sub in nodes:
        if isinstance(sub, ast.Name) and sub.id not in OPERANDS and sub.id not in _FUNCTIONS:
            if sub.id in ("True", "False", "None"):
                continue
            raise _error(
                f"unknown name {sub.id!r} in the plural rule; it may use {', '.join(OPERANDS)}",
                location,
            )
        if isinstance(sub, ast.Attribute):
            raise _error("the plural rule may not use attributes ('.')", location)
