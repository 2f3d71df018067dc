"""How large a value of the rules may grow, and how much work one battle's expressions do.

Both evaluators (compiled code and the simpleeval reference) call the same bounded
operators and functions (:mod:`stratagem.expr.core`), which check here:

- a number an operator makes has fewer than :data:`MAX_DIGITS` digits (an exact fraction:
  its numerator and denominator), so no power or product grows without end and every
  number can be written out;
- text and lists that ``+`` and ``*`` make hold at most :data:`MAX_LENGTH` items, and a
  value holds at most :data:`MAX_CELLS` items all told (a list repeated inside a list
  counts each time it appears: it is written out so);
- the items comprehensions walk and the items repeated or joined lists hold are counted
  against the :data:`METER` of the battle (``limits.max_work``, reset as each battle
  starts), in coarse units: one count per loop or per list made, never per item.

Where a value is kept (a `set` name, a field, a trace event) :func:`stored` also refuses
what no rule means: NaN, infinities, complex numbers, and numbers of
:data:`MAX_MAGNITUDE` or more.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Final

from stratagem.errors import LimitError

#: Digits of a number an operator may make (Python writes out at most 4,300).
MAX_DIGITS: Final = 1000
_INT_BOUND: Final = 10**MAX_DIGITS
#: The longest text or list `+` and `*` make.
MAX_LENGTH: Final = 100_000
#: Items one value holds, nested lists and text counted in full.
MAX_CELLS: Final = 1_000_000
#: Numbers a battle keeps (a field, a `set` name) stay below this in size.
MAX_MAGNITUDE: Final = 10**18
#: Evaluation work of one battle unless its limits say otherwise (``limits.max_work``).
DEFAULT_WORK: Final = 10_000_000


class ValueTooLarge(LimitError):
    """An operator, a function or a step would make or keep a value past its bound."""


class Meter:
    """The evaluation work the current battle may still do (``limits.max_work``)."""

    __slots__ = ("left", "limit")

    def __init__(self, limit: int = DEFAULT_WORK) -> None:
        self.limit = limit
        self.left = limit

    def reset(self, limit: int) -> None:
        """A battle starts with ``limit`` units of work."""
        self.limit = limit
        self.left = limit

    def charge(self, units: int) -> None:
        left = self.left - units
        self.left = left
        if left < 0:
            self.left = 0
            raise ValueTooLarge(
                f"the expressions of this battle did more than {self.limit:,} units of work "
                "(items walked by comprehensions and held by lists they made)",
                hint="a loop in an expression that walks a huge list? limits.max_work "
                     "raises the bound")


#: The meter of the battle being fought (one battle runs at a time in a process).
METER = Meter()


def check_number(value: Any) -> Any:
    """``value`` if a number an operator made is within :data:`MAX_DIGITS` digits."""
    kind = type(value)
    if kind is int:
        if -_INT_BOUND < value < _INT_BOUND:
            return value
    elif kind is Fraction:
        if -_INT_BOUND < value.numerator < _INT_BOUND and value.denominator < _INT_BOUND:
            return value
    elif kind is complex:
        raise ValueTooLarge("the result is not a real number (a root of a negative number?)",
                            hint="bound the value first, e.g. max(x, 0) ** 0.5")
    else:
        return value
    raise ValueTooLarge(f"the result would have more than {MAX_DIGITS:,} digits",
                        hint="bound the values first, e.g. with min()")


def cells(value: Any, limit: int = MAX_CELLS) -> int:
    """The items ``value`` holds all told, lists within lists and text counted in full (a
    list that appears twice counts twice, as it would be written out)."""
    return _measure(value, False)[0]


def _measure(value: Any, numbers: bool) -> tuple[int, int]:
    """(items all told, levels of nesting) of ``value``, each list walked once however
    often it appears; ``numbers``: also refuse a number a battle may not keep."""
    kind = type(value)
    if kind is str:
        return len(value), 0
    if kind is list or kind is tuple:
        kinds = set(map(type, value))
        if numbers:
            _check_numbers(value, kinds)
        if kinds.isdisjoint(_HOLDERS):  # no text, no list within: counted at once
            return len(value), 1
        if dict not in kinds:
            pairs = _two_levels(value, numbers)
            if pairs is not None:
                return pairs
    elif kind is not dict:
        return 0, 0
    return _walked(value, numbers)


def _two_levels(value: list[Any] | tuple[Any, ...], numbers: bool) -> tuple[int, int] | None:
    """``_measure`` of a list (its own numbers checked) whose lists within hold no list
    (``[('a', 1), ('b', 2)]``, the common kept value that nests): the lists within are
    checked in the order ``_walked`` checks them (the last first, each once), so the first
    refused is the same. None for any other list, after checks ``_walked`` makes too, in
    the same order."""
    total, height = len(value), 1
    memo: dict[int, int] = {}  # each list within walked once, however often it appears
    for item in reversed(value):
        kind = type(item)
        if kind is str:
            total += len(item)
        elif kind is list or kind is tuple:
            height = 2
            held = memo.get(id(item))
            if held is None and len(item) <= _SHORT:
                # a short one (a pair, `('morale', 2)`) in one loop: its numbers checked in
                # order, its text counted; one that holds a list is left to `_walked`,
                # which checks its numbers in the same order, all of them first
                held = len(item)
                for v in item:
                    part = type(v)
                    if part is str:
                        held += len(v)
                    elif part is int:
                        if numbers and not -MAX_MAGNITUDE < v < MAX_MAGNITUDE:
                            raise _refused(v)
                    elif part in _CONTAINERS:
                        return None
                    elif numbers and part in _NUMBERS and _number_kept(v, part):
                        raise _refused(v)
                memo[id(item)] = held
            elif held is None:
                kinds = set(map(type, item))
                if numbers:
                    _check_numbers(item, kinds)
                if not kinds.isdisjoint(_CONTAINERS):
                    return None
                held = len(item)
                if str in kinds:
                    for v in item:
                        if type(v) is str:
                            held += len(v)
                memo[id(item)] = held
            total += held
    return total, height


def _walked(value: Any, numbers: bool) -> tuple[int, int]:
    """``_measure`` of any list or map, walked with a stack (never deeper than Python's)."""
    memo: dict[int, tuple[int, int]] = {}
    todo: list[tuple[Any, bool]] = [(value, False)]
    while todo:
        item, ready = todo.pop()
        key = id(item)
        if key in memo:
            continue
        items = (*item, *item.values()) if type(item) is dict else item
        if not ready:
            kinds = set(map(type, items))
            if numbers:
                _check_numbers(items, kinds)
            if kinds.isdisjoint(_HOLDERS):  # no text, no list within (a list of entities,
                memo[key] = (len(item), 1)  # of numbers): counted at once
                continue
            todo.append((item, True))
            if not kinds.isdisjoint(_CONTAINERS):
                todo.extend((v, False) for v in items
                            if type(v) in _CONTAINERS and id(v) not in memo)
            continue
        total, height = len(item), 1
        for v in items:
            kind = type(v)
            if kind is str:
                total += len(v)
            elif kind in _CONTAINERS:
                sub = memo[id(v)]
                total += sub[0]
                height = max(height, sub[1] + 1)
        memo[key] = (total, height)
    return memo[id(value)]


def _check_numbers(items: Any, kinds: set[type]) -> None:
    """Refuse a number among ``items`` (of the types ``kinds``) a battle may not keep."""
    if kinds.isdisjoint(_NUMBERS):  # the common lists (of entities, of whole numbers) are
        return                      # answered by C loops
    if len(kinds) == 1 and int in kinds and -MAX_MAGNITUDE < min(items) and (
            max(items) < MAX_MAGNITUDE):
        return
    for v in items:
        kind = type(v)
        if kind is int:
            if not -MAX_MAGNITUDE < v < MAX_MAGNITUDE:
                raise _refused(v)
        elif kind in _NUMBERS and _number_kept(v, kind):
            raise _refused(v)


_CONTAINERS: Final = frozenset({list, tuple, dict})
#: The lists within a list that `_two_levels` walks in one loop of Python; a longer one's
#: types are gathered first by C loops (`set(map(type, ...))`, `min`, `max`).
_SHORT: Final = 8
_NUMBERS: Final = frozenset({int, float, Fraction, complex})
_HOLDERS: Final = frozenset({list, tuple, dict, str})
#: Lists within lists a kept value may nest (it is written out, and read back, so deep).
MAX_NESTING: Final = 50


def check_cells(value: Any) -> Any:
    """``value`` if it holds at most :data:`MAX_CELLS` items all told."""
    if cells(value) > MAX_CELLS:
        raise ValueTooLarge(f"the value would hold more than {MAX_CELLS:,} items (lists "
                            "within lists counted in full)",
                            hint="keep lists short: count or sum them instead")
    return value


#: Values :func:`stored` passes at once.
_PLAIN: Final = frozenset({bool, str, type(None)})


def stored(value: Any) -> Any:
    """``value``, if a battle may keep it: a real, finite number below
    :data:`MAX_MAGNITUDE`; text, lists and maps within :data:`MAX_CELLS` items and
    :data:`MAX_NESTING` levels whose numbers are such numbers. Anything else (an entity,
    a table row) is the engine's own, kept as it is."""
    kind = type(value)
    if kind is int:
        if -MAX_MAGNITUDE < value < MAX_MAGNITUDE:
            return value
    elif kind in _PLAIN:
        return value
    elif kind is list or kind is tuple or kind is dict:
        if value:  # an empty one holds nothing to check (the most frequent list kept)
            _walk(value)
        return value
    elif not _number_kept(value, kind):
        return value
    raise _refused(value)


def _number_kept(value: Any, kind: type) -> bool:
    """Whether ``value`` is a number (False: not one); raises nothing, a number a battle
    may not keep returns True only to be refused (see :func:`stored`)."""
    if kind is Fraction:  # -M < n/d < M, compared as whole numbers (d > 0): no Fraction made
        n, d = value.numerator, value.denominator
        return not (-MAX_MAGNITUDE * d < n < MAX_MAGNITUDE * d and d < _INT_BOUND)
    if kind is float:
        return not (-MAX_MAGNITUDE < value < MAX_MAGNITUDE)  # False for NaN too: refused
    return kind is complex or kind is int


def _walk(value: Any) -> None:
    """Check every number inside a list or map, its items all told and its depth."""
    total, height = _measure(value, True)
    if height > MAX_NESTING:
        raise ValueTooLarge(f"the value nests lists more than {MAX_NESTING} deep",
                            hint="keep lists flat")
    if total > MAX_CELLS:
        check_cells(value)


def _refused(value: Any) -> ValueTooLarge:
    if isinstance(value, complex):
        return ValueTooLarge("the value is not a real number (a root of a negative number?)",
                             hint="bound it first, e.g. max(x, 0) ** 0.5")
    if isinstance(value, float) and math.isnan(value):
        return ValueTooLarge("the value is not a number (NaN: infinity minus infinity, or "
                             "0 times infinity)", hint="bound the values first, e.g. with min()")
    if isinstance(value, Fraction) and -MAX_MAGNITUDE < value < MAX_MAGNITUDE:
        return ValueTooLarge(f"the fraction has more than {MAX_DIGITS:,} digits",
                             hint="round it, e.g. round_down(x * 1000) / 1000")
    return _too_big(value)


def _too_big(value: Any) -> ValueTooLarge:
    return ValueTooLarge(f"{describe_number(value)} is too large to keep (the bound is 10^18)",
                         hint="bound the value, e.g. min(x, 1000000)")


def describe_number(value: Any) -> str:
    """A number as a message shows it: whole and short, or its size in digits."""
    if isinstance(value, bool):  # before int: a compiled build would show True as 1
        return str(value)
    if isinstance(value, float):
        return "infinity" if math.isinf(value) and value > 0 else (
            "minus infinity" if math.isinf(value) else f"{value:g}")
    if isinstance(value, Fraction):
        if value.denominator != 1 and -(10**15) < value < 10**15:
            return f"{float(value):g}"
        value = value.numerator // value.denominator
    if isinstance(value, int):
        if -(10**15) < value < 10**15:
            return str(value)
        digits = int(abs(value).bit_length() * 0.30103) + 1
        return f"{'minus ' if value < 0 else ''}a number of about {digits:,} digits"
    return repr(value)[:60]
