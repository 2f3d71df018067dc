"""The GM's plans for the decisions of a battle: an answer, preferences or a policy.

A scenario's ``decisions:`` (and ``--decide``) give each decision, for anyone or by the
name of its subject, one of:

- an *answer*: ``-2``, ``Horse archers``, ``true``;
- a *list*, used one item per ask (the last item repeats), each item one of these three;
- *preferences*: ``{prefer: [Horse archers, Heavy cavalry company], else: random}`` — the
  first that applies at the moment of asking;
- a *policy*: ``{policy: "-2 if side.ts > enemy.ts else -4", else: -4}`` — an expression
  over what the step can see (:data:`POLICY_NAMES`, ``battle`` and the constants), checked
  at load like every expression of a ruleset (``compile.decisions``). It draws no dice:
  expressions cannot.

An answer that cannot apply when it is asked falls back on the plan's ``else:``; what
happens without one is ``interp.decisions``'s to say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from stratagem.errors import Location
from stratagem.expr import Expr

if TYPE_CHECKING:
    from stratagem.interp.decisions import Asking

#: The names a policy reads besides ``battle`` and the constants.
POLICY_NAMES = ("options", "subject", "side", "enemy", "enemies", "default")
#: The keys of a plan written as a map.
PLAN_KEYS = ("prefer", "policy", "else")

#: Why an answer cannot apply: a message key and its parameters (hashable, so that
#: ``odds`` can count battles by it, and plain, so that it crosses between processes).
Reason = tuple[str, tuple[tuple[str, Any], ...]]


def reason(key: str, **params: Any) -> Reason:
    return f"decision.reason.{key}", tuple(
        (name, value if isinstance(value, (str, int, float, bool)) or value is None
         else str(value)) for name, value in params.items())


class NotApplicable(Exception):
    """A plan's answer does not apply at the moment of asking."""

    def __init__(self, why: Reason) -> None:
        super().__init__(why[0])
        self.reason = why


class Plan:
    """One way to answer a decision, with what to do when it cannot apply (``else:``)."""

    #: what the trace says the value came from
    source = "scenario"

    def __init__(self, location: Location | None, otherwise: Plan | None = None) -> None:
        self.location = location
        self.otherwise = otherwise

    def value(self, asking: Asking) -> Any:
        """The plan's own answer, or :class:`NotApplicable`."""
        raise NotImplementedError

    def choose(self, asking: Asking) -> tuple[Any, Reason | None]:
        """The answer, and why the fallback (``else:``) was taken instead, if it was."""
        try:
            return self.value(asking), None
        except NotApplicable as why:
            if self.otherwise is None:
                raise
            return self.otherwise.choose(asking)[0], why.reason

    def example(self) -> Any:
        """An answer to quote in a hint."""
        return None


class Answer(Plan):
    def __init__(self, value: Any, location: Location | None) -> None:
        super().__init__(location)
        self.answer = value

    def value(self, asking: Asking) -> Any:
        why = asking.problem(self.answer)
        if why is not None:
            raise NotApplicable(why)
        return self.answer

    def example(self) -> Any:
        return self.answer


class Prefer(Plan):
    source = "preference"

    def __init__(self, items: list[Any], location: Location | None,
                 otherwise: Plan | None) -> None:
        super().__init__(location, otherwise)
        self.items = items

    def value(self, asking: Asking) -> Any:
        first: Reason | None = None
        for item in self.items:
            why = asking.problem(item)
            if why is None:
                return item
            first = first or why
        if len(self.items) == 1 and first is not None:
            raise NotApplicable(first)
        raise NotApplicable(reason("none_applies", values=", ".join(map(str, self.items))))

    def example(self) -> Any:
        return self.items[0] if self.items else None


class Policy(Plan):
    source = "policy"

    def __init__(self, expr: Expr, location: Location | None, otherwise: Plan | None) -> None:
        super().__init__(location, otherwise)
        self.expr = expr

    def value(self, asking: Asking) -> Any:
        answer = asking.evaluate(self.expr)
        if answer is None:
            raise NotApplicable(reason("policy_none"))
        why = asking.problem(answer)
        if why is not None:
            raise NotApplicable(why)
        return answer


#: A decision's entry: the plans for anyone (one per ask), or by subject name.
Entry = list[Plan] | dict[str, list[Plan]]


def merge_decisions(base: Mapping[str, Entry], extra: Mapping[str, Entry]) -> dict[str, Entry]:
    """``base`` with ``extra`` over it (subject by subject where both go by subject)."""
    merged = dict(base)
    for key, value in extra.items():
        old = merged.get(key)
        if isinstance(value, dict) and isinstance(old, dict):
            merged[key] = {**old, **value}
        else:
            merged[key] = value
    return merged


__all__ = ["PLAN_KEYS", "POLICY_NAMES", "Answer", "Entry", "NotApplicable", "Plan", "Policy",
           "Prefer", "Reason", "merge_decisions", "reason"]
