"""The ``simpleeval`` evaluator's walker (``STRATAGEM_EVALUATOR=simpleeval``).

It lives apart from :mod:`stratagem.expr.core` because that module is compiled by mypyc
(setup.py), and a compiled module cannot subclass simpleeval's classes.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from simpleeval import (
    AttributeDoesNotExist,
    EvalWithCompoundTypes,
    FeatureNotAvailable,
    NameNotDefined,
)

from stratagem.errors import UnknownMember
from stratagem.expr import compiled
from stratagem.expr.compiled import SAFE_RESULT_TYPES


class WithConstants(Mapping[str, Any]):
    """A scope's names, then the ruleset's constants: what a compiled expression reads (see
    :mod:`stratagem.expr.compiled`), for simpleeval. A name the scope holds itself comes
    first, then a constant, then whatever else the scope answers (an entity's members
    behind an `update` step's names)."""

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
