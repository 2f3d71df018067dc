"""Static checks over a compiled ruleset: everything about names and calls that can be known
before a battle.

A small type inference follows what each name holds through the step records: an entity
of a kind (``battle``, ``self`` and ``parent`` in derived values, ``for_each`` over a
collection, ``as:`` of a ``create``, a procedure's parameters from what every `call` passes
them), a list of them, a table's row, a check's or contest's result. Wherever the kind is
known, every name read from it must be one of its fields, collections or derived values
(with a did-you-mean); a built-in or formula is called with as many values as it takes; an
enum field is compared with one of its values; ``label(enum, value)`` names a value that
exists; a table looked up with constant keys has that row. What cannot be known (a value
read from a list of mixed things, a formula's parameter) is left to the run, which reports
in the same format.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from stratagem.errors import Location, StratagemError, Term, Word, a_or_an, did_you_mean
from stratagem.expr import Expr
from stratagem.expr.calls import RULESET_SIGNATURES
from stratagem.model.entities import MAX_DERIVED_DEPTH, EntityKind
from stratagem.model.ruleset import Ruleset
from stratagem.model.steps import (
    Block,
    CallStep,
    CheckSpec,
    CheckStep,
    ContestStep,
    CreateStep,
    DecideStep,
    Dice,
    ForEachStep,
    IfStep,
    LookupStep,
    RepeatStep,
    RequireStep,
    ReturnStep,
    RollStep,
    SetStep,
    Step,
    UpdateStep,
)


#: What a name or value holds, when known: an entity of a kind, a list of it, a row of a
#: table, the result of a check or contest.
@dataclass(frozen=True)
class Type:
    what: str  # "entity", "list", "row", "check", "contest"
    name: str = ""  # the kind or table
    item: Type | None = None  # of a list

    def describe(self) -> str:
        if self.what == "entity":
            return a_or_an(self.name)
        if self.what == "row":
            return f"a row of table '{self.name}'"
        return f"a {self.what} result"


Env = dict[str, "Type | None"]

#: Names every entity answers besides its members.
ENTITY_NAMES = ("parent", "kind", "battle")
ROW_NAMES = ("index", "key", "table")
CHECK_NAMES = ("roll", "target", "margin", "success", "failure", "critical", "text")
CONTEST_NAMES = ("winner", "loser", "difference", "a", "b", "rerolls")

#: Built-ins: (fewest, most positional values; None: any), the keywords they take.
SIGNATURES: dict[str, tuple[int, int | None, tuple[str, ...]]] = {
    "min": (1, None, ("default",)), "max": (1, None, ("default",)),
    "abs": (1, 1, ()), "sum": (1, 2, ()), "len": (1, 1, ()), "any": (1, 1, ()),
    "all": (1, 1, ()), "int": (1, 1, ()), "float": (1, 1, ()), "str": (1, 1, ()),
    "bool": (1, 1, ()), "range": (1, 3, ()), "sorted": (1, 1, ("key", "reverse")),
    "reversed": (1, 1, ()), "floor": (1, 1, ()), "ceil": (1, 1, ()), "round_up": (1, 1, ()),
    "round_down": (1, 1, ()), "round_half_up": (1, 1, ()), "clamp": (3, 3, ()),
    "avg": (1, 1, ()), "count": (1, 1, ()), "ratio": (2, 2, ()), "pairs": (1, 1, ()),
    "first": (1, 2, ("default",)), "number": (1, 1, ()), "group_by": (2, 2, ("key",)),
    "unique": (1, 2, ("key",)),
}
#: Built-ins whose values may also be given by name (``group_by(units, key='regiment')``).
NAMED_VALUES: dict[str, tuple[str, ...]] = {"group_by": ("key",), "unique": ("key",)}
SIGNATURES.update({name: (sig.least, sig.most, sig.options)
                   for name, sig in RULESET_SIGNATURES.items()})
#: what each built-in's arguments are, for the hint
USAGE: dict[str, str] = {
    "clamp": "clamp(value, lowest, highest)", "ratio": "ratio(a, b)",
    "range": "range(stop) or range(start, stop[, step])",
    "first": "first(list[, default])", "sum": "sum(list[, start])",
    "group_by": "group_by(list, 'field')", "unique": "unique(list[, key='field'])",
    **{name: sig.example for name, sig in RULESET_SIGNATURES.items()},
}


def check_ruleset(rs: Ruleset, formulas: Mapping[str, tuple[list[str], Expr]],
                  seen: dict[int, Type | None] | None = None,
                  nodes: dict[int, ast.AST] | None = None) -> list[StratagemError]:
    """Every error the static checks find in a compiled ruleset (``formulas``: each
    formula's parameters and expression). With ``seen``, what each member read (``x.name``)
    reads from, as far as the inference knows, is noted there: the ``Type`` of ``x`` (None:
    not known) by the id of the ``ast.Attribute`` node (the ruleset keeps its expressions'
    nodes), for ``compile.readers`` and ``compile.typed_reads``; with ``nodes`` too, each
    such node by its id."""
    checker = _Checker(rs, formulas, seen)
    if nodes is not None:
        checker.nodes = nodes
    return checker.run()


class _Checker:
    def __init__(self, rs: Ruleset, formulas: Mapping[str, tuple[list[str], Expr]],
                 seen: dict[int, Type | None] | None = None) -> None:
        self.rs = rs
        self.seen = seen
        #: the nodes whose types ``seen`` notes, by their ids
        self.nodes: dict[int, ast.AST] = {}
        self.bodies = formulas
        self.formulas = {name: params for name, (params, _) in formulas.items()}
        self.errors: dict[tuple[object, ...], StratagemError] = {}
        #: procedure -> parameter -> the types `call` steps pass it (None: unknown)
        self.passed: dict[str, dict[str, set[Type | None]]] = {}
        self.params: dict[str, Env] = {}
        self.parents = self._parents()
        self._derived_types: dict[tuple[str, str], Type | None] = {}
        self._deriving: set[tuple[str, str]] = set()
        self._members: dict[str, set[str]] = {}
        self.enums = self._enum_values()

    # -- the whole ruleset ----------------------------------------------------------------
    def run(self) -> list[StratagemError]:
        rate = self.rs.entry.get("rate")
        if rate in self.rs.procedures:
            params = self.rs.procedures[rate].params
            side = self._side_kind()
            if params and side:
                self.params[rate] = {params[0]: Type("entity", side)}
        # procedure parameters take the types every call passes them: a few passes settle
        # them (each pass can only learn more), then a last pass reports
        for _ in range(4):
            self.passed = {}
            self.errors = {}
            for proc in self.rs.procedures.values():
                self.block(proc.steps, self._proc_env(proc.name, proc.params))
            learnt = self._learn()
            if learnt == self.params:
                break
            self.params = learnt
        for kind in self.rs.kinds.values():
            for expr in kind.derived.values():
                self.expr(expr, self._derived_env(kind))
        for params, expr in self.bodies.values():
            self.expr(expr, {p: None for p in params})
        if self.rs.outcome is not None:
            self.expr(self.rs.outcome, {"battle": Type("entity", "battle")})
        return list(self.errors.values())

    def _proc_env(self, name: str, params: list[str]) -> Env:
        env: Env = {p: None for p in params}
        env.update(self.params.get(name, {}))
        env["battle"] = Type("entity", "battle")
        return env

    def _learn(self) -> dict[str, Env]:
        out: dict[str, Env] = {}
        for proc, params in self.passed.items():
            for param, types in params.items():
                if len(types) == 1 and None not in types:
                    out.setdefault(proc, {})[param] = next(iter(types))
        rate = self.rs.entry.get("rate")
        if rate in self.params:
            out.setdefault(rate, {}).update(self.params[rate])
        return out

    def _side_kind(self) -> str | None:
        battle = self.rs.kinds.get("battle")
        if battle is None or not battle.children:
            return None
        return next(iter(battle.children.values()))

    def _parents(self) -> dict[str, str | None]:
        """Each kind's parent kind, when only one kind holds it."""
        holders: dict[str, set[str]] = {}
        for kind in self.rs.kinds.values():
            for child in kind.children.values():
                holders.setdefault(child, set()).add(kind.name)
        return {k: next(iter(v)) if len(v) == 1 else None for k, v in holders.items()}

    def _enum_values(self) -> set[str]:
        return {key for key in self.rs.message_keys() if key.startswith("enum.")}

    def _derived_env(self, kind: EntityKind) -> Env:
        env: Env = _MemberTypes(self, kind)
        env["self"] = Type("entity", kind.name)
        parent = self.parents.get(kind.name)
        env["parent"] = Type("entity", parent) if parent else None
        env["battle"] = Type("entity", "battle")
        return env

    # -- steps ----------------------------------------------------------------------------
    def block(self, block: Block, env: Env) -> None:
        for step in block.steps:
            self.step(step, env)

    def step(self, step: Step, env: Env) -> None:
        if step.when is not None:
            self.expr(step.when, env)
        if isinstance(step, SetStep):
            for name, expr in step.values:
                env[name] = self.expr(expr, env)
        elif isinstance(step, RollStep):
            self.dice(step.dice, env)
            self.maybe(step.subject, env)
            for bound in (step.target, step.values_as):
                if bound:
                    env[bound] = None
        elif isinstance(step, CheckStep):
            self.check_spec(step.spec, env)
            if step.target:
                env[step.target] = Type("check")
        elif isinstance(step, ContestStep):
            self.check_spec(step.a, env)
            self.check_spec(step.b, env)
            if step.target:
                env[step.target] = Type("contest")
        elif isinstance(step, LookupStep):
            for key in step.keys:
                self.expr(key, env)
            self.maybe(step.shift, env)
            if step.target:
                env[step.target] = Type("row", step.table)
        elif isinstance(step, ForEachStep):
            assert step.items is not None
            items = self.expr(step.items, env)
            env[step.name] = items.item if items is not None and items.what == "list" else None
            if step.index:
                env[step.index] = None
            self.block(step.body, env)
        elif isinstance(step, IfStep):
            assert step.cond is not None
            self.expr(step.cond, env)
            then, otherwise = dict(env), dict(env)
            self.block(step.then, then)
            self.block(step.otherwise, otherwise)
            for name in set(then) | set(otherwise):
                a, b = then.get(name), otherwise.get(name)
                env[name] = a if a == b or name not in otherwise else b if name not in then \
                    else None
        elif isinstance(step, RepeatStep):
            if step.name:
                env[step.name] = None
            for bound_expr in (step.while_, step.max):
                self.maybe(bound_expr, env)
            self.block(step.body, env)
            self.maybe(step.until, env)
        elif isinstance(step, DecideStep):
            self.maybe(step.subject, env)
            self.maybe(step.default, env)
            if isinstance(step.options, Expr):
                self.expr(step.options, env)
            for expr in step.range or ():
                self.expr(expr, env)
            env[step.target] = None
        elif isinstance(step, UpdateStep):
            self.update(step, env)
        elif isinstance(step, CreateStep):
            self.create(step, env)
        elif isinstance(step, CallStep):
            passed = self.passed.setdefault(step.procedure, {})
            for name, expr in step.args.items():
                passed.setdefault(name, set()).add(self.expr(expr, env))
            if step.target:
                env[step.target] = None
        elif isinstance(step, ReturnStep):
            self.maybe(step.value, env)
        elif isinstance(step, RequireStep):
            self.maybe(step.cond, env)
            self.maybe(step.blame, env)
        for expr in step.params.values():
            self.expr(expr, env)

    def check_spec(self, spec: CheckSpec, env: Env) -> None:
        self.dice(spec.dice, env)
        for expr in (spec.target, spec.bonus, spec.subject):
            self.maybe(expr, env)
        inner = {**env, "roll": None, "target": None, "margin": None}
        for expr in (spec.crit_success, spec.crit_failure):
            self.maybe(expr, inner)

    def dice(self, dice: Dice, env: Env) -> None:
        self.maybe(dice.source, env)
        for expr in dice.names.values():
            self.expr(expr, env)

    def update(self, step: UpdateStep, env: Env) -> None:
        assert step.entity is not None
        target = self.expr(step.entity, env)
        if target is not None and target.what == "list":
            target = target.item
        kind = self.rs.kinds.get(target.name) if target and target.what == "entity" else None
        inner = dict(env)
        if kind is not None:
            for name in (*step.assign, *step.add):
                if name not in kind.fields and name not in kind.children:
                    fields = ", ".join(kind.fields)
                    self.error(("update", id(step), name),
                               f"{a_or_an(kind.name)} has no field '{name}' to update",
                               step.places.get(name) or step.location,
                               did_you_mean(name, kind.fields)
                               or f"the fields of {a_or_an(kind.name)}: {fields}",
                               key="compile.update_no_field", kind=Word(kind.name), name=name,
                               fields=fields)
            for name in kind.member_names():
                if name not in inner:
                    inner[name] = self.member(kind, name)
            for expr in (*step.assign.values(), *step.add.values()):
                self.expr(expr, inner)
        else:  # any kind: the names the entity may answer are not known here
            for expr in (*step.assign.values(), *step.add.values()):
                self.expr(expr, inner)

    def create(self, step: CreateStep, env: Env) -> None:
        assert step.parent is not None
        parent = self.expr(step.parent, env)
        self.maybe(step.copy, env)
        kind = self.rs.kinds.get(parent.name) if parent and parent.what == "entity" else None
        child: EntityKind | None = None
        if kind is not None:
            if step.collection not in kind.children:
                collections = ", ".join(kind.children) or None
                self.error(("create", id(step)),
                           f"`create`: {a_or_an(kind.name)} has no collection '{step.collection}'",
                           step.location, did_you_mean(step.collection, kind.children)
                           or f"its collections: {collections or 'none'}",
                           key="compile.create_no_collection", kind=Word(kind.name),
                           collection=step.collection, collections=collections)
            else:
                child = self.rs.kinds.get(kind.children[step.collection])
        for name, expr in step.assign.items():
            self.expr(expr, env)
            if child is not None and name not in child.fields:
                self.error(("create-field", id(step), name),
                           f"{a_or_an(child.name)} has no field '{name}'", step.location,
                           did_you_mean(name, child.fields), key="compile.create_no_field",
                           kind=Word(child.name), name=name)
        if step.target:
            env[step.target] = Type("entity", child.name) if child else None

    # -- expressions ----------------------------------------------------------------------
    def maybe(self, expr: Expr | None, env: Env) -> Type | None:
        return self.expr(expr, env) if expr is not None else None

    def expr(self, expr: Expr, env: Env) -> Type | None:
        return _ExprChecker(self, expr, seen=self.seen).type(expr.node, env)

    def members(self, kind: EntityKind) -> set[str]:
        """A kind's member names (asked once for each derived value: made once)."""
        names = self._members.get(kind.name)
        if names is None:
            names = self._members[kind.name] = kind.member_names()
        return names

    def member(self, kind: EntityKind, name: str) -> Type | None:
        """What a member of a kind holds, when known."""
        if name in kind.children:
            return Type("list", item=Type("entity", kind.children[name]))
        if name in kind.derived:
            key = (kind.name, name)
            if key in self._derived_types:
                return self._derived_types[key]
            if key in self._deriving or len(self._deriving) >= MAX_DERIVED_DEPTH:
                return None  # itself, or deeper than a battle reads (not known: unchecked)
            self._deriving.add(key)
            try:
                found = _ExprChecker(self, kind.derived[name], quiet=True).type(
                    kind.derived[name].node, self._derived_env(kind))
            finally:
                self._deriving.discard(key)
            self._derived_types[key] = found
            return found
        return None

    def error(self, at: tuple[object, ...], message: str, location: Location | None,
              hint: str | None = None, *, key: str, hint_key: str | None = None,
              params: Mapping[str, object] | None = None, **more: object) -> None:
        """One error per place ``at``: ``message`` (the text of ``key``, given ``params``
        and ``more``)."""
        self.errors.setdefault(at, StratagemError(
            message, location=location, hint=hint, key=key, hint_key=hint_key,
            params={**(params or {}), **more}))


class _MemberTypes(dict[str, "Type | None"]):
    """The names of a derived value: its entity's members, each one's type inferred when the
    expression first reads it. (Inferred all at once, the type of each derived value would
    be inferred inside the others', as deep as the kind has derived values: a kind of a few
    hundred passed Python's bound on nesting.)"""

    def __init__(self, checker: _Checker, kind: EntityKind) -> None:
        super().__init__()
        self.checker = checker
        self.kind = kind
        self.members = checker.members(kind)

    def get(self, name: str, default: Type | None = None) -> Type | None:  # type: ignore[override]
        if name in self.members and not dict.__contains__(self, name):
            self[name] = self.checker.member(self.kind, name)
        return dict.get(self, name, default)

    def copy(self) -> _MemberTypes:
        twin = _MemberTypes(self.checker, self.kind)
        twin.update(self)
        return twin


class _ExprChecker:
    """Infers what the parts of one expression hold, and reports what cannot be."""

    def __init__(self, owner: _Checker, expr: Expr, quiet: bool = False,
                 seen: dict[int, Type | None] | None = None) -> None:
        self.owner = owner
        self.expr = expr
        self.quiet = quiet
        #: where to note the type of what each member read reads from (``check_ruleset``)
        self.seen = seen

    def error(self, node: ast.AST, message: str, hint: str | None = None, *, key: str,
              hint_key: str | None = None, params: Mapping[str, object] | None = None,
              **more: object) -> None:
        """An error in this expression (``message`` follows the expression; ``key``'s text
        starts with ``{expr}``)."""
        if self.quiet:
            return
        at = (self.expr.location, self.expr.text, getattr(node, "col_offset", 0), message)
        self.owner.error(at, f"`{self.expr.text}`: {message}", self.expr.location, hint,
                         key=key, hint_key=hint_key, params={**(params or {}), **more})

    def type(self, node: ast.AST, env: Env) -> Type | None:
        if isinstance(node, ast.Expression):
            return self.type(node.body, env)
        if isinstance(node, ast.Name):
            return env.get(node.id)
        if isinstance(node, ast.Attribute):
            value = self.type(node.value, env)
            if self.seen is not None:
                self.seen[id(node)] = value
                self.owner.nodes[id(node)] = node
            return self.attribute(node, value)
        if isinstance(node, ast.Subscript):
            value = self.type(node.value, env)
            self.type(node.slice, env)
            return value.item if value is not None and value.what in ("list", "map") else None
        if isinstance(node, ast.Call):
            return self.call(node, env)
        if isinstance(node, ast.IfExp):
            self.type(node.test, env)
            a, b = self.type(node.body, env), self.type(node.orelse, env)
            # `x if c else none` holds what x holds, or nothing (whose members no rule reads)
            if _is_none(node.orelse):
                return a
            if _is_none(node.body):
                return b
            return a if a == b else None
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            inner = self.comprehension(node.generators, env)
            item = self.type(node.elt, inner)
            return Type("list", item=item) if not isinstance(node, ast.SetComp) else None
        if isinstance(node, ast.DictComp):
            inner = self.comprehension(node.generators, env)
            self.type(node.key, inner)
            self.type(node.value, inner)
            return None
        if isinstance(node, (ast.List, ast.Tuple)):
            items = {self.type(e, env) for e in node.elts}
            return Type("list", item=next(iter(items))) if len(items) == 1 else None
        if isinstance(node, ast.Compare):
            self.compare(node, env)
            return None
        for child in ast.iter_child_nodes(node):
            self.type(child, env)
        return None

    def comprehension(self, generators: list[ast.comprehension], env: Env) -> Env:
        inner = env.copy()
        for gen in generators:
            source = self.type(gen.iter, inner)
            item = source.item if source is not None and source.what == "list" else None
            for target in ast.walk(gen.target):
                if isinstance(target, ast.Name):
                    inner[target.id] = item if isinstance(gen.target, ast.Name) else None
            for cond in gen.ifs:
                self.type(cond, inner)
        return inner

    def attribute(self, node: ast.Attribute, value: Type | None) -> Type | None:
        if value is None:
            return None
        name = node.attr
        if value.what == "entity":
            kind = self.owner.rs.kinds.get(value.name)
            if kind is None:
                return None
            if name == "parent":
                parent = self.owner.parents.get(kind.name)
                return Type("entity", parent) if parent else None
            if name == "battle":
                return Type("entity", "battle")
            if name in kind.member_names():
                return self.owner.member(kind, name)
            if name not in ENTITY_NAMES:
                declared = ", ".join(sorted(kind.member_names()))
                self.error(node, f"{a_or_an(kind.name)} has no field or value '{name}'",
                           did_you_mean(name, kind.member_names()) or f"declared: {declared}",
                           key="compile.expr_no_member",
                           expr=self.expr.text, kind=Word(kind.name), name=name,
                           declared=declared)
            return None
        known = {"row": (), "check": CHECK_NAMES, "contest": CONTEST_NAMES}.get(value.what)
        if value.what == "row":
            table = self.owner.rs.tables.get(value.name)
            if table is None:
                return None
            columns = set(table.columns) | {c for row in table.rows for c in row.cells()}
            if name not in columns and name not in ROW_NAMES:
                listed = ", ".join(sorted(columns)) or None
                self.error(node, f"table '{table.name}' has no column '{name}'",
                           did_you_mean(name, columns) or f"its columns: {listed or 'none'}",
                           key="compile.expr_no_column",
                           expr=self.expr.text, table=table.name, name=name,
                           columns=listed)
            return None
        if known and name not in known:
            self.error(node, f"{value.describe()} has no '{name}'",
                       did_you_mean(name, known) or f"it has: {', '.join(known)}",
                       key="compile.result_no_member",
                       expr=self.expr.text, what=value.what, name=name,
                       known=", ".join(known))
        if value.what == "contest" and name in ("a", "b"):
            return Type("check")
        return None

    def call(self, node: ast.Call, env: Env) -> Type | None:
        args = [self.type(a, env) for a in node.args]
        for kw in node.keywords:
            self.type(kw.value, env)
        if not isinstance(node.func, ast.Name):
            self.type(node.func, env)
            return None
        name = node.func.id
        self.arity(node, name)
        first = node.args[0] if node.args else None
        table = first.value if isinstance(first, ast.Constant) else None
        if name in ("lookup", "row") and isinstance(table, str):
            self.constant_keys(node, name, table)
            return Type("row", table)
        if name == "rows" and isinstance(table, str):
            return Type("list", item=Type("row", table))
        if name == "label":
            self.label(node)
        if name in ("sorted", "group_by", "unique"):
            self.field_key(node, name, args[0] if args else None)
        if name in ("sorted", "reversed", "unique") and args:
            return args[0]
        if name == "group_by" and args and args[0] is not None and args[0].what == "list":
            return Type("map", item=args[0])  # a field's value -> the items that have it
        if name in ("min", "max", "first") and len(node.args) == 1 and args[0] is not None:
            return args[0].item if args[0].what == "list" else None
        return None

    def field_key(self, node: ast.Call, name: str, items: Type | None) -> None:
        """The field that ``sorted``, ``group_by`` or ``unique`` reads of each item (its
        ``key``) is one the items have, when they are entities or rows of a known kind."""
        keys = [kw.value for kw in node.keywords if kw.arg == "key"]
        if name != "sorted" and len(node.args) > 1:
            keys.append(node.args[1])
        if items is None or items.what != "list" or items.item is None:
            return
        for key in keys:
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and not (
                    key.value.startswith("_")):  # refused as it runs, in its own words
                self.attribute(ast.copy_location(ast.Attribute(ast.Name("_", ast.Load()),
                                                               key.value, ast.Load()), key),
                               items.item)

    def arity(self, node: ast.Call, name: str) -> None:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
                kw.arg is None for kw in node.keywords):
            return
        given = len(node.args)
        keywords = [kw.arg for kw in node.keywords if kw.arg]
        params = self.owner.formulas.get(name)
        if params is not None:
            named = set(params[:given])
            extra = [k for k in keywords if k not in params or k in named]
            missing = [p for p in params[given:] if p not in keywords]
            usage = f"{name}({', '.join(params)})"
            text = self.expr.text
            if given > len(params):
                self.error(node, f"formula '{name}' takes {len(params)} value"
                           f"{'s' if len(params) != 1 else ''}, got {given}", usage,
                           key="compile.formula_arity", hint_key="compile.usage.hint",
                           expr=text, name=name, n=len(params), given=given, usage=usage)
            elif missing:
                self.error(node, f"formula '{name}' needs {', '.join(missing)}", usage,
                           key="compile.formula_missing", hint_key="compile.usage.hint",
                           expr=text, name=name, missing=", ".join(missing), usage=usage)
            elif extra:
                self.error(node, f"formula '{name}' takes no value '{extra[0]}'", usage,
                           key="compile.formula_extra", hint_key="compile.usage.hint",
                           expr=text, name=name, extra=extra[0], usage=usage)
            return
        signature = SIGNATURES.get(name)
        if signature is None:
            return
        fewest, most, allowed = signature
        given += sum(1 for kw in keywords if kw in NAMED_VALUES.get(name, ()))
        usage = USAGE.get(name, f"{name}(...)")
        if given < fewest or (most is not None and given > most):
            want = (f"{fewest}" if most == fewest else f"{fewest} or more" if most is None
                    else f"{fewest} to {most}")
            form = "exact" if most == fewest else "more" if most is None else "range"
            self.error(node, f"{name}() takes {want} value{'s' if most != 1 else ''}, "
                       f"got {given}", f"write {usage}", key="compile.builtin_arity",
                       expr=self.expr.text,
                       hint_key="compile.write_usage.hint", name=name, form=form,
                       fewest=fewest, most=most, given=given, usage=usage)
        for kw in keywords:
            if kw not in allowed:
                self.error(node, f"{name}() takes no value '{kw}'",
                           f"write {usage}" if not allowed
                           else f"it takes: {', '.join(allowed)}", key="compile.builtin_keyword",
                           expr=self.expr.text,
                           hint_key=None if allowed else "compile.write_usage.hint",
                           name=name, keyword=kw, usage=usage, allowed=", ".join(allowed))

    def constant_keys(self, node: ast.Call, name: str, table_name: str) -> None:
        table = self.owner.rs.tables.get(table_name)
        keys = node.args[1:]
        if table is None or not keys or node.keywords or not all(
                isinstance(k, ast.Constant) for k in keys):
            return
        values = [k.value for k in keys if isinstance(k, ast.Constant)]
        try:
            if name == "row":
                table.row_by_id(values[0])
            else:
                table.lookup(*values)
        except StratagemError as err:  # the table's own error, inside this expression
            self.error(node, err.message, err.hint, key="expr.in",
                       hint_key=err.hint_key or (f"{err.key}.hint" if err.key else None),
                       params=err.params, expr=self.expr.text,
                       inner=Term(err.key or "", err.message, tuple(err.params.items())))

    def label(self, node: ast.Call) -> None:
        args = node.args
        if len(args) != 2 or not all(isinstance(a, ast.Constant) for a in args):
            return
        enum, value = (str(a.value) for a in args if isinstance(a, ast.Constant))
        key = f"enum.{enum}.{value}"
        if key in self.owner.enums:
            return
        values = [k.split(".", 2)[2] for k in self.owner.enums if k.startswith(f"enum.{enum}.")]
        if not values:
            names = {k.split(".")[1] for k in self.owner.enums}
            self.error(node, f"label(): there is no enum '{enum}'",
                       did_you_mean(enum, names) or "enums: " + ", ".join(sorted(names)),
                       key="compile.label_no_enum",
                       expr=self.expr.text, enum=enum, enums=", ".join(sorted(names)))
        else:
            self.error(node, f"label(): '{value}' is not a value of enum '{enum}'",
                       did_you_mean(value, values) or "its values: " + ", ".join(values),
                       key="compile.label_no_value",
                       expr=self.expr.text, hint_key="compile.its_values.hint",
                       enum=enum, value=value, values=", ".join(values))

    def compare(self, node: ast.Compare, env: Env) -> None:
        parts = [node.left, *node.comparators]
        for part in parts:
            self.type(part, env)
        for left, op, right in zip(parts, node.ops, parts[1:]):
            for field_node, other in ((left, right), (right, left)):
                values = self.enum_field(field_node, env)
                if values is None:
                    continue
                consts = [other] if isinstance(op, (ast.Eq, ast.NotEq)) else (
                    list(other.elts) if isinstance(op, (ast.In, ast.NotIn))
                    and isinstance(other, (ast.List, ast.Tuple, ast.Set)) and other is right
                    else [])
                for const in consts:
                    if isinstance(const, ast.Constant) and isinstance(const.value, str) \
                            and const.value not in values:
                        self.error(const, f"'{const.value}' is not one of the values of "
                                   f"'{_text(field_node)}'",
                                   did_you_mean(const.value, values)
                                   or "its values: " + ", ".join(values),
                                   key="compile.not_enum_value", expr=self.expr.text,
                                   hint_key="compile.its_values.hint", value=const.value,
                                   field=_text(field_node), values=", ".join(values))

    def enum_field(self, node: ast.AST, env: Env) -> tuple[str, ...] | None:
        """The values of the enum field ``node`` reads, when it reads one."""
        if not isinstance(node, ast.Attribute):
            return None
        owner = self.type_quiet(node.value, env)
        if owner is None or owner.what != "entity":
            return None
        kind = self.owner.rs.kinds.get(owner.name)
        spec = kind.fields.get(node.attr) if kind else None
        if spec is None or spec.type != "enum" or not spec.values:
            return None
        return spec.values

    def type_quiet(self, node: ast.AST, env: Env) -> Type | None:
        return _ExprChecker(self.owner, self.expr, quiet=True).type(node, env)


def _is_none(node: ast.AST) -> bool:
    """Whether ``node`` is the constant ``none``."""
    return isinstance(node, ast.Constant) and node.value is None


def _text(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 - only for a message
        return "the field"
