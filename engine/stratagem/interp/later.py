"""Steps for what outlasts one battle: ``schedule`` (something to happen later on the
campaign's calendar) and ``remove`` (an entity leaves its collection, e.g. a force split off
for the battle merging back into the one it came from).

A battle records what it schedules in its trace and nothing else: `stratagem battle` shows
it, `stratagem campaign fight` reads it from the trace and writes it to the campaign file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from stratagem.errors import StratagemError
from stratagem.interp.context import Run
from stratagem.interp.steps import CallStep, Step
from stratagem.model.entities import Entity
from stratagem.model.values import closest

if TYPE_CHECKING:
    from stratagem.model.compiler import Compiler


class ScheduleStep(CallStep):
    """``schedule: PROCEDURE, after: EXPR, unit: UNIT, with: {param: expr}`` — call the
    procedure later, ``after`` calendar units from now (``unit`` names one of the ruleset's
    `campaign.calendar` units). The arguments are evaluated now."""

    kind = "schedule"
    keys: ClassVar[tuple[str, ...]] = ("after", "unit")

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        Step.__init__(self, c, node)
        self.procedure = c.procedure_ref(node, "schedule")
        self.args = c.expr_map(node, "with") if "with" in node else {}
        self.target = None
        self.after = c.expr(node, "after") if "after" in node else None
        if self.after is None:
            c.error("`schedule` needs `after:`, how many calendar units from now",
                    self.location, hint="e.g. after: months, unit: month")
        calendar = (c.doc.get("campaign") or {}).get("calendar") or {}
        self.unit = str(node.get("unit") or "day")
        if self.unit not in calendar and self.unit != "day":
            c.error(f"the calendar has no unit '{self.unit}'", c.where(node, "unit"),
                    hint=closest(self.unit, calendar) or
                    "declare it under `campaign: {calendar: {UNIT: DAYS}}`")
        params = c.procedure_params.get(self.procedure)
        if params is not None:
            self._check_args(c, node, params)

    def finish(self, c: Compiler, node: Mapping[str, Any]) -> None:
        Step.finish(self, c, node)

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        if not run.tracing:
            return
        evaluator = run.evaluator
        after = evaluator.eval(self.after, scope) if self.after is not None else 0
        args = {name: evaluator.eval(expr, scope) for name, expr in self.args.items()}
        values = {"procedure": self.procedure, "after": after, "unit": self.unit, "args": args}
        if self.event:
            self.emit(run, scope, values)
        else:
            run.record(self, values, level=self.level if self.level != "detail" else "quiet")


class RemoveStep(Step):
    """``remove: ENTITY`` (or a list) — take entities out of the collections holding them."""

    kind = "remove"

    def __init__(self, c: Compiler, node: Mapping[str, Any]) -> None:
        super().__init__(c, node)
        self.entity = c.expr(node, "remove")

    def run(self, run: Run, scope: dict[str, Any]) -> None:
        found = run.evaluator.eval(self.entity, scope)
        targets = found if isinstance(found, (list, tuple)) else (found,)
        for entity in targets:
            parent = entity.parent if isinstance(entity, Entity) else None
            if not isinstance(parent, Entity):
                raise StratagemError(
                    f"`remove: {self.entity.text}` must name an entity in a collection, "
                    f"got {entity!r}", location=self.location)
            for coll, items in parent.children_of():
                if any(item is entity for item in items):
                    parent.set(coll, [item for item in items if item is not entity])
                    break
            self.emit(run, scope, {"entity": entity, "from": parent},
                      params={"entity": entity})


LATER_STEPS: dict[str, type[Step]] = {cls.kind: cls for cls in (ScheduleStep, RemoveStep)}
