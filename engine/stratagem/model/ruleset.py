"""A compiled ruleset: declarations, tables, formulas and procedures, ready to run.

A :class:`Ruleset` is built once by ``stratagem.compile`` (expressions parsed, tables
indexed, steps compiled into records) and reused across any number of battles; the
interpreter (``stratagem.interp``) runs its procedures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stratagem.errors import Location, StratagemError
from stratagem.expr import Evaluator, Expr, compile_expr
from stratagem.expr.bounds import DEFAULT_WORK
from stratagem.model.entities import OWN_READERS, Entity, EntityKind, read_member
from stratagem.model.steps import DecideStep, Procedure
from stratagem.model.tables import Row, Table
from stratagem.model.values import closest

TOP_LEVEL = (
    "kind", "id", "title", "description", "version", "extends", "include", "dice", "limits",
    "constants", "enums", "entities", "tables", "formulas", "procedures", "entry", "report",
    "notes", "setting", "locales", "outcome", "campaign",
)


@dataclass(frozen=True)
class RunLimits:
    """Bounds of one battle, owned by the host: a ruleset's `limits:` may lower any of them
    and raise it only up to its hard cap (:data:`RUN_CAPS`, a load error beyond).

    ``max_rounds``: passes of one `repeat`; ``max_steps``: steps of one battle;
    ``max_call_depth``: procedure calls and loops nested in one another (far below the
    Python stack); ``max_work``: items the expressions of one battle walk and build
    (comprehensions, repeated and joined lists, the functions that walk lists);
    ``max_trace``: events one battle's trace keeps (its values are bounded by the rest);
    ``max_entities``: entities one battle creates (`create`).
    """

    max_rounds: int = 1000
    max_steps: int = 1_000_000
    max_call_depth: int = 50
    max_work: int = DEFAULT_WORK
    max_trace: int = 100_000
    max_entities: int = 10_000


#: The most each limit may be raised to (docs/security.md, "Limits and caps").
RUN_CAPS: dict[str, int] = {
    "max_rounds": 100_000,
    "max_steps": 10_000_000,
    "max_call_depth": 100,
    "max_work": 50_000_000,
    "max_trace": 500_000,
    "max_entities": 100_000,
}


class Ruleset:
    """A loaded, compiled ruleset (or setting)."""

    def __init__(self) -> None:
        self.id = ""
        self.ref = ""
        self.path: str | None = None
        self.kinds: dict[str, EntityKind] = {}
        #: how many slots its derived values share: the versions a battle keeps
        #: (compile/readers.py)
        self.slot_count = 0
        #: whether a kind keeps a filtered collection item by item (``EntityKind.views``):
        #: then a battle keeps the list of its changes (``World.changes``; compile/readers.py)
        self.follows_changes = True
        self.tables: dict[str, Table] = {}
        self.constants: dict[str, Any] = {}
        self.procedures: dict[str, Procedure] = {}
        self.entry: dict[str, str] = {}
        self.report: dict[str, list[str]] = {}
        #: What `stratagem rate` shows per kind (`report.rate`), else the battle report's fields.
        self.rate_report: dict[str, list[str]] = {}
        #: What reports chart after each round of a `repeat` marked `report:`
        #: (`report.rounds`), and what `stratagem odds` summarises (`report.odds`).
        self.rounds_report: dict[str, list[str]] = {}
        self.odds_report: dict[str, list[str]] = {}
        #: Folders of templates that override or extend the shipped ones (most specific last).
        self.template_dirs: list[Path] = []
        self.notes: list[Any] = []
        self.limits = RunLimits()
        self.dialect: Any = None
        self.evaluator = Evaluator(attribute=read_member, own=OWN_READERS)
        self.decisions: dict[str, DecideStep] = {}
        self._message_keys: set[str] = set()
        #: language -> its locale files, base ruleset's first (set by ``load_ruleset``)
        self.locale_files: dict[str, list[Path]] = {}
        #: the settings and house rules merged over the base ruleset, base first
        self.overlays: list[str] = []
        self.doc: Mapping[str, Any] = {}
        self.outcome: Expr | None = None
        #: the JSON Schemas of its army and scenario files, made when first needed
        self.schemas: dict[str, dict[str, Any]] = {}
        #: its procedures as Python functions (``interp.codegen``), for runs with a trace
        #: (True) and without (False), made when first needed
        self.generated: dict[bool, Any] = {}

    # -- API used by steps, tests and commands ------------------------------------------
    def lookup(self, table: str, *keys: Any, shift: int = 0) -> Row:
        return self._table(table).lookup(*keys, shift=int(shift))

    def _table(self, name: object) -> Table:
        # `object`: an expression may hand any value (compiled, `str` would refuse it first)
        table = self.tables.get(name) if isinstance(name, str) else None
        if table is None:
            raise StratagemError(f"there is no table '{name}'", hint=closest(name, self.tables),
                                 key="run.no_table", params={"table": name})
        return table

    def evaluate(self, text: str, **names: Any) -> Any:
        return self.evaluator.eval(compile_expr(text), dict(names))

    def message_keys(self) -> set[str]:
        return set(self._message_keys)

    def new_entity(self, kind: EntityKind, values: Mapping[str, Any], parent: Entity | None,
                   origin: Location | None = None) -> Entity:
        data: dict[str, Any] = {}
        for name, spec in kind.fields.items():
            default = spec.default
            data[name] = list(default) if isinstance(default, list) else default
        for coll in kind.children:
            data[coll] = []
        data.update(values)
        return Entity(kind, data, parent, self, origin)

    def title(self) -> str:
        return str(self.doc.get("title") or self.id)


