"""The step vocabulary: each step compiles once from YAML and runs many times.

A step is a map with one *step key* (``set``, ``roll``, ``check``, ...) and
optional common keys (``when``, ``event``, ``with``, ``level``, ``id``).
Compilation checks everything it can (expressions, dice, table and procedure
names, names in scope) so a mistake is a load error with its position.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from stratagem.errors import LimitError, Location, StratagemError
from stratagem.expr import SAFE_RESULT_TYPES, Expr
from stratagem.interp.context import BreakLoop, Return, Run
from stratagem.interp.decisions import decide
from stratagem.interp.trace import Label
from stratagem.model.entities import Entity, EntityScope, read_member
from stratagem.model.values import closest

if TYPE_CHECKING:
    from stratagem.model.compiler import Compiler

COMMON_KEYS = ("when", "event", "with", "level", "id", "note")


class Step:
    """Base of every step: the common keys and the trace record."""

    kind: ClassVar[str] = ""
    keys: ClassVar[tuple[str, ...]] = ()
    #: The step only adds to the trace (a message, or a branch of nothing but messages):
    #: a battle fought without a trace (odds) skips it. Expressions change nothing, so
    #: skipping it changes nothing else.
    trace_only = False

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        self.location: Location | None = c.where(node, self.kind)
        self.at = _short(self.location)
        self.when: Expr | None = c.expr(node, "when") if "when" in node else None
        self.event: str | None = node.get("event")
        self.level: str = node.get("level", "detail")
        if self.level not in ("summary", "detail", "quiet"):
            c.error(f"level must be 'summary', 'detail' or 'quiet', not '{self.level}'",
                    c.where(node, "level"))
        self.params: dict[str, Expr] = {}
        if self.event:
            c.message_keys.add(str(self.event))

    def finish(self, c: Compiler, node: Mapping[str, Any]) -> None:
        """Compile `with:` last, so it may use the names the step itself binds."""
        if "with" in node:
            self.params = c.expr_map(node, "with")

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        raise NotImplementedError

    def note(self, run: Run, scope: dict[str, Any], values: dict[str, Any]) -> None:
        """Record a control-flow step: its message if it has `event:`, else a quiet event
        (in the JSON trace, not in --explain)."""
        if not run.tracing:
            return
        if self.event:
            self.emit(run, scope, values)
        else:
            run.record(self, values, level="quiet")

    def emit(self, run: Run, scope: dict[str, Any], values: dict[str, Any],
             key: str | None = None, params: dict[str, Any] | None = None) -> None:
        if not run.tracing:
            return
        key = key or self.event
        if key:
            merged = dict(values)
            if params:
                merged.update(params)
            for name, expr in self.params.items():
                merged[name] = run.evaluator.eval(expr, scope)
            run.record(self, values, key, merged)
        else:
            run.record(self, values)


def _short(loc: Location | None) -> str | None:
    if loc is None or not loc.file:
        return None
    name = os.path.normpath(loc.file).replace("\\", "/").split("/rulesets/")[-1]
    return f"{name}:{loc.line}" if loc.line else name


class Block:
    """The steps of a procedure or a branch, and (``untraced``) the same without the steps
    that only add to the trace."""

    def __init__(self, steps: list[Step] | None = None) -> None:
        self.steps: list[Step] = steps or []
        self.untraced = [step for step in self.steps if not step.trace_only]
        #: the block only adds to the trace
        self.trace_only = not self.untraced


def run_block(run: Run, steps: Block, scope: dict[str, Any]) -> None:
    """Run the steps of a block in order. Its steps count against the battle's bound on
    steps as the block starts (a loop's body counts once per turn)."""
    block = steps.steps if run.tracing else steps.untraced
    run.steps += len(block)
    if run.steps > run.max_steps and block:
        run.too_many_steps(block[0])
    for step in block:
        when = step.when
        if when is not None and not run.evaluator.eval(when, scope):
            continue
        step.run(run, scope)


# ---------------------------------------------------------------------------------------
class SetStep(Step):
    """``set: {name: expr, ...}`` — bind local values in order."""

    kind = "set"

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        body = node["set"]
        if not isinstance(body, Mapping) or not body:
            c.error("`set` takes a map of names to expressions, e.g. set: {bonus: 'x + 1'}",
                    self.location)
            body = {}
        self.values: list[tuple[str, Expr]] = []
        for name in body:
            c.check_name(name, c.where(body, name))
            self.values.append((name, c.expr(body, name)))
            c.define(name)

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        evaluator = run.evaluator
        for name, expr in self.values:
            scope[name] = evaluator.eval(expr, scope)
        if run.tracing:
            self.emit(run, scope, {name: scope[name] for name, _ in self.values})


class RollStep(Step):
    """``roll: DICE`` (or ``roll: {from: EXPR}``) ``as: name`` — roll dice, bind the total."""

    kind = "roll"
    keys = ("as", "values_as", "for", "label")

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        self.dice = c.dice_spec(node, "roll")
        self.subject = c.expr(node, "for") if "for" in node else None
        self.label = node.get("label") or node.get("as") or "roll"
        self.target = c.bind(node, "as")
        self.values_as = c.bind(node, "values_as")

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        result = self.dice.roll(run, scope, self.subject, self.label)
        if self.target:
            scope[self.target] = result.total
        if self.values_as:
            scope[self.values_as] = list(result.values)
        if run.tracing:
            who = self.dice.subject_name(run, scope, self.subject)
            self.emit(run, scope, roll_values(result, who))


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
        from stratagem.model.values import plain

        return {"roll": self.roll, "target": plain(self.target), "margin": plain(self.margin),
                "success": self.success, "critical": self.critical}


class CheckSpec:
    """A roll against a target (`check`, and each side of a `contest`)."""

    def __init__(self, c: Compiler, node: Mapping[str, Any], owner: Mapping[str, Any]) -> None:
        self.dice = c.dice_spec(node, "roll")
        self.target = c.expr(node, "target") if "target" in node else None
        self.bonus = c.expr(node, "bonus") if "bonus" in node else None
        self.type = node.get("type", "under")
        if self.type not in ("under", "over"):
            c.error(f"check type must be 'under' or 'over', not '{self.type}'",
                    c.where(node, "type"))
        self.subject = c.expr(node, "for") if "for" in node else None
        with c.scope("roll", "target", "margin"):
            self.crit_success = (c.expr(owner, "critical_success")
                                 if "critical_success" in owner else None)
            self.crit_failure = (c.expr(owner, "critical_failure")
                                 if "critical_failure" in owner else None)
        self.label = str(node.get("label") or owner.get("as") or "check")

    def perform(self, run: Run, scope: dict[str, Any]) -> tuple[CheckResult, Any, Any]:
        result = self.dice.roll(run, scope, self.subject, self.label)
        total = result.total
        if self.bonus is not None:
            total = total + run.evaluator.eval(self.bonus, scope)
        if self.target is None:
            return CheckResult(total, None, total, True, None, result), result, total
        target = run.evaluator.eval(self.target, scope)
        if self.type == "under":
            margin = target - total
        else:
            margin = total - target
        success = margin >= 0
        critical = None
        if self.crit_success is not None or self.crit_failure is not None:
            inner = dict(scope)
            inner.update(roll=total, target=target, margin=margin)
            if self.crit_success is not None and run.evaluator.eval(self.crit_success, inner):
                critical, success = "success", True
            elif self.crit_failure is not None and run.evaluator.eval(self.crit_failure, inner):
                critical, success = "failure", False
        return CheckResult(total, target, margin, success, critical, result), result, margin


class CheckStep(Step):
    """``check: {roll, target, type}`` — success, margin and criticals."""

    kind = "check"
    keys = ("as", "critical_success", "critical_failure")

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        body = node["check"]
        if not isinstance(body, Mapping):
            c.error("`check` takes a map: {roll: '3d', target: 'skill', type: under}",
                    self.location)
            body = {"roll": "1", "target": 0}
        self.spec = CheckSpec(c, body, node)
        self.target = c.bind(node, "as")

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        check, result, _ = self.spec.perform(run, scope)
        if self.target:
            scope[self.target] = check
        if not run.tracing:
            return
        values = roll_values(result, self.spec.dice.subject_name(run, scope, self.spec.subject))
        values.update(target=check.target, margin=check.margin, success=check.success)
        if check.critical:
            values["critical"] = check.critical
        self.emit(run, scope, values)


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


class ContestStep(Step):
    """``contest: {a: CHECK, b: CHECK, compare: margin|total, tie: draw|reroll}``."""

    kind = "contest"
    keys = ("as",)

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        body = node["contest"]
        if not isinstance(body, Mapping) or "a" not in body or "b" not in body:
            c.error("`contest` needs two sides: {a: {roll: ..}, b: {roll: ..}}", self.location)
            body = {"a": {"roll": "1"}, "b": {"roll": "1"}}
        self.a = CheckSpec(c, body["a"], {})
        self.b = CheckSpec(c, body["b"], {})
        self.compare = body.get("compare", "margin")
        self.tie = body.get("tie", "draw")
        if self.compare not in ("margin", "total"):
            c.error("contest compare must be 'margin' or 'total'", c.where(body, "compare"))
        if self.tie not in ("draw", "reroll"):
            c.error("contest tie must be 'draw' or 'reroll'", c.where(body, "tie"))
        self.target = c.bind(node, "as")

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        rerolls = 0
        while True:
            a, _, score_a = self.a.perform(run, scope)
            b, _, score_b = self.b.perform(run, scope)
            if score_a != score_b or self.tie == "draw":
                break
            rerolls += 1
            run.record(self, {"tie": score_a, "reroll": rerolls})
            if rerolls > 100:
                raise LimitError("a contest tied more than 100 times in a row",
                                 location=self.location)
        winner = "a" if score_a > score_b else "b" if score_b > score_a else None
        result = ContestResult(winner, abs(score_a - score_b), a, b, rerolls)
        if self.target:
            scope[self.target] = result
        if not run.tracing:
            return
        values = {"a": a, "b": b, "winner": winner, "difference": result.difference}
        for side, spec in (("a", self.a), ("b", self.b)):
            who = spec.dice.subject_name(run, scope, spec.subject)
            if who:
                values[f"{side}_for"] = who
        self.emit(run, scope, values)


class LookupStep(Step):
    """``lookup: TABLE, key: EXPR (or keys: [..]), shift: EXPR, as: row``."""

    kind = "lookup"
    keys = ("key", "keys", "shift", "as")

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        self.table = c.table_ref(node, "lookup")
        if "keys" in node:
            keys = node["keys"]
            self.keys_exprs = [c.expr(keys, i) for i in range(len(keys))] if isinstance(
                keys, list) else []
        elif "key" in node:
            self.keys_exprs = [c.expr(node, "key")]
        else:
            c.error("`lookup` needs `key:` (or `keys:` for a matrix)", self.location)
            self.keys_exprs = []
        self.shift = c.expr(node, "shift") if "shift" in node else None
        self.target = c.bind(node, "as")

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        keys = [run.evaluator.eval(e, scope) for e in self.keys_exprs]
        shift = int(run.evaluator.eval(self.shift, scope)) if self.shift is not None else 0
        table = run.ruleset.tables[self.table]
        try:
            row = table.lookup(*keys, shift=shift)
        except StratagemError as err:
            err.location = self.location
            raise
        if self.target:
            scope[self.target] = row
        if not run.tracing:
            return
        values: dict[str, Any] = {"table": self.table, "key": keys[0] if len(keys) == 1 else keys,
                                  "row": row.index}
        if shift:
            values["shift"] = shift
        self.emit(run, scope, values, params={"row": row})


class ForEachStep(Step):
    """``for_each: {in: EXPR, as: name, index: i, do: [...]}``."""

    kind = "for_each"

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        body = node["for_each"]
        if not isinstance(body, Mapping) or "in" not in body or "do" not in body:
            c.error("`for_each` takes {in: LIST, as: name, do: [steps]}", self.location)
            body = {"in": "[]", "as": "item", "do": []}
        self.items = c.expr(body, "in")
        self.name = c.bind(body, "as") or "item"
        self.index = c.bind(body, "index")
        self.body = c.block(body, "do")

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        items = run.evaluator.eval(self.items, scope)
        try:
            items = list(items)
        except TypeError:
            raise StratagemError(f"`for_each` needs a list; `{self.items.text}` gave {items!r}",
                                 location=self.location) from None
        if not run.tracing and self.body.trace_only:
            # Nothing to record: only bind what the loop leaves behind.
            if items:
                scope[self.name] = items[-1]
                if self.index:
                    scope[self.index] = len(items) - 1
            return
        if run.tracing:
            self.note(run, scope, {"in": self.items.text, "count": len(items)})
        run.depth += 1
        try:
            for i, item in enumerate(items):
                scope[self.name] = item
                if self.index:
                    scope[self.index] = i
                try:
                    run_block(run, self.body, scope)
                except BreakLoop:
                    break
        finally:
            run.depth -= 1


class IfStep(Step):
    """``if: EXPR, then: [...], else: [...]``."""

    kind = "if"
    keys = ("then", "else")

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        self.cond = c.expr(node, "if")
        self.then = c.block(node, "then")
        self.otherwise = c.block(node, "else")
        if "then" not in node and "else" not in node:
            c.error("`if` needs `then:` and/or `else:` steps", self.location)
        self.trace_only = self.then.trace_only and self.otherwise.trace_only

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        taken = bool(run.evaluator.eval(self.cond, scope))
        if run.tracing:
            self.note(run, scope, {"condition": self.cond.text, "value": taken})
        run_block(run, self.then if taken else self.otherwise, scope)


class RepeatStep(Step):
    """``repeat: {as: round, until: EXPR, while: EXPR, max: EXPR, do: [...]}``."""

    kind = "repeat"

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        body = node["repeat"]
        if not isinstance(body, Mapping) or "do" not in body:
            c.error("`repeat` takes {as: round, until: COND, max: N, do: [steps]}", self.location)
            body = {"do": []}
        self.name = c.bind(body, "as")
        self.until = c.expr(body, "until") if "until" in body else None
        self.while_ = c.expr(body, "while") if "while" in body else None
        self.max = c.expr(body, "max") if "max" in body else None
        if self.until is None and self.while_ is None and self.max is None:
            c.error("`repeat` needs `until:`, `while:` or `max:`, or it would never end",
                    self.location, hint="e.g. until: 'battle.over'")
        self.body = c.block(body, "do")

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        limit = run.limits.max_rounds
        bound = int(run.evaluator.eval(self.max, scope)) if self.max is not None else None
        n = 0
        run.depth += 1
        try:
            while True:
                if bound is not None and n >= bound:
                    break
                if self.while_ is not None and not run.evaluator.eval(self.while_, scope):
                    break
                n += 1
                if n > limit:
                    raise LimitError(
                        f"`repeat` ran {limit} times without ending",
                        location=self.location,
                        hint="check its `until:`/`while:` condition, or set `max:`; "
                             "limits.max_rounds raises the bound",
                    )
                if self.name:
                    scope[self.name] = n
                try:
                    run_block(run, self.body, scope)
                except BreakLoop:
                    break
                if self.until is not None and run.evaluator.eval(self.until, scope):
                    break
        finally:
            run.depth -= 1
        self.note(run, scope, {"passes": n})


class DecideStep(Step):
    """``decide: ID, for: WHO, range|options|type, default: EXPR, as: name``."""

    kind = "decide"
    keys = ("for", "range", "options", "type", "default", "as")

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        self.id = str(node["decide"])
        c.message_keys.add(f"decision.{self.id}")
        self.subject = c.expr(node, "for") if "for" in node else None
        self.range = None
        if "range" in node:
            rng = node["range"]
            if isinstance(rng, list) and len(rng) == 2:
                self.range = (c.expr(rng, 0), c.expr(rng, 1))
            else:
                c.error("`range` takes [lowest, highest]", c.where(node, "range"))
        self.options: list[Any] | Expr | None = None
        if "options" in node:
            opts = node["options"]
            if isinstance(opts, list) and opts:
                self.options = [o for o in opts]
            elif isinstance(opts, str):
                self.options = c.expr(node, "options")
            else:
                c.error("`options` takes a list of choices", c.where(node, "options"))
        self.type = node.get("type", "int" if self.range else "option" if self.options else "any")
        self.default = c.expr(node, "default") if "default" in node else None
        self.target = c.bind(node, "as") or self.id
        c.define(self.target)
        c.decisions[self.id] = self

    def choices(self, run: Run, scope: dict[str, Any]) -> list[Any] | None:
        if self.options is None:
            return None
        if isinstance(self.options, Expr):
            return list(run.evaluator.eval(self.options, scope))
        return self.options

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        value, values = decide(self, run, scope)
        scope[self.target] = value
        if run.tracing:
            self.emit(run, scope, values)


class UpdateStep(Step):
    """``update: ENTITY (or a list), set: {field: expr}, add: {field: expr}``."""

    kind = "update"
    keys = ("set", "add")

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        self.entity = c.expr(node, "update")
        with c.scope(*c.all_field_names()):
            self.set = c.expr_map(node, "set") if "set" in node else {}
            self.add = c.expr_map(node, "add") if "add" in node else {}
        if not self.set and not self.add:
            c.error("`update` needs `set:` and/or `add:`", self.location)
        #: Every name the expressions read is the procedure's own (or a constant): they need
        #: no view of the entity's fields.
        self.local = all(c.is_known(name) for expr in (*self.set.values(), *self.add.values())
                         for name in expr.names)
        #: the kinds of entity whose fields the step was checked to have
        self.kinds: set[str] = set()
        #: where each changed field is named
        self.places = {str(name): c.where(node[key], name)
                       for key in ("set", "add") if isinstance(node.get(key), Mapping)
                       for name in node[key]}

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        target = run.evaluator.eval(self.entity, scope)
        targets = target if isinstance(target, (list, tuple)) else (target,)
        evaluator = run.evaluator
        for entity in targets:
            if not isinstance(entity, Entity):
                raise StratagemError(
                    f"`update: {self.entity.text}` must name an entity, got {entity!r}",
                    location=self.location)
            if entity._kind.name not in self.kinds:
                self._check_kind(entity)
            inner = scope if self.local else _EntityOverlay(scope, entity)
            new = [(name, evaluator.eval(expr, inner)) for name, expr in self.set.items()]
            for name, expr in self.add.items():
                new.append((name, read_member(entity, name) + evaluator.eval(expr, inner)))
            if not run.tracing:
                for name, value in new:
                    entity.set(name, value)
                continue
            changes = {}
            for name, value in new:
                changes[name] = [entity._f.get(name), value]
                entity.set(name, value)
            self.emit(run, scope, {"entity": entity, "changes": changes},
                      params={"entity": entity, **{k: v[1] for k, v in changes.items()}})

    def _check_kind(self, entity: Entity) -> None:
        """Every field the step changes is one of this kind of entity's (checked once per
        kind)."""
        declared = entity.declaration
        for name in (*self.set, *self.add):
            if name not in declared.fields and name not in declared.children:
                raise StratagemError(
                    f"a {entity.kind_name} has no field '{name}' to update",
                    location=self.places.get(name) or self.location,
                    hint=closest(name, declared.fields)
                    or f"the fields of a {entity.kind_name}: {', '.join(declared.fields)}")
        self.kinds.add(entity.kind_name)


@mypyc_attr(native_class=False)
class _EntityOverlay(dict):  # type: ignore[type-arg]
    """Scope for `update` expressions: the step's names, then the entity's members (the
    constants come before these: expressions read them first, see expr/compiled.py)."""

    __slots__ = ("_entity",)

    def __init__(self, scope: Mapping[str, Any], entity: Entity) -> None:
        super().__init__(scope)
        self._entity = entity

    def __missing__(self, name: str) -> Any:
        return EntityScope(self._entity)[name]


class CreateStep(Step):
    """``create: {in: ENTITY, collection: NAME, copy: ENTITY, set: {...}}, as: name``."""

    kind = "create"
    keys = ("as",)

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        body = node["create"]
        if not isinstance(body, Mapping) or "in" not in body or "collection" not in body:
            c.error("`create` takes {in: PARENT, collection: NAME, copy: ENTITY, set: {...}}",
                    self.location)
            body = {"in": "battle", "collection": "x"}
        self.parent = c.expr(body, "in")
        self.collection = str(body["collection"])
        self.copy = c.expr(body, "copy") if "copy" in body else None
        self.set = c.expr_map(body, "set") if "set" in body else {}
        self.target = c.bind(node, "as")

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        parent = run.evaluator.eval(self.parent, scope)
        if not isinstance(parent, Entity) or self.collection not in parent.declaration.children:
            raise StratagemError(
                f"`create`: {parent!r} has no collection '{self.collection}'",
                location=self.location)
        kind = run.ruleset.kinds[parent.declaration.children[self.collection]]
        if self.copy is not None:
            source = run.evaluator.eval(self.copy, scope)
            entity = source.clone(parent)
        else:
            entity = run.ruleset.new_entity(kind, {}, parent)
        for name, expr in self.set.items():
            if name not in kind.fields:
                raise StratagemError(f"a {kind.name} has no field '{name}'",
                                     location=self.location)
            entity._f[name] = run.evaluator.eval(expr, scope)
        parent.adopt(self.collection, entity)
        if self.target:
            scope[self.target] = entity
        self.emit(run, scope, {"entity": entity, "in": parent}, params={"entity": entity})


class EmitStep(Step):
    """``emit: KEY, with: {...}`` — a localised message in the trace."""

    kind = "emit"
    trace_only = True

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        self.key = str(node["emit"])
        c.message_keys.add(self.key)

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        self.emit(run, scope, {}, key=self.key)


class CallStep(Step):
    """``call: PROCEDURE, with: {param: expr}, as: name``."""

    kind = "call"
    keys = ("as",)

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        self.procedure = c.procedure_ref(node, "call")
        self.args = c.expr_map(node, "with") if "with" in node else {}
        self.target = c.bind(node, "as")
        params = c.procedure_params.get(self.procedure)
        if params is not None:
            self._check_args(c, node, params)

    def _check_args(self, c: Compiler, node: Mapping[str, Any], params: list[str]) -> None:
        missing = [p for p in params if p not in self.args]
        if missing:
            c.error(f"procedure '{self.procedure}' needs {', '.join(missing)}",
                    c.where(node, "with") if "with" in node else self.location,
                    hint="pass " + ("it" if len(missing) == 1 else "them") + " with `with:`, "
                         f"e.g. with: {{{missing[0]}: ...}}")
        for name in self.args:
            if name not in params:
                c.error(f"procedure '{self.procedure}' takes no parameter '{name}'",
                        c.where(node["with"], name),
                        hint=closest(name, params) or (
                            "its parameters: " + ", ".join(params) if params
                            else "it takes none"))

    def finish(self, c: Compiler, node: Mapping[str, Any]) -> None:
        """For `call`, `with:` holds the arguments (compiled before `as:` binds)."""

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        ruleset = run.ruleset
        args: dict[str, Any] = {}
        evaluator = run.evaluator
        for name, expr in self.args.items():
            args[name] = evaluator.eval(expr, scope)
        result = ruleset.enter(run, ruleset.procedures[self.procedure], args, self.location)
        if self.target:
            scope[self.target] = result
        if run.tracing:
            self.note(run, scope, {"procedure": self.procedure, "result": result})


class ReturnStep(Step):
    kind = "return"

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        self.value = c.expr(node, "return") if node["return"] is not None else None

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        value = run.evaluator.eval(self.value, scope) if self.value is not None else None
        if run.tracing:
            self.note(run, scope, {"value": value})
        raise Return(value)


class BreakStep(Step):
    kind = "break"

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        self.note(run, scope, {})
        raise BreakLoop()


class RequireStep(Step):
    """``require: EXPR, message: KEY`` — a rule the scenario must meet."""

    kind = "require"
    keys = ("message", "at")

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        self.cond = c.expr(node, "require")
        self.blame = c.expr(node, "at") if "at" in node else None
        self.message = str(node.get("message") or "")
        if self.message:
            c.message_keys.add(self.message)

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        if run.evaluator.eval(self.cond, scope):
            if run.tracing:
                run.record(self, {"rule": self.cond.text, "holds": True}, level="quiet")
            return
        params = {name: run.evaluator.eval(expr, scope) for name, expr in self.params.items()}
        text = run.ruleset.translate(self.message, params, run.lang) if self.message else None
        location = self.location
        if self.blame is not None:
            culprit = run.evaluator.eval(self.blame, scope)
            if isinstance(culprit, Entity) and culprit.origin is not None:
                location = culprit.origin
        raise StratagemError(text or f"the scenario breaks a rule of this ruleset: "
                                     f"{self.cond.text}", location=location,
                             hint=f"change the scenario so that the rule holds "
                                  f"(`{self.cond.text}`, {self.location or 'the ruleset'})")


SAFE_RESULT_TYPES.update({CheckResult, ContestResult, Label})

STEPS: dict[str, type[Step]] = {
    cls.kind: cls
    for cls in (SetStep, RollStep, CheckStep, ContestStep, LookupStep, ForEachStep, IfStep,
                RepeatStep, DecideStep, UpdateStep, CreateStep, EmitStep, CallStep, ReturnStep,
                BreakStep, RequireStep)
}

__all__ = ["STEPS", "Block", "CheckResult", "ContestResult", "Label", "Step", "run_block"]
