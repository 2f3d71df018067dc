"""Asking a decision in a battle: the scenario's plan (``model.decisions``), a prompt or the
rule's default, and the fallbacks.

An answer that cannot apply when it is asked (a unit that has left the field, a number
outside the range) falls back on the plan's ``else:``. Without one, ``stratagem battle``
stops with the decision, its subject, the seed, the moment and the options, and
``stratagem odds`` uses the step's ``default`` and counts it (see :class:`Decisions`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, TYPE_CHECKING

from stratagem.errors import LimitError, StratagemError, Term
from stratagem.expr import Expr
from stratagem.i18n.catalog import Translator, translator
from stratagem.model.decisions import Entry, NotApplicable, Plan, Reason, reason
from stratagem.model.entities import Entity
from stratagem.model.steps import DecideStep
from stratagem.model.values import closest

if TYPE_CHECKING:
    from stratagem.interp.context import Run

#: The longest range a policy may read as `options`.
MAX_OPTIONS: Final = 10_000


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
        options = self.step.options
        if isinstance(options, Expr):
            return list(self.run.evaluator.eval(options, self.scope))
        return options

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
                                 "is too long to read as `options`", location=self.step.location,
                                 key="run.decision_long_range",
                                 params={"decision": self.step.id, "n": hi - lo + 1})
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


def decide(run: Run, step: DecideStep, scope: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Answer one ask of a `decide` step: the value, and what the trace records of it (when
    the battle is traced)."""
    subject = run.evaluator.eval(step.subject, scope) if step.subject is not None else None
    return answer(run, step, scope, subject)


def answer(run: Run, step: DecideStep, scope: dict[str, Any],
           subject: Any) -> tuple[Any, dict[str, Any]]:
    """:func:`decide` once the subject is known (the generated code evaluates it, and
    answers the common ask itself: no plan, no prompt, the rule's default)."""
    who = _named(subject)
    decisions = run.decisions
    plan = decisions.find(step.id, who)
    why: Reason | None = None
    if plan is None and decisions.ask is None and step.default is not None:
        # the common ask, the rule's default, answered without an `Asking` unless its
        # answer must be checked (a range, options; of a bool decision, the type)
        value, source = run.evaluator.eval(step.default, scope), "default"
        check_default(run, step, scope, subject, value, who)
        return value, (_traced(step, value, source, who, None) if run.tracing else {})
    asking = Asking(step, run, scope, subject, who)
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
    else:  # no plan, no one to ask, no default
        raise StratagemError(
            f"the scenario must decide '{step.id}'" + (f" for {who}" if who else ""),
            location=step.location,
            hint=f"add to the scenario: decisions: {{{step.id}: "
                 + (f"{{{who}: VALUE}}}}" if who else "VALUE}"),
            key="run.decision_missing", params={"decision": step.id, "who": who or None})
    if plan is not None or source == "prompt":
        decisions.record(step.id, who, value)
    return value, (_traced(step, value, source, who, why) if run.tracing else {})


def check_default(run: Run, step: DecideStep, scope: dict[str, Any], subject: Any,
                  value: Any, who: str | None = None) -> None:
    """The rule's default checked when it must be (a range, options; of a bool decision,
    the type) by an `Asking`, made only then; ``who`` names the subject, else it is named
    here."""
    if step.range is not None or step.options is not None or (
            step.type == "bool" and not isinstance(value, bool)):
        _check(Asking(step, run, scope, subject, _named(subject) if who is None else who),
               value, "default")


def _named(subject: Any) -> str:
    """The subject of an ask as plans and the trace name it."""
    return subject.label() if isinstance(subject, Entity) else (
        str(subject) if subject is not None else "")


def _traced(step: DecideStep, value: Any, source: str, who: str, why: Reason | None
            ) -> dict[str, Any]:
    """What the trace records of an answer."""
    values: dict[str, Any] = {"decision": step.id, "value": value, "source": source}
    if who:
        values["for"] = who
    if why is not None:
        values["reason"] = why[0]
        values["reason_params"] = dict(why[1])
    return values


def _check(asking: Asking, value: Any, source: str) -> None:
    """An answer from a prompt or a rule's default must apply."""
    why = asking.problem(value)
    if why is None:
        return
    step = asking.step
    text = reason_text(translator(asking.run.ruleset, "en"), why)
    whose = f"decision '{step.id}'" + (f" for {asking.who}" if asking.who else "")
    near = closest(value, asking.choices() or ())
    default = source == "default"
    raise StratagemError(f"{whose}: {text}" + (" (the rule's default)" if default else ""),
                         location=step.location if default else None,
                         hint=near or ("fix the `default:` of the step" if default
                                       else "answer one of the options"),
                         key="run.decision_bad",
                         hint_key=None if near else (
                             "run.decision_bad_default.hint" if default
                             else "run.decision_bad.hint"),
                         params={"decision": step.id, "who": asking.who or None,
                                 "reason": reason_term(why, text),
                                 "source": source})


def reason_term(why: Reason, english: str) -> Term:
    """A reason as a term of an error, shown in the reader's language."""
    return Term(why[0], english, why[1])


def _translator(run: Run) -> Translator:
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
    said = {"decision": step.id, "when": ", ".join(when), "options": shown, "example": example}
    return StratagemError(
        t.t("run.decision_cannot_apply", **said, reason=reason_text(t, why)),
        location=plan.location,
        hint=t.t("run.decision_cannot_apply.hint", example=example),
        key="run.decision_cannot_apply",
        params={**said, "reason": reason_term(why, reason_text(translator(run.ruleset, "en"),
                                                               why))})


def _lower(label: str) -> str:
    """A label inside a sentence: ``Day`` → ``day`` (``TS`` stays)."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def reason_text(t: Translator, why: Reason) -> str:
    """A reason in the translator's language."""
    return str(t.t(why[0], **dict(why[1])))


__all__ = ["Asking", "Decisions", "answer", "check_default", "decide", "reason_text"]
