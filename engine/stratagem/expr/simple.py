"""The ``simpleeval`` evaluator's walker (``STRATAGEM_EVALUATOR=simpleeval``).

It lives apart from :mod:`stratagem.expr.core` because that module is compiled by mypyc
(setup.py), and a compiled module cannot subclass simpleeval's classes.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from simpleeval import (
    DISALLOW_FUNCTIONS,
    AttributeDoesNotExist,
    EvalWithCompoundTypes,
    FeatureNotAvailable,
    FunctionNotDefined,
    NameNotDefined,
)

from stratagem.errors import UnknownMember
from stratagem.expr import compiled
from stratagem.expr.calls import checked_call
from stratagem.expr.compiled import SAFE_RESULT_TYPES


class WithConstants(Mapping[str, Any]):
    """A scope's names, then the ruleset's constants: what a compiled expression reads (see
    :mod:`stratagem.expr.compiled`), for simpleeval. A name the scope holds itself comes
    first, then a constant, then whatever else the scope answers (an entity's members
    behind an `update` step's names). (Also a comprehension's variables, then the names
    around it.)"""

    def __init__(self, scope: Mapping[str, Any], constants: Mapping[str, Any]) -> None:
        self.scope = scope
        self.constants = constants

    def __getitem__(self, name: str) -> Any:
        if name in self.scope or name not in self.constants:
            return self.scope[name]
        return self.constants[name]

    def __contains__(self, name: object) -> bool:
        return name in self.scope or name in self.constants

    def __iter__(self) -> Iterator[str]:
        return iter({**self.constants, **dict(self.scope)})

    def __len__(self) -> int:
        return len(set(self.constants) | set(self.scope))


class RuleEval(EvalWithCompoundTypes):
    """simpleeval, skipping its result check for values that cannot hide a function.

    Lists, dicts, functions and anything unknown are still checked.
    """

    def _eval(self, node: ast.AST) -> Any:
        try:
            handler = self.nodes[type(node)]
        except KeyError:
            raise FeatureNotAvailable(
                f"Sorry, {type(node).__name__} is not available in this evaluator") from None
        result = handler(node)
        if type(result) not in SAFE_RESULT_TYPES:
            self._check_disallowed_items(result)
        return result

    names: Mapping[str, Any]
    _budget: list[int]

    #: how to read ``owner.name`` (the evaluator's reader, the same as compiled code's)
    attribute: Callable[[Any, str], Any] = staticmethod(compiled.read_attribute)

    def _eval_attribute(self, node: ast.Attribute) -> Any:
        # compile_expr already refused names starting with '_' and every method call; the
        # reader refuses methods (even one handed to max(key=...) could change the state).
        owner = self._eval(node.value)
        try:
            return self.attribute(owner, node.attr)
        except UnknownMember:
            raise
        except AttributeError:
            raise AttributeDoesNotExist(node.attr, self.expr) from None

    def _eval_call(self, node: ast.Call) -> Any:
        # compile_expr refused every callee but a name; a failed call is explained as the
        # compiled evaluator explains it (checked_call)
        name = node.func.id  # type: ignore[attr-defined]
        try:
            func = self.functions[name]
        except KeyError:
            raise FunctionNotDefined(name, self.expr) from None
        if func in DISALLOW_FUNCTIONS:
            raise FeatureNotAvailable("This function is forbidden")
        args = [self._eval(a) for a in node.args]
        kwargs = {str(k.arg): self._eval(k.value) for k in node.keywords}  # no `**` (load)
        return checked_call(name, node.lineno, node.col_offset, func, *args, **kwargs)

    def eval(self, expr: str, previously_parsed: Any = None) -> Any:
        self._budget = [0]  # the items all comprehensions of this evaluation may walk
        return super().eval(expr, previously_parsed)

    def _eval_comprehension(self, node: Any) -> Any:
        # As compiled code runs one (stratagem.expr.compiled): the items of each loop are
        # counted against one budget per evaluation, and `for a, b in ...` unpacks as
        # Python does (never a value too many or too few).
        generators = node.generators
        result: Any = {} if isinstance(node, ast.DictComp) else []
        outer = self.names
        bound: dict[str, Any] = {}
        self.names = WithConstants(bound, outer)  # the first items are read before any is bound

        def loop(i: int) -> None:
            gen = generators[i]
            for value in compiled.budgeted(self._eval(gen.iter), self._budget):
                _bind(gen.target, value, bound)
                if all(self._eval(cond) for cond in gen.ifs):
                    if i + 1 < len(generators):
                        loop(i + 1)
                    elif isinstance(result, dict):
                        result[self._eval(node.key)] = self._eval(node.value)
                    else:
                        result.append(self._eval(node.elt))

        try:
            loop(0)
        finally:
            self.names = outer
        return result

    def _eval_subscript(self, node: ast.Subscript) -> Any:
        return compiled.item(self._eval(node.value), self._eval(node.slice))

    def _eval_name(self, node: ast.Name) -> Any:
        # Only the scope's names: a function is called, never handed out as a value.
        try:
            return self.names[node.id]
        except KeyError:
            raise NameNotDefined(node.id, self.expr) from None

    def _check_disallowed_items(self, item: Any) -> None:
        kind = type(item)
        if kind in SAFE_RESULT_TYPES:
            return
        if kind in (list, tuple):
            for element in item:
                if type(element) not in SAFE_RESULT_TYPES:
                    super()._check_disallowed_items(element)
            return
        super()._check_disallowed_items(item)


def _bind(target: ast.AST, value: Any, names: dict[str, Any]) -> None:
    """Bind a comprehension's variables (a name, or names in brackets) as Python does."""
    if isinstance(target, ast.Name):
        names[target.id] = value
        return
    targets = target.elts  # type: ignore[attr-defined]  # compile_expr allowed no other
    try:
        values = list(value)
    except TypeError:
        raise TypeError(f"cannot unpack non-iterable {type(value).__name__} object") from None
    if len(values) > len(targets):
        raise ValueError(f"too many values to unpack (expected {len(targets)})")
    if len(values) < len(targets):
        raise ValueError(f"not enough values to unpack (expected {len(targets)}, "
                         f"got {len(values)})")
    for part, item in zip(targets, values):
        _bind(part, item, names)
