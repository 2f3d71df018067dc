"""Procedures as plain data: one frozen record per step, made by ``stratagem.compile.steps``
from a rule file and run by ``stratagem.interp.steps`` (a table from record type to the
function that runs it). A record holds only what compiling found: expressions parsed,
dice parsed, names bound, tables and procedures resolved; it never changes after.

Every record carries the common keys (``when``, ``event``, ``with``, ``level``): see the
step vocabulary in docs/ruleset-reference.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stratagem.errors import Location
from stratagem.expr import Expr


@dataclass(frozen=True)
class Dice:
    """A dice expression in a step: a literal parsed at load, or ``{from: EXPR}`` read when
    the step runs (then parsed in the ruleset's ``dialect``)."""

    dialect: Any = None
    literal: Any = None
    source: Expr | None = None
    #: the names a literal reads, each as the expression that reads it
    names: dict[str, Expr] = field(default_factory=dict)
    #: names met in dice taken from tables or values, parsed once (filled while running)
    found: dict[str, Expr] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """What every step has: where it is, its condition, its message and parameters."""

    location: Location | None = None
    #: ``file:line`` as the trace shows it
    at: str | None = None
    when: Expr | None = None
    event: str | None = None
    level: str = "detail"
    #: ``with:``: the message's parameters
    params: dict[str, Expr] = field(default_factory=dict)
    #: the step only adds to the trace: a battle fought without one skips it
    trace_only: bool = False


@dataclass(frozen=True)
class Block:
    """The steps of a procedure or a branch, and (``untraced``) the same without the steps
    that only add to the trace."""

    steps: tuple[Step, ...] = ()
    untraced: tuple[Step, ...] = ()
    #: the block only adds to the trace
    trace_only: bool = True


def block(steps: list[Step] | tuple[Step, ...] = ()) -> Block:
    untraced = tuple(step for step in steps if not step.trace_only)
    return Block(tuple(steps), untraced, not untraced)


@dataclass(frozen=True)
class Procedure:
    name: str
    params: list[str]
    steps: Block
    location: Location | None


@dataclass(frozen=True)
class SetStep(Step):
    """``set: {name: expr, ...}``: bind local values in order."""

    values: tuple[tuple[str, Expr], ...] = ()


@dataclass(frozen=True)
class RollStep(Step):
    """``roll: DICE`` (or ``roll: {from: EXPR}``) ``as: name``: roll dice, bind the total."""

    dice: Dice = field(default_factory=Dice)
    subject: Expr | None = None
    label: str = "roll"
    target: str | None = None
    values_as: str | None = None


@dataclass(frozen=True)
class CheckSpec:
    """A roll against a target (``check``, and each side of a ``contest``)."""

    dice: Dice = field(default_factory=Dice)
    target: Expr | None = None
    bonus: Expr | None = None
    type: str = "under"
    subject: Expr | None = None
    crit_success: Expr | None = None
    crit_failure: Expr | None = None
    label: str = "check"


@dataclass(frozen=True)
class CheckStep(Step):
    """``check: {roll, target, type}``: success, margin and criticals."""

    spec: CheckSpec = field(default_factory=CheckSpec)
    target: str | None = None


@dataclass(frozen=True)
class ContestStep(Step):
    """``contest: {a: CHECK, b: CHECK, compare: margin|total, tie: draw|reroll}``."""

    a: CheckSpec = field(default_factory=CheckSpec)
    b: CheckSpec = field(default_factory=CheckSpec)
    compare: str = "margin"
    tie: str = "draw"
    target: str | None = None


@dataclass(frozen=True)
class LookupStep(Step):
    """``lookup: TABLE, key: EXPR (or keys: [..]), shift: EXPR, as: row``."""

    table: str = ""
    keys: tuple[Expr, ...] = ()
    shift: Expr | None = None
    target: str | None = None


@dataclass(frozen=True)
class ForEachStep(Step):
    """``for_each: {in: EXPR, as: name, index: i, do: [...]}``."""

    items: Expr | None = None
    name: str = "item"
    index: str | None = None
    body: Block = field(default_factory=Block)


@dataclass(frozen=True)
class IfStep(Step):
    """``if: EXPR, then: [...], else: [...]``."""

    cond: Expr | None = None
    then: Block = field(default_factory=Block)
    otherwise: Block = field(default_factory=Block)


@dataclass(frozen=True)
class RepeatStep(Step):
    """``repeat: {as: round, until: EXPR, while: EXPR, max: EXPR, report: KEY, do: [...]}``.

    With ``report: true`` (or ``report: KEY``, the message that heads each round) the passes
    are the battle's rounds in reports (``interp.steps.run_repeat``)."""

    name: str | None = None
    until: Expr | None = None
    while_: Expr | None = None
    max: Expr | None = None
    body: Block = field(default_factory=Block)
    report: bool = False
    heading: str | None = None


@dataclass(frozen=True)
class DecideStep(Step):
    """``decide: ID, for: WHO, range|options|type, default: EXPR, as: name``."""

    id: str = ""
    subject: Expr | None = None
    range: tuple[Expr, Expr] | None = None
    #: a list of choices, or the expression that gives them
    options: list[Any] | Expr | None = None
    type: str = "any"
    default: Expr | None = None
    target: str = ""


@dataclass(frozen=True)
class UpdateStep(Step):
    """``update: ENTITY (or a list), set: {field: expr}, add: {field: expr}``."""

    entity: Expr | None = None
    #: `set:`, the fields given new values
    assign: dict[str, Expr] = field(default_factory=dict)
    add: dict[str, Expr] = field(default_factory=dict)
    #: every name the expressions read is the procedure's own (or a constant)
    local: bool = False
    #: the kinds of entity whose fields the step was checked to have (filled while running)
    kinds: set[str] = field(default_factory=set)
    #: where each changed field is named
    places: dict[str, Location | None] = field(default_factory=dict)


@dataclass(frozen=True)
class CreateStep(Step):
    """``create: {in: ENTITY, collection: NAME, copy: ENTITY, set: {...}}, as: name``."""

    parent: Expr | None = None
    collection: str = ""
    copy: Expr | None = None
    #: `set:`, the fields given new values
    assign: dict[str, Expr] = field(default_factory=dict)
    target: str | None = None
    #: where each field is named
    places: dict[str, Location | None] = field(default_factory=dict)


@dataclass(frozen=True)
class EmitStep(Step):
    """``emit: KEY, with: {...}``: a localised message in the trace."""

    key: str = ""


@dataclass(frozen=True)
class CallStep(Step):
    """``call: PROCEDURE, with: {param: expr}, as: name``."""

    procedure: str = ""
    args: dict[str, Expr] = field(default_factory=dict)
    target: str | None = None


@dataclass(frozen=True)
class ReturnStep(Step):
    """``return: EXPR``: leave the procedure with a value."""

    value: Expr | None = None


@dataclass(frozen=True)
class BreakStep(Step):
    """``break:``: leave the innermost loop."""



@dataclass(frozen=True)
class RequireStep(Step):
    """``require: EXPR, message: KEY``: a rule the scenario must meet."""

    cond: Expr | None = None
    blame: Expr | None = None
    message: str = ""


# -- what outlasts a battle (campaigns: docs/campaign.md) -----------------------------------
@dataclass(frozen=True)
class ScheduleStep(Step):
    """``schedule: PROCEDURE, after: EXPR, unit: UNIT, with: {param: expr}``: call the
    procedure later on a campaign's calendar (a battle only records it in its trace)."""

    procedure: str = ""
    after: Expr | None = None
    unit: str = "day"
    args: dict[str, Expr] = field(default_factory=dict)


@dataclass(frozen=True)
class RemoveStep(Step):
    """``remove: ENTITY`` (or a list): take entities out of the collections holding them."""

    entity: Expr | None = None


#: The step key each record is written with (the trace names a step by it). A table, not
#: a class attribute: mypyc compiles the records to native classes, where a class-level
#: `kind` would be an attribute the dataclass __init__ cannot set.
KIND: dict[type, str] = {
    SetStep: "set",
    RollStep: "roll",
    CheckStep: "check",
    ContestStep: "contest",
    LookupStep: "lookup",
    ForEachStep: "for_each",
    IfStep: "if",
    RepeatStep: "repeat",
    DecideStep: "decide",
    UpdateStep: "update",
    CreateStep: "create",
    EmitStep: "emit",
    CallStep: "call",
    ReturnStep: "return",
    BreakStep: "break",
    RequireStep: "require",
    ScheduleStep: "schedule",
    RemoveStep: "remove",
}
