"""The GM's decisions: answers, preferences and policies, and the fallbacks they use.

A scenario's ``decisions:`` (and ``--decide``) give each decision, for anyone or by the
name of its subject, one of:

- an *answer*: ``-2``, ``Horse archers``, ``true``;
- a *list*, used one item per ask (the last item repeats), each item one of these three;
- *preferences*: ``{prefer: [Horse archers, Heavy cavalry company], else: random}`` — the
  first that applies at the moment of asking;
- a *policy*: ``{policy: "-2 if side.ts > enemy.ts else -4", else: -4}`` — an expression
  over what the step can see (:data:`POLICY_NAMES`, ``battle`` and the constants), checked
  at load like every expression of a ruleset. It draws no dice: expressions cannot.

An answer that cannot apply when it is asked (a unit that has left the field, a number
outside the range) falls back on the plan's ``else:``. Without one, ``stratagem battle``
stops with the decision, its subject, the seed, the moment and the options, and
``stratagem odds`` uses the step's ``default`` and counts it (see :class:`Decisions`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from stratagem.errors import LimitError, Location, StratagemError, ValidationFailed
from stratagem.expr import Expr
from stratagem.model.entities import Entity
from stratagem.model.values import closest, where

if TYPE_CHECKING:
    from stratagem.interp.context import Run
    from stratagem.interp.steps import DecideStep
    from stratagem.model.ruleset import Ruleset

#: The names a policy reads besides ``battle`` and the constants.
POLICY_NAMES = ("options", "subject", "side", "enemy", "enemies", "default")
#: The keys of a plan written as a map.
PLAN_KEYS = ("prefer", "policy", "else")
#: Names a policy may read attributes of, and the kind of entity each one is.
_TYPED = {"side": "side", "enemy": "side", "battle": "battle"}
#: Attributes every entity has besides its declared members.
_ENTITY_ATTRIBUTES = frozenset({"parent", "kind", "battle", "name", "id"})
#: The longest range a policy may read as `options`.
MAX_OPTIONS = 10_000

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


# -- compiling what a scenario (or --decide) says ----------------------------------------
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
            found.append(StratagemError(
                f"this ruleset asks no decision '{key}'", location=checker.c.key_where(given, key),
                hint=closest(key, ruleset.decisions) or "decisions: " + ", ".join(
                    sorted(ruleset.decisions))))
            continue
        if isinstance(value, Mapping) and not _is_plan(value):
            out[key] = {str(who): checker.plans(key, value, who) for who in value}
        else:
            out[key] = checker.plans(key, given, key)
    if errors is not None:
        errors.extend(found)
    elif found:
        raise ValidationFailed(found)
    return out


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


def _is_plan(node: Mapping[str, Any]) -> bool:
    return "prefer" in node or "policy" in node


class _Checker:
    """Compiles plans, checking their policies as the ruleset's own expressions are."""

    def __init__(self, ruleset: Ruleset, errors: list[StratagemError]) -> None:
        from stratagem.model.compiler import Compiler

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
                          "give at least one value, or remove the entry")
            return [self.plan(decision, value, i, in_list=True) for i in range(len(value))]
        return [self.plan(decision, node, key)]

    def plan(self, decision: str, node: Any, key: Any, in_list: bool = False) -> Plan:
        value = node[key]
        loc = where(node, key)
        if isinstance(value, list):
            self.fail("a list inside a list", loc,
                      "a list is used one item per ask; to give preferences write "
                      "{prefer: [a, b], else: c}" if in_list else None)
            return Answer(None, loc)
        if not isinstance(value, Mapping):
            return Answer(self.answer(decision, value, loc), loc)
        for name in value:
            if name not in PLAN_KEYS:
                self.fail(f"a decision's plan has no key '{name}'", self.c.key_where(value, name),
                          closest(name, PLAN_KEYS) or "write {prefer: [a, b], else: c} or "
                          "{policy: EXPR, else: c}")
        otherwise = self.plan(decision, value, "else") if "else" in value else None
        if "prefer" in value and "policy" in value:
            self.fail("a plan is either `prefer:` or `policy:`, not both", loc,
                      "put the policy's answers in order under `prefer:`, or the "
                      "preferences into the policy's expression")
        if "policy" in value:
            return Policy(self.policy(value), where(value, "policy"), otherwise)
        if "prefer" not in value:
            self.fail("a map here must say `prefer:` or `policy:`", loc,
                      "e.g. {prefer: [a, b], else: c}")
            return Answer(None, loc)
        items = value["prefer"]
        if not isinstance(items, list) or not items:
            self.fail("`prefer:` takes a list of answers, the first that applies is taken",
                      where(value, "prefer"), "e.g. prefer: [Horse archers, Heavy cavalry]")
            items = []
        items = [self.answer(decision, item, where(items, i)) for i, item in enumerate(items)]
        return Prefer(items, where(value, "prefer"), otherwise)

    def answer(self, decision: str, value: Any, loc: Location | None) -> Any:
        """An answer, checked against the options the ruleset lists (when it lists them)."""
        if isinstance(value, (Mapping, list)):
            self.fail("an answer is a single value", loc, "e.g. 2, true or a name")
            return None
        step = self.rs.decisions[decision]
        if isinstance(step.options, list) and value not in step.options:
            self.fail(f"'{value}' is not one of the answers to '{decision}'", loc,
                      closest(value, step.options)
                      or "answers: " + ", ".join(map(str, step.options)))
        elif step.type == "bool" and not isinstance(value, bool):
            self.fail(f"'{decision}' is answered true or false, not {value!r}", loc)
        return value

    def policy(self, node: Mapping[str, Any]) -> Expr:
        c = self.c
        start = len(c.errors)
        with c.procedure_scope({*POLICY_NAMES, "battle"}):
            expr = c.expr(node, "policy")
        for err in c.errors[start:]:
            if "is not defined here" in err.message:
                err.hint = f"{err.hint} (a policy reads {', '.join(POLICY_NAMES)}, battle " \
                           "and the ruleset's constants)"
        self.errors.extend(c.errors[start:])
        del c.errors[start:]
        bound = {t.id for n in ast.walk(expr.node) if isinstance(n, ast.comprehension)
                 for t in ast.walk(n.target) if isinstance(t, ast.Name)}
        for n in ast.walk(expr.node):
            if (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                    and n.value.id in _TYPED and n.value.id not in bound
                    and n.attr not in self.members[n.value.id]):
                kind = self.kinds[n.value.id].name
                self.fail(f"`{expr.text}`: a {kind} has no field or derived value '{n.attr}'",
                          where(node, "policy"),
                          closest(n.attr, self.members[n.value.id]) or f"see the ruleset's "
                          f"`entities: {kind}:`")
        return expr

    def fail(self, message: str, loc: Location | None, hint: str | None = None) -> None:
        self.errors.append(StratagemError(message, location=loc, hint=hint))


# -- asking -------------------------------------------------------------------------------
class Decisions:
    """The decisions of one battle: the scenario's plans (``{id: Entry}``, see
    :func:`compile_decisions`), a prompt (``ask``), and what was decided.

    ``rule_defaults``: when an answer cannot apply and its plan has no ``else:``, take the
    step's ``default`` and note it in :attr:`fallbacks` (``odds``), rather than stopping.
    """

    def __init__(self, given: Mapping[str, Entry] | None = None,
                 ask: Callable[[str, str, Any], Any] | None = None, *,
                 seed: int | None = None, rule_defaults: bool = False) -> None:
        self.given = dict(given or {})
        self.ask = ask
        self.seed = seed
        self.rule_defaults = rule_defaults
        self._used: dict[tuple[str, str], int] = {}
        #: The decisions made at a prompt or by a plan other than a plain answer, as
        #: {id: {who: [values...]}}: with the scenario's own, replaying them gives the same
        #: battle (whatever `--decide` said).
        self.taken: dict[str, dict[str, list[Any]]] = {}
        #: (decision, who, why) of every fallback taken
        self.fallbacks: set[tuple[str, str, Reason]] = set()

    def record(self, decision: str, who: str, value: Any) -> None:
        self.taken.setdefault(decision, {}).setdefault(who or "*", []).append(value)

    def find(self, decision: str, who: str) -> Plan | None:
        """The plan for this ask (a list gives its items in turn; ``*`` is anyone)."""
        entry = self.given.get(decision)
        if isinstance(entry, dict):
            entry = entry.get(who, entry.get("*"))
        if not entry:
            return None
        n = self._used.get((decision, who), 0)
        self._used[(decision, who)] = n + 1
        return entry[min(n, len(entry) - 1)]


class Asking:
    """One ask of a decision: what the step can see, and whether an answer applies."""

    def __init__(self, step: DecideStep, run: Run, scope: dict[str, Any], subject: Any,
                 who: str) -> None:
        self.step = step
        self.run = run
        self.scope = scope
        self.subject = subject
        self.who = who
        self._range: tuple[Any, Any] | None = None

    def range(self) -> tuple[Any, Any] | None:
        if self.step.range is None:
            return None
        if self._range is None:
            ev = self.run.evaluator
            self._range = (ev.eval(self.step.range[0], self.scope),
                           ev.eval(self.step.range[1], self.scope))
        return self._range

    def choices(self) -> list[Any] | None:
        return self.step.choices(self.run, self.scope)

    def problem(self, value: Any) -> Reason | None:
        """Why ``value`` cannot be the answer now (None: it can)."""
        bounds = self.range()
        if bounds is not None:
            lo, hi = bounds
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                return reason("out_of_range", value=value, lo=lo, hi=hi)
        choices = self.choices()
        if choices is not None and value not in choices:
            return reason("not_option", value=value)
        if self.step.type == "bool" and not isinstance(value, bool):
            return reason("not_bool", value=value)
        return None

    def options(self) -> list[Any] | None:
        """The answers that apply now, as a policy reads them."""
        bounds = self.range()
        if bounds is not None:
            lo, hi = int(bounds[0]), int(bounds[1])
            if hi - lo >= MAX_OPTIONS:
                raise LimitError(f"decision '{self.step.id}': a range of {hi - lo + 1} answers "
                                 "is too long to read as `options`", location=self.step.location)
            return list(range(lo, hi + 1))
        if self.step.type == "bool":
            return [True, False]
        return self.choices()

    def default(self) -> Any:
        step = self.step
        return self.run.evaluator.eval(step.default, self.scope) if step.default is not None \
            else None

    def evaluate(self, expr: Expr) -> Any:
        names = expr.names
        side = _side_of(self.subject, self.run.root)
        sides = _sides(self.run.root)
        enemies = [s for s in sides if s is not side] if side is not None else []
        scope = {
            "battle": self.run.root, "subject": self.subject, "side": side,
            "enemies": enemies, "enemy": enemies[0] if len(enemies) == 1 else None,
            "options": self.options() if "options" in names else None,
            "default": self.default() if "default" in names else None,
        }
        return self.run.evaluator.eval(expr, scope)


def _sides(root: Entity) -> list[Entity]:
    declaration = root.declaration
    return list(root.member(next(iter(declaration.children)))) if declaration.children else []


def _side_of(subject: Any, root: Entity) -> Entity | None:
    """The side a subject belongs to (itself, if it is one)."""
    sides = _sides(root)
    node = subject if isinstance(subject, Entity) else None
    while node is not None:
        if any(node is s for s in sides):
            return node
        node = node.parent
    return None


def decide(step: DecideStep, run: Run, scope: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Answer one ask of a `decide` step: the value, and what the trace records of it (when
    the battle is traced)."""
    subject = run.evaluator.eval(step.subject, scope) if step.subject is not None else None
    who = subject.label() if isinstance(subject, Entity) else (
        str(subject) if subject is not None else "")
    asking = Asking(step, run, scope, subject, who)
    decisions = run.decisions
    plan = decisions.find(step.id, who)
    why: Reason | None = None
    if plan is not None:
        try:
            value, why = plan.choose(asking)
            source = "else" if why is not None else plan.source
        except NotApplicable as stuck:
            why = stuck.reason
            if not decisions.rule_defaults or step.default is None:
                raise cannot_apply(asking, plan, why) from None
            value, source = asking.default(), "default"
            _check(asking, value, "default")
        if why is not None:
            decisions.fallbacks.add((step.id, who, why))
    elif decisions.ask is not None:
        bounds = asking.range()
        value = decisions.ask(step.id, who, {
            "default": asking.default(), "choices": asking.choices(),
            "range": list(bounds) if bounds is not None else None})
        source = "prompt"
        _check(asking, value, source)
    elif step.default is None:
        raise StratagemError(
            f"the scenario must decide '{step.id}'" + (f" for {who}" if who else ""),
            location=step.location,
            hint=f"add to the scenario: decisions: {{{step.id}: "
                 + (f"{{{who}: VALUE}}}}" if who else "VALUE}"))
    else:
        value, source = asking.default(), "default"
        _check(asking, value, source)
    if plan is not None or source == "prompt":
        decisions.record(step.id, who, value)
    if not run.tracing:
        return value, {}
    values: dict[str, Any] = {"decision": step.id, "value": value, "source": source}
    if who:
        values["for"] = who
    if why is not None:
        values["reason"] = why[0]
        values["reason_params"] = dict(why[1])
    return value, values


def _check(asking: Asking, value: Any, source: str) -> None:
    """An answer from a prompt or a rule's default must apply."""
    why = asking.problem(value)
    if why is None:
        return
    step = asking.step
    text = reason_text(_translator(asking.run), why)
    whose = f"decision '{step.id}'" + (f" for {asking.who}" if asking.who else "")
    raise StratagemError(f"{whose}: {text}" + (" (the rule's default)" if source == "default"
                                               else ""),
                         location=step.location if source == "default" else None,
                         hint=closest(value, asking.choices() or ())
                         or ("fix the `default:` of the step" if source == "default"
                             else "answer one of the options"))


def _translator(run: Run) -> Any:
    from stratagem.report import translator

    return translator(run.ruleset, run.lang)


def moment(run: Run) -> list[tuple[str, Any]]:
    """Where the battle is: its fields named like the counter of a ``repeat`` of the ruleset
    (``day``, ``round``, ``week``), those that have started."""
    counters: set[str] = set()
    _repeat_counters(run.ruleset.doc.get("procedures"), counters)
    fields = run.root.declaration.fields
    out = []
    for name in sorted(counters):
        value = run.root.member(name) if name in fields else None
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            out.append((name, value))
    return out


def _repeat_counters(node: Any, found: set[str]) -> None:
    if isinstance(node, Mapping):
        body = node.get("repeat")
        if isinstance(body, Mapping) and isinstance(body.get("as"), str):
            found.add(body["as"])
        for value in node.values():
            _repeat_counters(value, found)
    elif isinstance(node, list):
        for item in node:
            _repeat_counters(item, found)


def cannot_apply(asking: Asking, plan: Plan, why: Reason) -> StratagemError:
    """The error of an answer that cannot apply, with nothing to fall back on: the decision,
    its subject, the seed, the moment, the options then, and how to plan for it."""
    run, step, who = asking.run, asking.step, asking.who
    t = _translator(run)
    seed = run.decisions.seed
    when = [who] if who else []
    when.append(t.t("decision.when_seed", seed=seed) if seed is not None
                else t.t("decision.when_scripted"))
    when += [f"{_lower(t.field('battle', name))} {t.number(value)}"
             for name, value in moment(run)]
    options = asking.options() if step.range is None else None
    bounds = asking.range()
    shown = ", ".join(map(str, options)) if options else (
        f"{bounds[0]}…{bounds[1]}" if bounds is not None else "—")
    fallback = step.default.text if step.default is not None else (
        options[-1] if options else "VALUE")
    if isinstance(fallback, str) and fallback[:1] in "'\"" and fallback[-1:] == fallback[:1]:
        fallback = fallback[1:-1]
    answer = plan.example()
    planned = f"{{prefer: [{answer}], else: {fallback}}}" if answer is not None else \
        f"{{policy: ..., else: {fallback}}}"
    example = f"{step.id}: {{{who}: {planned}}}" if who else f"{step.id}: {planned}"
    return StratagemError(
        t.t("error.decision_cannot_apply", decision=step.id, when=", ".join(when),
            reason=reason_text(t, why), options=shown),
        location=plan.location,
        hint=t.t("error.decision_cannot_apply.hint", example=example))


def _lower(label: str) -> str:
    """A label inside a sentence: ``Day`` → ``day`` (``TS`` stays)."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def reason_text(t: Any, why: Reason) -> str:
    """A reason in the translator's language."""
    return str(t.t(why[0], **dict(why[1])))


__all__ = ["POLICY_NAMES", "Answer", "Decisions", "Entry", "NotApplicable", "Plan", "Policy",
           "Prefer", "Reason", "compile_decisions", "decide", "merge_decisions"]
