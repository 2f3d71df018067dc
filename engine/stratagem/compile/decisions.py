"""Compiling the GM's plans (``model.decisions``) from a scenario or ``--decide``: every
answer checked against the options the ruleset lists, every policy checked as the ruleset's
own expressions are (a misspelt name is an error with its file, line and column)."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from stratagem.compile.compiler import Compiler
from stratagem.errors import Location, StratagemError, ValidationFailed, Word, a_or_an
from stratagem.expr import Expr
from stratagem.model.decisions import (
    PLAN_KEYS,
    POLICY_NAMES,
    Answer,
    Entry,
    Plan,
    Policy,
    Prefer,
)
from stratagem.model.ruleset import Ruleset
from stratagem.model.values import closest, where

#: Names a policy may read attributes of, and the kind of entity each one is.
_TYPED = {"side": "side", "enemy": "side", "battle": "battle"}
#: Attributes every entity has besides its declared members.
_ENTITY_ATTRIBUTES = frozenset({"parent", "kind", "battle", "name", "id"})


def compile_decisions(ruleset: Ruleset, given: Mapping[str, Any],
                      errors: list[StratagemError] | None = None) -> dict[str, Entry]:
    """The plans of ``{id: value | {who: value}}``. Every mistake (an unknown decision, a
    malformed plan, a policy naming something it cannot see) is collected in ``errors``;
    without that list, they are raised together."""
    found: list[StratagemError] = []
    checker = _Checker(ruleset, found)
    out: dict[str, Entry] = {}
    for key, value in given.items():
        key = str(key)
        if key not in ruleset.decisions:
            known = ", ".join(sorted(ruleset.decisions))
            found.append(StratagemError(
                f"this ruleset asks no decision '{key}'", location=checker.c.key_where(given, key),
                hint=closest(key, ruleset.decisions) or "decisions: " + known,
                key="plan.unknown_decision", params={"decision": key, "known": known}))
            continue
        if isinstance(value, Mapping) and not _is_plan(value):
            out[key] = {str(who): checker.plans(key, value, who) for who in value}
        else:
            out[key] = checker.plans(key, given, key)
    for err in found:  # a value with no place in a file came from the command line
        if err.location is None:
            err.add_hint("fix the --decide option that gives it", "plan.from_cli_after.hint",
                         "plan.from_cli.hint")
    if errors is not None:
        errors.extend(found)
    elif found:
        raise ValidationFailed(found)
    return out


def _is_plan(node: Mapping[str, Any]) -> bool:
    return "prefer" in node or "policy" in node


class _Checker:
    """Compiles plans, checking their policies as the ruleset's own expressions are."""

    def __init__(self, ruleset: Ruleset, errors: list[StratagemError]) -> None:
        self.rs = ruleset
        self.errors = errors
        self.c = Compiler(ruleset.doc, ruleset.dialect)
        self.c.constants = ruleset.constants
        self.c.tables = ruleset.tables
        self.c.kinds = ruleset.kinds
        self.c.formula_names = {str(k) for k in ruleset.doc.get("formulas") or {}}
        battle = ruleset.kinds["battle"]
        side = ruleset.kinds[next(iter(battle.children.values()))] if battle.children else battle
        #: the kind of entity each typed name is, and the attributes it has
        self.kinds = {name: {"side": side, "battle": battle}[kind] for name, kind in _TYPED.items()}
        self.members = {name: kind.member_names() | _ENTITY_ATTRIBUTES
                        for name, kind in self.kinds.items()}

    def plans(self, decision: str, node: Any, key: Any) -> list[Plan]:
        value = node[key]
        if isinstance(value, list):
            if not value:
                self.fail("an empty list decides nothing", where(node, key),
                          "give at least one value, or remove the entry", key="plan.empty_list")
            return [self.plan(decision, value, i, in_list=True) for i in range(len(value))]
        return [self.plan(decision, node, key)]

    def plan(self, decision: str, node: Any, key: Any, in_list: bool = False) -> Plan:
        value = node[key]
        loc = where(node, key)
        if isinstance(value, list):
            self.fail("a list inside a list", loc,
                      "a list is used one item per ask; to give preferences write "
                      "{prefer: [a, b], else: c}" if in_list else None, key="plan.nested_list")
            return Answer(None, loc)
        if not isinstance(value, Mapping):
            return Answer(self.answer(decision, value, loc), loc)
        for name in value:
            if name not in PLAN_KEYS:
                self.fail(f"a decision's plan has no key '{name}'", self.c.key_where(value, name),
                          closest(name, PLAN_KEYS) or "write {prefer: [a, b], else: c} or "
                          "{policy: EXPR, else: c}", key="plan.unknown_key", name=name)
        otherwise = self.plan(decision, value, "else") if "else" in value else None
        if "prefer" in value and "policy" in value:
            self.fail("a plan is either `prefer:` or `policy:`, not both", loc,
                      "put the policy's answers in order under `prefer:`, or the "
                      "preferences into the policy's expression", key="plan.prefer_and_policy")
        if "policy" in value:
            return Policy(self.policy(value), where(value, "policy"), otherwise)
        if "prefer" not in value:
            self.fail("a map here must say `prefer:` or `policy:`", loc,
                      "e.g. {prefer: [a, b], else: c}", key="plan.no_prefer")
            return Answer(None, loc)
        items = value["prefer"]
        if not isinstance(items, list) or not items:
            self.fail("`prefer:` takes a list of answers, the first that applies is taken",
                      where(value, "prefer"), "e.g. prefer: [Horse archers, Heavy cavalry]",
                      key="plan.prefer_list")
            items = []
        items = [self.answer(decision, item, where(items, i)) for i, item in enumerate(items)]
        return Prefer(items, where(value, "prefer"), otherwise)

    def answer(self, decision: str, value: Any, loc: Location | None) -> Any:
        """An answer, checked against the options the ruleset lists (when it lists them)."""
        if isinstance(value, (Mapping, list)):
            self.fail("an answer is a single value", loc, "e.g. 2, true or a name",
                      key="plan.single_value")
            return None
        step = self.rs.decisions[decision]
        if isinstance(step.options, list) and value not in step.options:
            answers = ", ".join(map(str, step.options))
            self.fail(f"'{value}' is not one of the answers to '{decision}'", loc,
                      closest(value, step.options) or "answers: " + answers,
                      key="plan.not_an_answer", value=value, decision=decision, answers=answers)
        elif step.type == "bool" and not isinstance(value, bool):
            self.fail(f"'{decision}' is answered true or false, not {value!r}", loc, None,
                      key="plan.not_bool", decision=decision, value=repr(value))
        return value

    def policy(self, node: Mapping[str, Any]) -> Expr:
        c = self.c
        start = len(c.errors)
        with c.procedure_scope({*POLICY_NAMES, "battle"}):
            expr = c.expr(node, "policy")
        for err in c.errors[start:]:
            if "is not defined here" in err.message:
                names = ", ".join(POLICY_NAMES)
                err.add_hint(f"a policy reads {names}, battle and the ruleset's constants",
                             "plan.policy_reads_after.hint", "plan.policy_reads.hint",
                             names=names)
        self.errors.extend(c.errors[start:])
        del c.errors[start:]
        bound = {t.id for n in ast.walk(expr.node) if isinstance(n, ast.comprehension)
                 for t in ast.walk(n.target) if isinstance(t, ast.Name)}
        for n in ast.walk(expr.node):
            if (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                    and n.value.id in _TYPED and n.value.id not in bound
                    and n.attr not in self.members[n.value.id]):
                kind = self.kinds[n.value.id].name
                self.fail(f"`{expr.text}`: {a_or_an(kind)} has no field or derived value "
                          f"'{n.attr}'",
                          where(node, "policy"),
                          closest(n.attr, self.members[n.value.id]) or f"see the ruleset's "
                          f"`entities: {kind}:`", key="plan.no_member", expr=expr.text,
                          kind=Word(kind), name=n.attr)
        return expr

    def fail(self, message: str, loc: Location | None, hint: str | None, *, key: str,
             **params: object) -> None:
        self.errors.append(StratagemError(message, location=loc, hint=hint, key=key,
                                          params=params))


__all__ = ["compile_decisions"]
