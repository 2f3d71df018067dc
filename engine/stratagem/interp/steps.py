"""Running steps: a table from step-record type (``stratagem.model.steps``) to the function
that runs it, as d20 dispatches its AST nodes; and procedure calls.

The records are plain data made once at load (``stratagem.compile.steps``); the functions
here run them any number of times against a :class:`Run` and a scope of local names.
"""

from __future__ import annotations

import ast
import numbers
from collections.abc import Callable, Mapping
from typing import Any, Final, NoReturn

from mypy_extensions import mypyc_attr

from stratagem.dice import DiceExpr, parse_dice
from stratagem.errors import LimitError, Location, StratagemError, Word, a_or_an
from stratagem.expr import SAFE_RESULT_TYPES, Expr, compile_expr
from stratagem.expr.bounds import MAX_MAGNITUDE, ValueTooLarge, stored
from stratagem.expr.calls import describe, plain_words
from stratagem.expr.core import OPERATORS
from stratagem.interp.context import BreakLoop, Return, Run
from stratagem.interp.decisions import decide
from stratagem.model.entities import Entity, EntityScope, FieldSpec, read_member
from stratagem.model.steps import (
    KIND,
    Block,
    BreakStep,
    CallStep,
    CheckSpec,
    CheckStep,
    ContestStep,
    CreateStep,
    DecideStep,
    Dice,
    EmitStep,
    ForEachStep,
    IfStep,
    LookupStep,
    Procedure,
    RemoveStep,
    RepeatStep,
    RequireStep,
    ReturnStep,
    RollStep,
    ScheduleStep,
    SetStep,
    Step,
    UpdateStep,
)
from stratagem.model.values import Label, closest, plain


def note(run: Run, step: Step, scope: dict[str, Any], values: dict[str, Any]) -> None:
    """Record a control-flow step: its message if it has `event:`, else a quiet event
    (in the JSON trace, not in --explain)."""
    if not run.tracing:
        return
    if step.event:
        emit(run, step, scope, values)
    else:
        run.record(step, values, level="quiet")


def emit(run: Run, step: Step, scope: dict[str, Any], values: dict[str, Any],
         key: str | None = None, params: dict[str, Any] | None = None) -> None:
    if not run.tracing:
        return
    key = key or step.event
    if key:
        merged = dict(values)
        if params:
            merged.update(params)
        for name, expr in step.params.items():
            merged[name] = kept(run.evaluator.eval(expr, scope), expr, "the parameter '{}'",
                                 name)
        run.record(step, values, key, merged)
    else:
        run.record(step, values)


def run_block(run: Run, steps: Block, scope: dict[str, Any]) -> None:
    """Run the steps of a block in order. Its steps count against the battle's bound on
    steps as the block starts (a loop's body counts once per turn)."""
    block = steps.steps if run.tracing else steps.untraced
    run.steps += len(block)
    if run.steps > run.max_steps and block:
        run.checkpoint(block[0])
    for step in block:
        when = step.when
        if when is not None and not run.evaluator.eval(when, scope):
            continue
        # The most frequent steps are called by name first: a compiled build then calls
        # them as C functions, where a call through the table goes through Python's calling
        # convention (its arguments boxed and parsed). The table runs every other step.
        if type(step) is SetStep:
            run_set(run, step, scope)
        elif type(step) is IfStep:
            run_if(run, step, scope)
        elif type(step) is UpdateStep:
            run_update(run, step, scope)
        elif type(step) is CallStep:
            run_call(run, step, scope)
        else:
            RUN[type(step)](run, step, scope)


# -- procedures ---------------------------------------------------------------------------
def call(run: Run, name: str, args: Mapping[str, Any], location: Location | None = None) -> Any:
    """Call the ruleset's procedure ``name`` with ``args`` (the API's entry: its arguments
    are checked here; a `call` step's were checked at load)."""
    proc = run.ruleset.procedures[name]
    missing = [p for p in proc.params if p not in args]
    if missing:
        raise StratagemError(f"procedure '{name}' needs {', '.join(missing)}",
                             location=location, hint="pass them with `with:`",
                             key="run.call_missing",
                             params={"procedure": name, "missing": ", ".join(missing)})
    unknown = [a for a in args if a not in proc.params]
    if unknown:
        raise StratagemError(f"procedure '{name}' takes no parameter {', '.join(unknown)}",
                             location=location, key="run.call_unknown",
                             params={"procedure": name, "unknown": ", ".join(unknown)})
    return enter(run, proc, dict(args), location)


def enter(run: Run, proc: Procedure, scope: dict[str, Any],
          location: Location | None = None) -> Any:
    """Run ``proc`` with its arguments in ``scope`` and return what it returns: its
    generated function if the run has them (``interp.codegen``), else its records."""
    if run.depth > run.limits.max_call_depth:
        too_deep(run, location)
    generated = run.generated
    if generated is not None:
        return generated[proc.name](run, scope)
    return run_procedure(run, proc, scope)


def too_deep(run: Run, location: Location | None) -> NoReturn:
    raise LimitError(f"procedures call each other more than "
                     f"{run.limits.max_call_depth} deep", location=location,
                     hint="a procedure that calls itself without end?",
                     key="run.call_depth", params={"max": run.limits.max_call_depth})


def run_procedure(run: Run, proc: Procedure, scope: dict[str, Any]) -> Any:
    """Interpret the steps of ``proc`` (its depth checked by the caller)."""
    scope["battle"] = run.root
    saved, run.procedure = run.procedure, proc.name
    run.depth += 1
    try:
        run_block(run, proc.steps, scope)
    except Return as ret:
        return ret.value
    finally:
        run.depth -= 1
        run.procedure = saved
    return None


# -- dice ---------------------------------------------------------------------------------
def subject_name(run: Run, scope: Mapping[str, Any], subject: Expr | None) -> str | None:
    if subject is None:
        return None
    who = run.evaluator.eval(subject, scope)
    return who.label() if hasattr(who, "label") and callable(who.label) else str(who)


def roll_dice(run: Run, dice: Dice, scope: Mapping[str, Any], subject: Expr | None,
              label: str, location: Location | None, only_total: bool = False) -> Any:
    """The roll of a step's dice (with ``only_total``, its total alone: the source's
    ``total``); an error that names no place of its own (dice too many for their names'
    values, a dice text from a value that does not parse) is placed at ``location``, the
    step's."""
    try:  # one function, not two: a roll is made at every `roll`, `check` and `contest`
        expr = dice.literal
        if expr is None:
            assert dice.source is not None
            value = run.evaluator.eval(dice.source, scope)
            if isinstance(value, (int, str)) and not isinstance(value, bool):
                expr = parse_dice(str(value), dialect=dice.dialect)
            elif isinstance(value, DiceExpr):  # a table's dice cell
                expr = value
            else:
                raise StratagemError(
                    f"`{dice.source.text}` gives {describe(value)}, not dice",
                    hint="`from:` must give a dice text such as '3d6' or a whole number",
                    location=dice.source.location, key="run.roll_from_not_dice",
                    params={"text": dice.source.text, "value": describe(value)})
        names = ({n: _as_int(run.evaluator.eval(e, scope), n, e)
                  for n, e in dice.names.items()} if dice.names else {})
        extra = getattr(expr, "names", None)
        if extra:  # a roll taken from a table or a value: its names are read here
            for n in extra:
                if n not in names:
                    read = dice.found.get(n)
                    if read is None:
                        read = dice.found[n] = compile_expr(n)
                    names[n] = _as_int(run.evaluator.eval(read, scope), n, None)
        if run.dice.uses_labels:
            who = subject_name(run, scope, subject)
            label = f"{who}: {label}" if who else label
        if only_total:
            return run.dice.total(expr, names, label)
        return run.dice.roll(expr, names, label)
    except StratagemError as err:
        if err.location is None:
            err.location = location
        raise


def _as_int(value: Any, name: str, expr: Expr | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            if value == int(value):
                return int(value)
        except (TypeError, ValueError):
            pass
        raise StratagemError(f"dice name '{name}' must be a whole number, got {value!r}",
                             location=expr.location if expr else None, key="run.dice_name",
                             params={"name": name, "value": repr(value)})
    return value


def roll_values(result: Any, who: str | None) -> dict[str, Any]:
    values: dict[str, Any] = {"dice": result.text, "total": result.total,
                              "text": result.describe()}
    if len(result.values) > 1:
        values["values"] = list(result.values)
    if result.is_percent:
        values["percent"] = True
    if who:
        values["for"] = who
    return values


# -- the steps ----------------------------------------------------------------------------
def kept(value: Any, expr: Expr | None, what: str, name: str | None = None) -> Any:
    """``value``, if a battle may keep it (:func:`stratagem.expr.bounds.stored`): else an
    error at ``expr`` naming ``what`` (the name or field it was for; with ``name``, ``what``
    holds a ``{}`` for it, filled only when there is an error to tell: this runs for every
    value a step keeps)."""
    kind = type(value)
    # the common values, told by identity (a compiled build answers these without a lookup
    # or a boxed number; KEPT_AS_IT_IS, below, lists them for the generated procedures)
    if kind is int:
        number: int = value
        if -MAX_MAGNITUDE < number < MAX_MAGNITUDE:
            return value
    elif kind is str or kind is bool or kind is Entity or value is None or kind is Label:
        return value
    try:
        return stored(value)
    except ValueTooLarge as err:
        text = f"`{expr.text}`: " if expr is not None else ""
        if name is not None:
            what = what.format(name)
        raise ValueTooLarge(f"{text}{what}: {err.message}", hint=err.hint,
                            location=expr.location if expr is not None else None) from None


#: `add:` adds as `+` in an expression does (bounded for text and lists)
_ADD: Final = OPERATORS[ast.Add]

#: What :func:`kept` passes without a look (the common values of a battle).
KEPT_AS_IT_IS: Final = frozenset({bool, str, type(None), Entity, Label})


def run_set(run: Run, step: SetStep, scope: dict[str, Any]) -> None:
    evaluator = run.evaluator
    for name, expr in step.values:
        scope[name] = kept(evaluator.eval(expr, scope), expr, "the value of '{}'", name)
    if run.tracing:
        emit(run, step, scope, {name: scope[name] for name, _ in step.values})


def run_roll(run: Run, step: RollStep, scope: dict[str, Any]) -> None:
    if not run.tracing and not step.values_as:  # the total is all that is kept
        total = roll_dice(run, step.dice, scope, step.subject, step.label, step.location, True)
        if step.target:
            scope[step.target] = total
        return
    result = roll_dice(run, step.dice, scope, step.subject, step.label, step.location)
    if step.target:
        scope[step.target] = result.total
    if step.values_as:
        scope[step.values_as] = list(result.values)
    if run.tracing:
        emit(run, step, scope, roll_values(result, subject_name(run, scope, step.subject)))


class CheckResult:
    """What a `check` binds: roll, target, margin, success, critical (and the dice's trace)."""

    __slots__ = ("_dice", "critical", "margin", "roll", "success", "target")

    def __init__(self, roll: int, target: Any, margin: Any, success: bool,
                 critical: str | None, dice: Any) -> None:
        self.roll = roll
        self.target = target
        self.margin = margin
        self.success = success
        self.critical = critical
        self._dice = dice

    @property
    def failure(self) -> bool:
        return not self.success

    @property
    def text(self) -> str:
        """The roll as a person reads it, e.g. ``3d = [2,5,5] = 12`` (made when asked)."""
        return str(self._dice.describe())

    def to_plain(self) -> dict[str, Any]:
        return {"roll": self.roll, "target": plain(self.target), "margin": plain(self.margin),
                "success": self.success, "critical": self.critical}


def perform(run: Run, spec: CheckSpec, scope: dict[str, Any],
            location: Location | None) -> tuple[CheckResult, Any, Any]:
    result = roll_dice(run, spec.dice, scope, spec.subject, spec.label, location)
    total = result.total
    if spec.bonus is not None:
        total = total + _a_number(run.evaluator.eval(spec.bonus, scope), spec.bonus, "bonus")
    if spec.target is None:
        return CheckResult(total, None, total, True, None, result), result, total
    target = _a_number(run.evaluator.eval(spec.target, scope), spec.target, "target")
    if spec.type == "under":
        margin = target - total
    else:
        margin = total - target
    success = margin >= 0
    critical = None
    if spec.crit_success is not None or spec.crit_failure is not None:
        inner = dict(scope)
        inner.update(roll=total, target=target, margin=margin)
        if spec.crit_success is not None and run.evaluator.eval(spec.crit_success, inner):
            critical, success = "success", True
        elif spec.crit_failure is not None and run.evaluator.eval(spec.crit_failure, inner):
            critical, success = "failure", False
    return CheckResult(total, target, margin, success, critical, result), result, margin


def _a_number(value: Any, expr: Expr, what: str) -> Any:
    """A check's target or bonus, if it is a number: else an error at its expression."""
    kind = type(value)
    if kind is int or kind is float or (isinstance(value, numbers.Real) and kind is not bool):
        return value
    raise StratagemError(f"`{expr.text}`: the {what} of a check must be a number, got "
                         f"{describe(value)}", location=expr.location,
                         key=f"run.check_{what}", params={"text": expr.text,
                                                          "value": describe(value)})


def run_check(run: Run, step: CheckStep, scope: dict[str, Any]) -> None:
    check, result, _ = perform(run, step.spec, scope, step.location)
    if step.target:
        scope[step.target] = check
    if not run.tracing:
        return
    values = roll_values(result, subject_name(run, scope, step.spec.subject))
    values.update(target=check.target, margin=check.margin, success=check.success)
    if check.critical:
        values["critical"] = check.critical
    emit(run, step, scope, values)


class ContestResult:
    """What a `contest` binds: winner ('a', 'b' or none), difference, a, b."""

    __slots__ = ("a", "b", "difference", "rerolls", "winner")

    def __init__(self, winner: str | None, difference: Any, a: CheckResult, b: CheckResult,
                 rerolls: int) -> None:
        self.winner = winner
        self.difference = difference
        self.a = a
        self.b = b
        self.rerolls = rerolls

    @property
    def loser(self) -> str | None:
        return {"a": "b", "b": "a"}.get(self.winner or "")


def run_contest(run: Run, step: ContestStep, scope: dict[str, Any]) -> None:
    rerolls = 0
    while True:
        a, _, score_a = perform(run, step.a, scope, step.location)
        b, _, score_b = perform(run, step.b, scope, step.location)
        if score_a != score_b or step.tie == "draw":
            break
        rerolls += 1
        run.record(step, {"tie": score_a, "reroll": rerolls})
        if rerolls > 100:
            raise LimitError("a contest tied more than 100 times in a row",
                             location=step.location, key="run.contest_ties",
                             params={"max": 100})
    winner = "a" if score_a > score_b else "b" if score_b > score_a else None
    result = ContestResult(winner, abs(score_a - score_b), a, b, rerolls)
    if step.target:
        scope[step.target] = result
    if not run.tracing:
        return
    values = {"a": a, "b": b, "winner": winner, "difference": result.difference}
    for side, spec in (("a", step.a), ("b", step.b)):
        who = subject_name(run, scope, spec.subject)
        if who:
            values[f"{side}_for"] = who
            # whether the name is plural, for the verb that follows it ("Orcs win")
            subject = run.evaluator.eval(spec.subject, scope) if spec.subject else None
            if isinstance(subject, Entity) and subject.member("plural") is True:
                values[f"{side}_plural"] = True
    emit(run, step, scope, values)


def run_lookup(run: Run, step: LookupStep, scope: dict[str, Any]) -> None:
    keys = [run.evaluator.eval(e, scope) for e in step.keys]
    shift = int(run.evaluator.eval(step.shift, scope)) if step.shift is not None else 0
    table = run.ruleset.tables[step.table]
    try:
        row = table.lookup(*keys, shift=shift)
    except StratagemError as err:
        err.location = step.location
        raise
    if step.target:
        scope[step.target] = row
    if not run.tracing:
        return
    values: dict[str, Any] = {"table": step.table, "key": keys[0] if len(keys) == 1 else keys,
                              "row": row.index}
    if shift:
        values["shift"] = shift
    emit(run, step, scope, values, params={"row": row})


def run_for_each(run: Run, step: ForEachStep, scope: dict[str, Any]) -> None:
    assert step.items is not None
    items = loop_items(step, run.evaluator.eval(step.items, scope))
    if not run.tracing and step.body.trace_only:
        # Nothing to record: only bind what the loop leaves behind.
        if items:
            scope[step.name] = items[-1]
            if step.index:
                scope[step.index] = len(items) - 1
        return
    if run.tracing:
        note(run, step, scope, {"in": step.items.text, "count": len(items)})
    run.depth += 1
    try:
        for i, item in enumerate(items):
            scope[step.name] = item
            if step.index:
                scope[step.index] = i
            try:
                run_block(run, step.body, scope)
            except BreakLoop:
                break
    finally:
        run.depth -= 1


def loop_items(step: ForEachStep, items: Any) -> list[Any]:
    """What a `for_each` walks through: the value of its `in:` as a list."""
    try:
        return list(items)
    except TypeError:
        assert step.items is not None
        raise StratagemError(f"`for_each` needs a list; `{step.items.text}` gave {items!r}",
                             location=step.location, key="run.for_each_not_list",
                             params={"expr": step.items.text, "value": repr(items)}) from None


def run_if(run: Run, step: IfStep, scope: dict[str, Any]) -> None:
    assert step.cond is not None
    taken = bool(run.evaluator.eval(step.cond, scope))
    if run.tracing:
        note(run, step, scope, {"condition": step.cond.text, "value": taken})
    run_block(run, step.then if taken else step.otherwise, scope)


def run_repeat(run: Run, step: RepeatStep, scope: dict[str, Any]) -> None:
    limit = run.limits.max_rounds
    bound = passes(step, run.evaluator.eval(step.max, scope)) if step.max is not None else None
    n = 0
    run.depth += 1
    try:
        while True:
            if bound is not None and n >= bound:
                break
            if step.while_ is not None and not run.evaluator.eval(step.while_, scope):
                break
            n += 1
            if n > limit:
                endless(step, limit)
            if step.name:
                scope[step.name] = n
            marked = step.report and run.tracing
            if marked:
                run.record(step, {"round": n, "heading": step.heading}, level="quiet")
            try:
                run_block(run, step.body, scope)
            except BreakLoop:
                if marked:
                    round_end(run, step, n)
                break
            if marked:
                round_end(run, step, n)
            if step.until is not None and run.evaluator.eval(step.until, scope):
                break
    finally:
        run.depth -= 1
    note(run, step, scope, {"passes": n})


def passes(step: RepeatStep, bound: Any) -> int:
    """The most passes a `repeat` makes: the value of its `max:` as a whole number."""
    try:
        return int(bound)
    except (TypeError, ValueError):
        assert step.max is not None
        raise StratagemError(f"`repeat`: `max: {step.max.text}` must be a number, got {bound!r}",
                             location=step.max.location or step.location,
                             key="run.repeat_max",
                             params={"expr": step.max.text, "value": repr(bound)}) from None


def endless(step: RepeatStep, limit: int) -> NoReturn:
    raise LimitError(f"`repeat` ran {limit} times without ending", location=step.location,
                     hint="check its `until:`/`while:` condition, or set `max:`; "
                          "limits.max_rounds raises the bound",
                     key="run.repeat_endless", params={"max": limit})


def round_end(run: Run, step: RepeatStep, n: int) -> None:
    """A round of a loop marked `report:` ends: record the `report.rounds` numbers of every
    entity (a quiet event: ``{"round_end": n, "values": {kind: {name: {value: number}}}}``)."""
    values: dict[str, dict[str, dict[str, Any]]] = {}
    for kind, names in run.ruleset.rounds_report.items():
        of_kind = values.setdefault(kind, {})
        for entity in run.root.walk():
            if entity.kind_name == kind:
                of_kind[entity.label()] = {name: number_of(entity, name) for name in names}
    run.record(step, {"round_end": n, "values": values}, level="quiet")


def number_of(entity: Entity, name: str) -> float | int | None:
    """A field or derived value as a number to chart, or None (not a number, or it could not
    be computed)."""
    try:
        value = entity.member(name)
    except StratagemError:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(
            value, "denominator"):
        return None
    return value if isinstance(value, int) else float(value)


def run_decide(run: Run, step: DecideStep, scope: dict[str, Any]) -> None:
    value, values = decide(run, step, scope)
    scope[step.target] = value
    if run.tracing:
        emit(run, step, scope, values)


def run_update(run: Run, step: UpdateStep, scope: dict[str, Any]) -> None:
    assert step.entity is not None
    evaluator = run.evaluator
    target = evaluator.eval(step.entity, scope)
    for entity in target if isinstance(target, (list, tuple)) else (target,):
        update_check(step, entity)
        inner = scope if step.local else EntityOverlay(scope, entity)
        fields = entity._kind.fields
        new = [(name, field_value(fields, name, evaluator.eval(expr, inner), step, entity))
               for name, expr in step.assign.items()]
        for name, expr in step.add.items():
            added = added_to(step, entity, name, evaluator.eval(expr, inner))
            new.append((name, field_value(fields, name, added, step, entity)))
        if not run.tracing:
            entity.update(new)
            continue
        changes: dict[str, list[Any]] = {}
        for name, value in new:  # a name both set and added: its second change starts at the first
            changes[name] = [changes[name][1] if name in changes else entity._f.get(name), value]
        entity.update(new)
        emit(run, step, scope, {"entity": entity, "changes": changes},
             params={"entity": entity, **{k: v[1] for k, v in changes.items()}})


def update_check(step: UpdateStep, entity: Any) -> None:
    """One of the values an `update` step's `update:` gave (one or a list) is an entity with
    every field the step names."""
    if not isinstance(entity, Entity):
        assert step.entity is not None
        raise StratagemError(
            f"`update: {step.entity.text}` must name an entity, got {entity!r}",
            location=step.location, key="run.update_not_entity",
            params={"expr": step.entity.text, "value": repr(entity)})
    if entity._kind.name not in step.kinds:
        _check_kind(step, entity)


def added_to(step: UpdateStep, entity: Entity, name: str, more: Any) -> Any:
    """An `update` step's `add:` of ``more`` to the entity's field ``name``."""
    try:
        return _ADD(read_member(entity, name), more)
    except TypeError as err:
        raise StratagemError(
            f"`update`: cannot add {describe(more)} to the {entity.kind_name}'s field "
            f"'{name}' ({plain_words(err)})",
            location=step.places.get(name) or step.location, key="run.update_add",
            params={"value": describe(more), "kind": entity.kind_name, "field": name,
                    "reason": plain_words(err)}) from None


def field_value(fields: Mapping[str, FieldSpec], name: str, value: Any,
                 step: UpdateStep | CreateStep, entity: Entity) -> Any:
    """A value a step gives a field, checked as loading checks one (its type, `min:`,
    `max:`, enum values) and bounded as every kept value is; the error names the step's
    place, the field and the value. The common values, those the field takes as they are
    (``FieldSpec.unchanged``), are returned without a check."""
    spec = fields.get(name)
    if spec is None:  # a collection: its entities
        return value
    unchanged = spec.unchanged
    kind = type(value)
    if kind is unchanged.cls:
        if kind is int:
            number: int = value
            if unchanged.low <= number <= unchanged.high:
                return value
        elif unchanged.values is None or value in unchanged.values:
            return value
    elif value is None and unchanged.none:
        return None
    try:  # the owner's words and the place are made only for an error (checking is pure)
        return spec.check(value, None, "", changed=True)
    except StratagemError:
        return spec.check(value, step.places.get(name) or step.location,
                          f"`{KIND[type(step)]}`: the {entity.kind_name}'s", changed=True)


def _check_kind(step: UpdateStep, entity: Entity) -> None:
    """Every field the step changes is one of this kind of entity's (checked once per
    kind)."""
    declared = entity.declaration
    for name in (*step.assign, *step.add):
        if name not in declared.fields and name not in declared.children:
            fields = ", ".join(declared.fields)
            raise StratagemError(
                f"{a_or_an(entity.kind_name)} has no field '{name}' to update",
                location=step.places.get(name) or step.location,
                hint=closest(name, declared.fields)
                or f"the fields of {a_or_an(entity.kind_name)}: {fields}",
                key="compile.update_no_field",
                params={"kind": Word(entity.kind_name), "name": name, "fields": fields})
    step.kinds.add(entity.kind_name)


@mypyc_attr(native_class=False)
class EntityOverlay(dict):  # type: ignore[type-arg]
    """Scope for `update` expressions: the step's names, then the entity's members (the
    constants come before these: expressions read them first, see expr/compiled.py)."""

    __slots__ = ("_entity",)

    def __init__(self, scope: Mapping[str, Any], entity: Entity) -> None:
        super().__init__(scope)
        self._entity = entity

    def __missing__(self, name: str) -> Any:
        return EntityScope(self._entity)[name]


def run_create(run: Run, step: CreateStep, scope: dict[str, Any]) -> None:
    assert step.parent is not None
    parent = run.evaluator.eval(step.parent, scope)
    if not isinstance(parent, Entity) or step.collection not in parent.declaration.children:
        raise StratagemError(
            f"`create`: {parent!r} has no collection '{step.collection}'",
            location=step.location, key="run.create_no_collection",
            params={"parent": repr(parent), "collection": step.collection})
    kind = run.ruleset.kinds[parent.declaration.children[step.collection]]
    if step.copy is not None:
        source = run.evaluator.eval(step.copy, scope)
        entity = source.clone(parent)
    else:
        entity = run.ruleset.new_entity(kind, {}, parent)
    run.made_entity(step)
    for name, expr in step.assign.items():
        if name not in kind.fields:
            raise StratagemError(f"{a_or_an(kind.name)} has no field '{name}'",
                                 location=step.location, key="compile.create_no_field",
                                 params={"kind": Word(kind.name), "name": name})
        entity._f[name] = field_value(kind.fields, name, run.evaluator.eval(expr, scope),
                                       step, entity)
    parent.adopt(step.collection, entity)
    if step.target:
        scope[step.target] = entity
    emit(run, step, scope, {"entity": entity, "in": parent}, params={"entity": entity})


def run_emit(run: Run, step: EmitStep, scope: dict[str, Any]) -> None:
    emit(run, step, scope, {}, key=step.key)


def run_call(run: Run, step: CallStep, scope: dict[str, Any]) -> None:
    args: dict[str, Any] = {}
    evaluator = run.evaluator
    for name, expr in step.args.items():
        args[name] = kept(evaluator.eval(expr, scope), expr, "the argument '{}'", name)
    result = enter(run, run.ruleset.procedures[step.procedure], args, step.location)
    if step.target:
        scope[step.target] = result
    if run.tracing:
        note(run, step, scope, {"procedure": step.procedure, "result": result})


def run_return(run: Run, step: ReturnStep, scope: dict[str, Any]) -> None:
    value = kept(run.evaluator.eval(step.value, scope), step.value, "the value returned") \
        if step.value is not None else None
    if run.tracing:
        note(run, step, scope, {"value": value})
    raise Return(value)


def run_break(run: Run, step: BreakStep, scope: dict[str, Any]) -> None:
    note(run, step, scope, {})
    raise BreakLoop()


def run_require(run: Run, step: RequireStep, scope: dict[str, Any]) -> None:
    assert step.cond is not None
    if run.evaluator.eval(step.cond, scope):
        if run.tracing:
            run.record(step, {"rule": step.cond.text, "holds": True}, level="quiet")
        return
    broken(run, step, scope)


def broken(run: Run, step: RequireStep, scope: dict[str, Any]) -> NoReturn:
    """The error of a `require` whose rule does not hold (the generated code, which tests
    the rule itself, calls it too)."""
    assert step.cond is not None
    params = {name: run.evaluator.eval(expr, scope) for name, expr in step.params.items()}
    text = run.translate(step.message, params) if step.message else None
    location = step.location
    if step.blame is not None:
        culprit = run.evaluator.eval(step.blame, scope)
        if isinstance(culprit, Entity) and culprit.origin is not None:
            location = culprit.origin
    raise StratagemError(text or f"the army or scenario breaks a rule of this ruleset: "
                                 f"{step.cond.text}", location=location,
                         hint=f"change the army or scenario so that the rule holds "
                              f"(`{step.cond.text}`, {step.location or 'the ruleset'})")


def run_schedule(run: Run, step: ScheduleStep, scope: dict[str, Any]) -> None:
    """Only recorded: a campaign reads what is scheduled from the trace."""
    if not run.tracing:
        return
    evaluator = run.evaluator
    after = evaluator.eval(step.after, scope) if step.after is not None else 0
    args = {name: evaluator.eval(expr, scope) for name, expr in step.args.items()}
    values = {"procedure": step.procedure, "after": after, "unit": step.unit, "args": args}
    if step.event:
        emit(run, step, scope, values)
    else:
        run.record(step, values, level="quiet")


def run_remove(run: Run, step: RemoveStep, scope: dict[str, Any]) -> None:
    assert step.entity is not None
    found = run.evaluator.eval(step.entity, scope)
    for entity in found if isinstance(found, (list, tuple)) else (found,):
        parent = entity.parent if isinstance(entity, Entity) else None
        if not isinstance(parent, Entity):
            raise StratagemError(f"`remove: {step.entity.text}` must name an entity in a "
                                 f"collection, got {entity!r}", location=step.location,
                                 key="run.remove_not_entity",
                                 params={"expr": step.entity.text, "value": repr(entity)})
        for coll, items in parent.children_of():
            if any(item is entity for item in items):
                parent.set(coll, [item for item in items if item is not entity])
                break
        emit(run, step, scope, {"entity": entity, "from": parent}, params={"entity": entity})


SAFE_RESULT_TYPES.update({CheckResult, ContestResult, Label})

#: step-record type -> the function that runs it
RUN: Final[dict[type, Callable[[Run, Any, dict[str, Any]], None]]] = {
    SetStep: run_set, RollStep: run_roll, CheckStep: run_check, ContestStep: run_contest,
    LookupStep: run_lookup, ForEachStep: run_for_each, IfStep: run_if, RepeatStep: run_repeat,
    DecideStep: run_decide, UpdateStep: run_update, CreateStep: run_create, EmitStep: run_emit,
    CallStep: run_call, ReturnStep: run_return, BreakStep: run_break,
    RequireStep: run_require, ScheduleStep: run_schedule, RemoveStep: run_remove,
}

__all__ = ["RUN", "CheckResult", "ContestResult", "call", "enter", "run_block"]
