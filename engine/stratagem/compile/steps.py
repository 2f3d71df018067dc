"""Compiling steps: a table from step key to the function that turns the YAML of one step
into its frozen record (``stratagem.model.steps``).

A step is a map with one *step key* (``set``, ``roll``, ``check``, ...) and optional common
keys (``when``, ``event``, ``with``, ``level``, ``id``, ``note``). Compiling checks
everything it can (expressions, dice, table and procedure names, names in scope, `break`
outside a loop) so a mistake is a load error with its position.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from stratagem.errors import Location
from stratagem.expr import Expr
from stratagem.model.steps import (
    BreakStep,
    CallStep,
    CheckSpec,
    CheckStep,
    ContestStep,
    CreateStep,
    DecideStep,
    EmitStep,
    ForEachStep,
    IfStep,
    LookupStep,
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
from stratagem.model.values import closest

if TYPE_CHECKING:
    from stratagem.compile.compiler import Compiler

COMMON_KEYS = ("when", "event", "with", "level", "id", "note")
Node = Mapping[str, Any]


def common(c: Compiler, node: Node, kind: str) -> dict[str, Any]:
    """The common keys of a step, compiled (``with:`` is compiled last: see ``finish``)."""
    location = c.where(node, kind)
    level = node.get("level", "detail")
    if level not in ("summary", "detail", "quiet"):
        c.error(f"level must be 'summary', 'detail' or 'quiet', not '{level}'",
                c.where(node, "level"),
                key="compile.level", level=level)
    event = node.get("event")
    if event:
        c.message_keys.add(str(event))
    return {"location": location, "at": _short(location),
            "when": c.expr(node, "when") if "when" in node else None,
            "event": event, "level": level}


def finish(c: Compiler, node: Node) -> dict[str, Expr]:
    """``with:``, compiled after the step binds its own names (it may read them)."""
    return c.expr_map(node, "with") if "with" in node else {}


def _short(loc: Location | None) -> str | None:
    """``file:line`` as the trace shows it: a shipped ruleset's file from its own folder,
    the same from a checkout (a relative path or not) and from an installed wheel."""
    if loc is None or not loc.file:
        return None
    name = os.path.normpath(loc.file).replace("\\", "/")
    name = _RULESETS.split(name)[-1]
    return f"{name}:{loc.line}" if loc.line else name


_RULESETS = re.compile(r"(?:^|/)rulesets/")


def compile_set(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    body = node["set"]
    if not isinstance(body, Mapping) or not body:
        c.error("`set` takes a map of names to expressions, e.g. set: {bonus: 'x + 1'}",
                base["location"],
                key="compile.set_shape")
        body = {}
    values = []
    for name in body:
        c.check_name(name, c.where(body, name))
        values.append((str(name), c.expr(body, name)))
        c.define(str(name))
    return SetStep(**base, params=finish(c, node), values=tuple(values))


def compile_roll(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    dice = c.dice_spec(node, "roll")
    subject = c.expr(node, "for") if "for" in node else None
    label = str(node.get("label") or node.get("as") or "roll")
    target = c.bind(node, "as")
    values_as = c.bind(node, "values_as")
    return RollStep(**base, params=finish(c, node), dice=dice, subject=subject, label=label,
                    target=target, values_as=values_as)


def check_spec(c: Compiler, node: Node, owner: Node) -> CheckSpec:
    type_ = node.get("type", "under")
    if type_ not in ("under", "over"):
        c.error(f"check type must be 'under' or 'over', not '{type_}'", c.where(node, "type"),
                key="compile.check_type", type=type_)
    dice = c.dice_spec(node, "roll")
    target = c.expr(node, "target") if "target" in node else None
    bonus = c.expr(node, "bonus") if "bonus" in node else None
    subject = c.expr(node, "for") if "for" in node else None
    with c.scope("roll", "target", "margin"):
        crit_success = (c.expr(owner, "critical_success")
                        if "critical_success" in owner else None)
        crit_failure = (c.expr(owner, "critical_failure")
                        if "critical_failure" in owner else None)
    return CheckSpec(dice, target, bonus, str(type_), subject, crit_success, crit_failure,
                     str(node.get("label") or owner.get("as") or "check"))


def compile_check(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    body = node["check"]
    if not isinstance(body, Mapping):
        c.error("`check` takes a map: {roll: '3d', target: 'skill', type: under}",
                base["location"],
                key="compile.check_shape")
        body = {"roll": "1", "target": 0}
    spec = check_spec(c, body, node)
    target = c.bind(node, "as")
    return CheckStep(**base, params=finish(c, node), spec=spec, target=target)


def compile_contest(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    body = node["contest"]
    if not isinstance(body, Mapping) or "a" not in body or "b" not in body:
        c.error("`contest` needs two sides: {a: {roll: ..}, b: {roll: ..}}", base["location"],
                key="compile.contest_shape")
        body = {"a": {"roll": "1"}, "b": {"roll": "1"}}
    a = check_spec(c, body["a"], {})
    b = check_spec(c, body["b"], {})
    compare = body.get("compare", "margin")
    tie = body.get("tie", "draw")
    if compare not in ("margin", "total"):
        c.error("contest compare must be 'margin' or 'total'", c.where(body, "compare"),
                key="compile.contest_compare")
    if tie not in ("draw", "reroll"):
        c.error("contest tie must be 'draw' or 'reroll'", c.where(body, "tie"),
                key="compile.contest_tie")
    target = c.bind(node, "as")
    return ContestStep(**base, params=finish(c, node), a=a, b=b, compare=str(compare),
                       tie=str(tie), target=target)


def compile_lookup(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    table = c.table_ref(node, "lookup")
    keys: list[Expr] = []
    if "keys" in node:
        raw = node["keys"]
        keys = [c.expr(raw, i) for i in range(len(raw))] if isinstance(raw, list) else []
    elif "key" in node:
        keys = [c.expr(node, "key")]
    else:
        c.error("`lookup` needs `key:` (or `keys:` for a matrix)", base["location"],
                key="compile.lookup_key")
    shift = c.expr(node, "shift") if "shift" in node else None
    target = c.bind(node, "as")
    c.bind_row(target, table)
    return LookupStep(**base, params=finish(c, node), table=table, keys=tuple(keys),
                      shift=shift, target=target)


def compile_for_each(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    body = node["for_each"]
    if not isinstance(body, Mapping) or "in" not in body or "do" not in body:
        c.error("`for_each` takes {in: LIST, as: name, do: [steps]}", base["location"],
                key="compile.for_each_shape")
        body = {"in": "[]", "as": "item", "do": []}
    items = c.expr(body, "in")
    name = c.bind(body, "as") or "item"
    c.bind_items(name, items)
    index = c.bind(body, "index")
    with c.loop():
        steps = c.block(body, "do")
    return ForEachStep(**base, params=finish(c, node), items=items, name=name, index=index,
                       body=steps)


def compile_if(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    cond = c.expr(node, "if")
    then = c.block(node, "then")
    otherwise = c.block(node, "else")
    if "then" not in node and "else" not in node:
        c.error("`if` needs `then:` and/or `else:` steps", base["location"],
                key="compile.if_shape")
    base["trace_only"] = then.trace_only and otherwise.trace_only
    return IfStep(**base, params=finish(c, node), cond=cond, then=then, otherwise=otherwise)


def compile_repeat(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    body = node["repeat"]
    if not isinstance(body, Mapping) or "do" not in body:
        c.error("`repeat` takes {as: round, until: COND, max: N, do: [steps]}",
                base["location"],
                key="compile.repeat_shape")
        body = {"do": []}
    name = c.bind(body, "as")
    until = c.expr(body, "until") if "until" in body else None
    while_ = c.expr(body, "while") if "while" in body else None
    max_ = c.expr(body, "max") if "max" in body else None
    if until is None and while_ is None and max_ is None:
        c.error("`repeat` needs `until:`, `while:` or `max:`, or it would never end",
                base["location"], hint="e.g. until: 'battle.over'",
                key="compile.repeat_endless")
    with c.loop():
        steps = c.block(body, "do")
    report = body.get("report", False)  # true, or the key of the message heading each round
    heading = str(report) if isinstance(report, str) else None
    if heading:
        c.message_keys.add(heading)
    return RepeatStep(**base, params=finish(c, node), name=name, until=until, while_=while_,
                      max=max_, body=steps, report=bool(report), heading=heading)


def compile_decide(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    id_ = str(node["decide"])
    c.message_keys.add(f"decision.{id_}")
    subject = c.expr(node, "for") if "for" in node else None
    range_ = None
    if "range" in node:
        rng = node["range"]
        if isinstance(rng, list) and len(rng) == 2:
            range_ = (c.expr(rng, 0), c.expr(rng, 1))
        else:
            c.error("`range` takes [lowest, highest]", c.where(node, "range"),
                    key="compile.range_shape")
    options: list[Any] | Expr | None = None
    if "options" in node:
        opts = node["options"]
        if isinstance(opts, list) and opts:
            options = list(opts)
        elif isinstance(opts, str):
            options = c.expr(node, "options")
        else:
            c.error("`options` takes a list of choices", c.where(node, "options"),
                    key="compile.options_shape")
    type_ = str(node.get("type", "int" if range_ else "option" if options else "any"))
    default = c.expr(node, "default") if "default" in node else None
    target = c.bind(node, "as") or id_
    c.define(target)
    step = DecideStep(**base, params=finish(c, node), id=id_, subject=subject, range=range_,
                      options=options, type=type_, default=default, target=target)
    c.decisions[id_] = step
    return step


def compile_update(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    entity = c.expr(node, "update")
    with c.scope(*c.all_field_names()):
        set_ = c.expr_map(node, "set") if "set" in node else {}
        add = c.expr_map(node, "add") if "add" in node else {}
    if not set_ and not add:
        c.error("`update` needs `set:` and/or `add:`", base["location"],
                key="compile.update_shape")
    local = all(c.is_known(name) for expr in (*set_.values(), *add.values())
                for name in expr.names)
    places = {str(name): c.where(node[key], name)
              for key in ("set", "add") if isinstance(node.get(key), Mapping)
              for name in node[key]}
    c.check_update(entity, places)
    return UpdateStep(**base, params=finish(c, node), entity=entity, assign=set_, add=add,
                      local=local, places=places)


def compile_create(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    body = node["create"]
    if not isinstance(body, Mapping) or "in" not in body or "collection" not in body:
        c.error("`create` takes {in: PARENT, collection: NAME, copy: ENTITY, set: {...}}",
                base["location"],
                key="compile.create_shape")
        body = {"in": "battle", "collection": "x"}
    parent = c.expr(body, "in")
    collection = str(body["collection"])
    copy = c.expr(body, "copy") if "copy" in body else None
    set_ = c.expr_map(body, "set") if "set" in body else {}
    target = c.bind(node, "as")
    places = {str(name): c.where(body["set"], name)
              for name in (body["set"] if isinstance(body.get("set"), Mapping) else ())}
    return CreateStep(**base, params=finish(c, node), parent=parent, collection=collection,
                      copy=copy, assign=set_, target=target, places=places)


def compile_emit(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    key = str(node["emit"])
    c.message_keys.add(key)
    base["trace_only"] = True
    return EmitStep(**base, params=finish(c, node), key=key)


def compile_call(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    procedure, args = _called(c, node, "call", base["location"])
    target = c.bind(node, "as")  # `with:` holds the arguments, compiled before `as:` binds
    return CallStep(**base, procedure=procedure, args=args, target=target)


def _called(c: Compiler, node: Node, key: str, location: Location | None
            ) -> tuple[str, dict[str, Expr]]:
    """The procedure a step calls (`call`, `schedule`) and its arguments, checked."""
    procedure = c.procedure_ref(node, key)
    args = c.expr_map(node, "with") if "with" in node else {}
    params = c.procedure_params.get(procedure)
    if params is not None:
        _check_args(c, node, procedure, args, params, location)
    c.note_call(procedure, args)
    return procedure, args


def _check_args(c: Compiler, node: Node, procedure: str, args: Mapping[str, Expr],
                params: list[str], location: Location | None) -> None:
    missing = [p for p in params if p not in args]
    if missing:
        c.error(f"procedure '{procedure}' needs {', '.join(missing)}",
                c.where(node, "with") if "with" in node else location,
                hint="pass " + ("it" if len(missing) == 1 else "them") + " with `with:`, "
                     f"e.g. with: {{{missing[0]}: ...}}", key="compile.call_missing",
                procedure=procedure, missing=", ".join(missing), n=len(missing),
                first=missing[0])
    for name in args:
        if name not in params:
            c.error(f"procedure '{procedure}' takes no parameter '{name}'",
                    c.where(node["with"], name),
                    hint=closest(name, params) or (
                        "its parameters: " + ", ".join(params) if params else "it takes none"),
                    key="compile.call_unknown",
                    hint_key="compile.call_unknown.hint" if params else "compile.no_params.hint",
                    procedure=procedure, name=name, params=", ".join(params))


def compile_return(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    value = c.expr(node, "return") if node["return"] is not None else None
    return ReturnStep(**base, params=finish(c, node), value=value)


def compile_break(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    if not c.in_loop():
        c.error("`break` outside a loop", base["location"],
                hint="`break` leaves the innermost `for_each` or `repeat`; "
                     "to leave a procedure, use `return`",
                key="compile.break_outside")
    return BreakStep(**base, params=finish(c, node))


def compile_require(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    cond = c.expr(node, "require")
    blame = c.expr(node, "at") if "at" in node else None
    message = str(node.get("message") or "")
    if message:
        c.message_keys.add(message)
    return RequireStep(**base, params=finish(c, node), cond=cond, blame=blame, message=message)


def compile_schedule(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    procedure, args = _called(c, node, "schedule", base["location"])
    after = c.expr(node, "after") if "after" in node else None
    if after is None:
        c.error("`schedule` needs `after:`, how many calendar units from now",
                base["location"], hint="e.g. after: months, unit: month",
                key="compile.schedule_after")
    campaign = c.doc.get("campaign")
    calendar = campaign.get("calendar") if isinstance(campaign, Mapping) else None
    units = calendar if isinstance(calendar, Mapping) else {}
    unit = str(node.get("unit") or "day")
    if unit != "day" and unit not in units:
        c.error(f"the calendar has no unit '{unit}'", c.where(node, "unit"),
                hint=closest(unit, units) or "declare it under `campaign: {calendar: {UNIT: "
                "DAYS}}`",
                key="compile.calendar_unit", unit=unit)
    return ScheduleStep(**base, params=finish(c, node), procedure=procedure, after=after,
                        unit=unit, args=args)


def compile_remove(c: Compiler, node: Node, base: dict[str, Any]) -> Step:
    return RemoveStep(**base, params=finish(c, node), entity=c.expr(node, "remove"))


@dataclass(frozen=True)
class StepForm:
    """How one step is written: its options besides the common keys, its compiler, and
    the values it hands to its message (``event:``, an `emit`'s key, a `require`'s
    ``message:``) besides its ``with:`` (a `set` also hands the names it sets, an
    `update` the fields it changes)."""

    keys: tuple[str, ...]
    compile: Callable[[Compiler, Node, dict[str, Any]], Step]
    hands: tuple[str, ...] = ()


_ROLL = ("dice", "total", "text", "values", "percent", "for")

#: step key -> its options, the function that compiles it, what it hands to its message
STEPS: dict[str, StepForm] = {
    "set": StepForm((), compile_set),
    "roll": StepForm(("as", "values_as", "for", "label"), compile_roll, _ROLL),
    "check": StepForm(("as", "critical_success", "critical_failure"), compile_check,
                      (*_ROLL, "target", "margin", "success", "critical")),
    "contest": StepForm(("as",), compile_contest,
                        ("a", "b", "winner", "difference", "a_for", "b_for", "a_plural",
                         "b_plural")),
    "lookup": StepForm(("key", "keys", "shift", "as"), compile_lookup,
                       ("table", "key", "row", "shift")),
    "for_each": StepForm((), compile_for_each, ("in", "count")),
    "if": StepForm(("then", "else"), compile_if, ("condition", "value")),
    "repeat": StepForm((), compile_repeat, ("passes",)),
    "decide": StepForm(("for", "range", "options", "type", "default", "as"), compile_decide,
                       ("decision", "value", "source", "for", "reason", "reason_params")),
    "update": StepForm(("set", "add"), compile_update, ("entity", "changes")),
    "create": StepForm(("as",), compile_create, ("entity", "in")),
    "emit": StepForm((), compile_emit),
    "call": StepForm(("as",), compile_call, ("procedure", "result")),
    "return": StepForm((), compile_return, ("value",)),
    "break": StepForm((), compile_break),
    "require": StepForm(("message", "at"), compile_require),
    "schedule": StepForm(("after", "unit"), compile_schedule,
                         ("procedure", "after", "unit", "args")),
    "remove": StepForm((), compile_remove, ("entity", "from")),
}
