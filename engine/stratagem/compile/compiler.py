"""The compiler's state and its checks: names in scope, expressions, dice, steps, kinds,
fields and tables of one ruleset document (``stratagem.compile.ruleset`` drives it).

Everything that can be checked is checked here, and every problem is
collected (not just the first) with its file, line and column: malformed
expressions and dice, unknown names, tables, procedures and steps, bad field
declarations. A ruleset that compiles cannot crash on a syntax error
mid-battle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from stratagem.compile.checks import RULESET_SIGNATURES
from stratagem.compile.steps import COMMON_KEYS, STEPS, common
from stratagem.dice import DiceError, parse_dice
from stratagem.errors import Location, StratagemError
from stratagem.expr import BASE_FUNCTIONS, Expr, ExpressionError, compile_expr
from stratagem.model.entities import RESERVED, TYPES, EntityKind, FieldSpec
from stratagem.model.steps import Block, Dice, Step, block
from stratagem.model.tables import MATCHES, Row, Table
from stratagem.model.values import closest, exact, where
from stratagem.model.views import filtered_collection, item_filter

if TYPE_CHECKING:
    from stratagem.model.steps import DecideStep

#: Functions the ruleset itself provides to expressions (bound to its tables).
RULESET_FUNCTIONS = tuple(RULESET_SIGNATURES)
TABLE_FUNCTIONS = ("lookup", "row", "has", "keys", "rows")

_PLACEHOLDER = compile_expr("0")

#: Cells any row may carry besides its declared columns.
FREE_CELLS = ("id", "note", "notes", "source", "label")


class Compiler:
    """Collects errors while compiling one ruleset document."""

    def __init__(self, doc: Mapping[str, Any], dialect: Any) -> None:
        self.doc = doc
        self.dialect = dialect
        self.errors: list[StratagemError] = []
        self.message_keys: set[str] = set()
        self.decisions: dict[str, DecideStep] = {}
        self.constants: dict[str, Any] = {}
        self.tables: dict[str, Table] = {}
        self.kinds: dict[str, EntityKind] = {}
        self.formula_names: set[str] = set()
        #: procedure name -> its parameters
        self.procedure_params: dict[str, list[str]] = {}
        self._known: list[set[str]] = [set()]
        #: how many loops (`for_each`, `repeat`) enclose the step being compiled
        self._loops = 0

    # -- errors and positions -----------------------------------------------------------
    def error(self, message: str, location: Location | None, hint: str | None = None,
              key: str | None = None, hint_key: str | None = None, **params: object) -> None:
        self.errors.append(StratagemError(message, location=location, hint=hint, key=key,
                                          hint_key=hint_key, params=params))

    def where(self, node: Any, key: Any = None) -> Location | None:
        return where(node, key)

    # -- names in scope -----------------------------------------------------------------
    def define(self, name: str) -> None:
        self._known[-1].add(name)

    @contextmanager
    def scope(self, *names: str) -> Iterator[None]:
        self._known.append(set(names))
        try:
            yield
        finally:
            self._known.pop()

    @contextmanager
    def procedure_scope(self, names: set[str]) -> Iterator[None]:
        saved, loops = self._known, self._loops
        self._known, self._loops = [set(names)], 0
        try:
            yield
        finally:
            self._known, self._loops = saved, loops

    @contextmanager
    def loop(self) -> Iterator[None]:
        """The body of a loop: `break` may stand here."""
        self._loops += 1
        try:
            yield
        finally:
            self._loops -= 1

    def in_loop(self) -> bool:
        return self._loops > 0

    def bind_row(self, name: str | None, table: str) -> None:
        """``name`` holds a row of ``table`` (the static checks read its columns)."""

    def bind_items(self, name: str, items: Expr) -> None:
        """``name`` holds each item of ``items`` in turn."""

    def check_update(self, entity: Expr, places: Mapping[str, Location | None]) -> None:
        """The fields an `update` step changes, on the entity it names."""

    def note_call(self, procedure: str, args: Mapping[str, Expr]) -> None:
        """A `call` of ``procedure`` with ``args``."""

    def is_known(self, name: str) -> bool:
        return any(name in s for s in self._known) or name in self.constants

    def check_name(self, name: Any, loc: Location | None) -> None:
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
            self.error(f"'{name}' is not a valid name", loc,
                       hint="names are letters, digits and _, not starting with a digit or _",
                       key="compile.bad_name", name=name)

    def bind(self, node: Mapping[str, Any], key: str) -> str | None:
        if key not in node:
            return None
        name = node[key]
        self.check_name(name, self.where(node, key))
        self.define(str(name))
        return str(name)

    def all_field_names(self) -> set[str]:
        names: set[str] = {"self", "parent", "name", "id"}
        for kind in self.kinds.values():
            names |= kind.member_names()
        return names

    # -- expressions ----------------------------------------------------------------------
    def expr(self, node: Any, key: Any, *, check_names: bool = True) -> Expr:
        loc = self.where(node, key)
        try:
            text = node[key]
        except (KeyError, IndexError, TypeError):
            self.error(f"missing '{key}'", self.where(node),
                       key="compile.missing", field=key)
            return _PLACEHOLDER
        try:
            expr = compile_expr(text, loc)
        except ExpressionError as err:
            self.errors.append(err)
            return _PLACEHOLDER
        self.check_expr(expr, loc, check_names=check_names)
        return expr

    def expr_map(self, node: Mapping[str, Any], key: str) -> dict[str, Expr]:
        body = node.get(key)
        if not isinstance(body, Mapping):
            self.error(f"'{key}' takes a map of names to expressions", self.where(node, key),
                       key="compile.not_expr_map", field=key)
            return {}
        return {str(name): self.expr(body, name) for name in body}

    def check_expr(self, expr: Expr, loc: Location | None, *, check_names: bool = True) -> None:
        if check_names:
            for name in sorted(expr.names):
                if not self.is_known(name):
                    known = set().union(*self._known) | set(self.constants)
                    self.error(f"`{expr.text}`: the name '{name}' is not defined here", loc,
                               hint=closest(name, known) or "set it with a `set` step first, "
                               "or declare it under `constants:`", key="compile.unknown_name",
                               expr=expr.text, name=name)
        functions = set(BASE_FUNCTIONS) | set(RULESET_FUNCTIONS) | self.formula_names
        for call in sorted(expr.calls):
            if call not in functions:
                self.error(f"`{expr.text}`: unknown function '{call}'", loc,
                           hint=closest(call, functions) or "see the list of functions in "
                           "docs/ruleset-reference.md", key="compile.unknown_function",
                           expr=expr.text, name=call)
        for node in ast.walk(expr.node):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in TABLE_FUNCTIONS and node.args
                    and isinstance(node.args[0], ast.Constant)):
                table: object = node.args[0].value
                if table not in self.tables:
                    self.error(f"`{expr.text}`: there is no table '{table}'", loc,
                               hint=closest(table, self.tables) or "declare it under `tables:`",
                               key="compile.expr_unknown_table", expr=expr.text, name=table)

    # -- references -----------------------------------------------------------------------
    def table_ref(self, node: Mapping[str, Any], key: str) -> str:
        name = str(node.get(key))
        if name not in self.tables:
            self.error(f"there is no table '{name}'", self.where(node, key),
                       hint=closest(name, self.tables) or "declare it under `tables:`",
                       key="compile.unknown_table", name=name)
        return name

    def procedure_ref(self, node: Mapping[str, Any], key: str) -> str:
        name = str(node.get(key))
        if name not in self.procedure_params:
            self.error(f"there is no procedure '{name}'", self.where(node, key),
                       hint=closest(name, self.procedure_params) or "declare it under "
                       "`procedures:`", key="compile.unknown_procedure", name=name)
        return name

    def dice_spec(self, node: Mapping[str, Any], key: str) -> Dice:
        """A dice expression in a step: a literal parsed here, or `{from: EXPR}` read when
        the step runs."""
        value = node.get(key)
        loc = self.where(node, key)
        if isinstance(value, Mapping) and "from" in value:
            return Dice(self.dialect, source=self.expr(value, "from"))
        if isinstance(value, bool) or value is None:
            self.error("expected a dice expression such as '3d' or '1d20+2'", loc,
                       key="compile.not_dice")
            value = "0"
        try:
            literal = parse_dice(str(value), dialect=self.dialect)
        except DiceError as err:
            err.location = _offset(loc, err)
            self.errors.append(err)
            return Dice(self.dialect, parse_dice("0", dialect=self.dialect))
        # each name is checked where the dice are written: an unknown one is reported there
        names = {name: _located(self.expr({name: name}, name, check_names=False), loc)
                 for name in sorted(literal.names)}
        for expr in names.values():
            self.check_expr(expr, loc)
        return Dice(self.dialect, literal, names=names)

    # -- steps ----------------------------------------------------------------------------
    def block(self, node: Any, key: Any) -> Block:
        steps = node.get(key) if isinstance(node, Mapping) else None
        if steps is None:
            return block()
        if not isinstance(steps, list):
            self.error(f"'{key}' takes a list of steps", self.where(node, key),
                       hint="start each step with '- ', e.g. '- set: {x: 1}'",
                       key="compile.not_steps", field=key)
            return block()
        out: list[Step] = []
        for i, step in enumerate(steps):
            loc = self.where(steps, i)
            if not isinstance(step, Mapping) or not step:
                self.error("a step must be a map such as {roll: '3d', as: r}", loc,
                           key="compile.step_not_map")
                continue
            first = next(iter(step))
            kinds = [first] if first in STEPS else [k for k in step if k in STEPS]
            if len(kinds) != 1:
                if not kinds:
                    self.error(f"unknown step '{first}'", self.key_where(step, first) or loc,
                               hint=closest(first, STEPS) or "steps: " + ", ".join(STEPS),
                               key="compile.unknown_step", step=first, steps=", ".join(STEPS),
                               hint_key="schema.steps.hint")
                else:
                    self.error(f"a step has one step key; this one has {', '.join(kinds)}", loc,
                               hint="write the step key first, or split it into separate steps",
                               key="compile.two_step_keys", keys=", ".join(kinds))
                continue
            kind = kinds[0]
            form = STEPS[kind]
            allowed = set(COMMON_KEYS) | set(form.keys) | {kind}
            for extra in step:
                if extra not in allowed:
                    self.error(f"`{kind}` step has no option '{extra}'",
                               self.key_where(step, extra),
                               hint=closest(extra, allowed) or "options: " + ", ".join(
                                   sorted(allowed - {kind})),
                               key="compile.step_option", step=kind, option=extra,
                               options=", ".join(sorted(allowed - {kind})))
            try:
                out.append(form.compile(self, step, common(self, step, kind)))
            except StratagemError as err:
                self.errors.append(err)
        return block(out)

    def key_where(self, node: Any, key: Any) -> Location | None:
        locate = getattr(node, "key_where", None)
        if locate is not None:
            try:
                return locate(key)
            except (KeyError, TypeError):
                pass
        return self.where(node, key)


def _located(expr: Expr, loc: Location | None) -> Expr:
    return Expr(expr.text, expr.node, expr.names, expr.calls, loc)


def _offset(loc: Location | None, err: Any) -> Location | None:
    col = getattr(err, "column", None)
    if loc is None:
        return None
    if col and loc.column is not None and loc.line is not None:
        return Location(loc.file, loc.line, loc.column + col - 1, loc.path)
    return loc


# ---------------------------------------------------------------------------------------
def compile_kinds(c: Compiler, doc: Mapping[str, Any]) -> dict[str, EntityKind]:
    enums = compile_enums(c, doc)
    entities = doc.get("entities") or {}
    kinds: dict[str, EntityKind] = {}
    for name, body in entities.items():
        loc = c.where(entities, name)
        if not isinstance(body, Mapping):
            c.error(f"entity '{name}' must be a map with fields/children/derived", loc,
                    key="compile.entity_not_map", name=name)
            continue
        about = body.get("description")
        kind = EntityKind(str(name), location=loc,
                          description=about if isinstance(about, str) else None)
        fields = body.get("fields") or {}
        for fname, fbody in fields.items():
            floc = c.where(fields, fname)
            if fname in RESERVED:
                c.error(f"'{fname}' is reserved and cannot be a field name", floc,
                        key="compile.reserved_field", field=fname)
                continue
            spec = compile_field(c, str(fname), fbody, floc, enums, f"{name}.{fname}")
            if spec is not None:
                kind.fields[str(fname)] = spec
        kind.fields.setdefault("name", FieldSpec("name", "str", optional=True))
        kind.fields.setdefault("id", FieldSpec("id", "str", optional=True))
        # the name's grammatical number: messages agree with a plural name ("Orcs win")
        kind.fields.setdefault("plural", FieldSpec("plural", "bool", default=False))
        children = body.get("children") or {}
        for coll, child_kind in children.items():
            kind.children[str(coll)] = str(child_kind)
        kinds[str(name)] = kind
    for kind in kinds.values():
        for coll, child in kind.children.items():
            if child not in kinds:
                c.error(f"entity '{kind.name}': collection '{coll}' holds unknown kind '{child}'",
                        kind.location, hint=closest(child, kinds), key="compile.unknown_child",
                        kind=kind.name, collection=coll, child=child)
    if "battle" not in kinds:
        c.error("the ruleset declares no `battle` entity (the root of the battle state)",
                c.where(doc, "entities") or c.where(doc),
                hint="entities: {battle: {children: {sides: side}}, side: {...}, unit: {...}}",
                key="compile.no_battle")
    return kinds


def compile_derived(c: Compiler, doc: Mapping[str, Any], kinds: dict[str, EntityKind]) -> None:
    entities = doc.get("entities") or {}
    for name, kind in kinds.items():
        derived = (entities.get(name) or {}).get("derived") or {}
        members = kind.member_names() | set(derived)
        with c.procedure_scope(members | {"self", "parent", "battle"}):
            for dname in derived:
                if dname in kind.fields:
                    c.error(f"'{dname}' is both a field and a derived value of '{name}'",
                            c.where(derived, dname),
                            key="compile.field_and_derived", field=dname, kind=name)
                kind.derived[str(dname)] = c.expr(derived, dname)
        lists = set(kind.children) | set(kind.derived)
        members = kind.member_names()
        for dname, expr in kind.derived.items():
            collection = filtered_collection(expr.node, lists, members)
            if collection is None or collection == dname:
                continue
            items = item_filter(expr.node)
            if items is not None:
                try:
                    kind.view_items[dname] = compile_expr(items, expr.location)
                except ExpressionError:  # its text written out too long: computed whole
                    continue
            kind.views[dname] = collection


def compile_enums(c: Compiler, doc: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    enums: dict[str, tuple[str, ...]] = {}
    for name, values in (doc.get("enums") or {}).items():
        if isinstance(values, Mapping):
            values = list(values)
        if not isinstance(values, list):
            c.error(f"enum '{name}' must be a list of values", c.where(doc["enums"], name),
                    key="compile.enum_not_list", name=name)
            continue
        enums[str(name)] = tuple(str(v) for v in values)
        for v in values:
            c.message_keys.add(f"enum.{name}.{v}")
    return enums


def compile_field(c: Compiler, name: str, body: Any, loc: Location | None,
                  enums: Mapping[str, tuple[str, ...]], owner: str,
                  labelled: bool = True) -> FieldSpec | None:
    """Compile a field declaration. ``labelled`` fields get locale keys (table columns don't)."""
    if isinstance(body, str):
        body = {"type": body}
    if not isinstance(body, Mapping):
        c.error(f"field '{owner}' must be a map such as {{type: int, default: 0}}", loc,
                key="compile.field_not_map", owner=owner)
        return None
    ftype = body.get("type", "any")
    if ftype not in TYPES:
        c.error(f"field '{owner}' has unknown type '{ftype}'", c.where(body, "type") or loc,
                hint=closest(ftype, TYPES) or "types: " + ", ".join(TYPES),
                key="compile.field_type", owner=owner, type=ftype, types=", ".join(TYPES))
        return None
    values = None
    enum_key = None
    if ftype == "enum":
        enum_key = f"enum.{body.get('enum') or body.get('table') or name}"
        if "enum" in body:
            values = enums.get(str(body["enum"]))
            if values is None:
                c.error(f"field '{owner}' uses unknown enum '{body['enum']}'",
                        c.where(body, "enum"), hint=closest(body["enum"], enums),
                        key="compile.unknown_enum", field=owner, enum=body["enum"])
        elif "values" in body:
            values = tuple(str(v) for v in body["values"])
            for v in values if labelled else ():
                c.message_keys.add(f"enum.{name}.{v}")
        elif "table" in body:
            table = c.tables.get(str(body["table"]))
            if table is None:
                c.error(f"field '{owner}' takes its values from unknown table '{body['table']}'",
                        c.where(body, "table"), hint=closest(body["table"], c.tables),
                        key="compile.field_unknown_table", owner=owner, table=body['table'])
            else:
                values = tuple(str(k) for k in table.keys())  # noqa: SIM118 - a Table, not a dict
                for v in values if labelled else ():
                    c.message_keys.add(f"enum.{table.name}.{v}")
        else:
            c.error(f"enum field '{owner}' needs `enum:`, `values:` or `table:`", loc,
                    key="compile.enum_field_source", owner=owner)
    of = None
    if ftype == "list" and "of" in body:
        of = compile_field(c, name, body["of"], c.where(body, "of"), enums, owner, labelled)
    held_by = str(body.get("owner", "input"))
    if held_by == "battle" and body.get("required") is True:
        c.errors.append(StratagemError(
            f"field '{owner}' is battle state (`owner: battle`), so no file states it: it "
            "cannot be `required`", location=c.where(body, "required"),
            hint="remove `required: true`, or make it an input field (remove `owner: battle`)",
            key="compile.battle_required", params={"field": owner}))
    about = body.get("description")
    spec = FieldSpec(
        name=name, type=ftype, required=bool(body.get("required", False)),
        optional=bool(body.get("optional", False)) or ftype == "any",
        minimum=exact(body.get("min")), maximum=exact(body.get("max")), values=values, of=of,
        location=loc, enum_key=enum_key or (of.enum_key if of else None), owner=held_by,
        description=about if isinstance(about, str) else None,
    )
    if labelled:
        c.message_keys.add(f"field.{owner}")
    if "default" in body:
        default = body["default"]
        try:
            default = spec.check(default, c.where(body, "default"), owner) if default is not None \
                else None
        except StratagemError as err:
            c.errors.append(err)
        spec = replace(spec, default=default, optional=spec.optional or default is None)
    elif ftype == "list":
        spec = replace(spec, default=[])
    elif not spec.required and ftype != "any":
        spec = replace(spec, optional=True)
    return spec


def compile_tables(c: Compiler, doc: Mapping[str, Any]) -> dict[str, Table]:
    tables: dict[str, Table] = {}
    for name, body in (doc.get("tables") or {}).items():
        loc = c.where(doc["tables"], name)
        if not isinstance(body, Mapping) or not isinstance(body.get("rows"), list):
            c.error(f"table '{name}' needs `rows:` (a list)", loc,
                    key="compile.table_no_rows", table=name)
            continue
        match = body.get("match", "exact")
        if match not in MATCHES:
            c.error(f"table '{name}': unknown match '{match}'", c.where(body, "match"),
                    hint=closest(match, MATCHES) or "match: " + ", ".join(MATCHES),
                    key="compile.table_match", table=name, match=match, matches=", ".join(MATCHES))
            continue
        declared = body.get("columns") or {}
        columns = {str(k): str(v.get("type", "any") if isinstance(v, Mapping) else v)
                   for k, v in declared.items()}
        key_cells = {"range": ("range",), "threshold": ("at_least",), "keys": ("keys",),
                     "exact": ("key",)}[match]
        rows: list[Row] = []
        for i, raw in enumerate(body["rows"]):
            rloc = c.where(body["rows"], i)
            if not isinstance(raw, Mapping):
                c.error(f"table '{name}': row {i + 1} must be a map", rloc,
                        key="compile.row_not_map", table=name, n=i + 1)
                continue
            key = _row_key(c, name, match, raw, rloc)
            cells: dict[str, Any] = {}
            for col, value in raw.items():
                if col in key_cells:
                    continue
                if declared and col not in columns and col not in FREE_CELLS:
                    c.error(f"table '{name}' has no column '{col}'", c.key_where(raw, col),
                            hint=closest(col, columns) or "declare it under `columns:`",
                            key="compile.table_no_column", table=name, column=col)
                    continue
                ctype = columns.get(str(col))
                if ctype == "dice" and value is not None:
                    try:
                        value = parse_dice(str(value), dialect=c.dialect)
                    except DiceError as err:
                        err.location = _offset(c.where(raw, col), err)
                        c.errors.append(err)
                        continue
                elif ctype == "expr" and value is not None:
                    value = c.expr(raw, col, check_names=False)
                else:
                    value = _exact_deep(value)
                cells[str(col)] = value
            rows.append(Row(str(name), len(rows), key, cells))
        if body.get("provenance") is None:
            c.error(f"table '{name}' does not say where it comes from",
                    c.key_where(doc["tables"], name),
                    hint="add `provenance: seed | found | reconstructed | house-rule` "
                         "and a `source:`",
                    key="compile.table_provenance", table=name)
        c.message_keys.add(f"table.{name}")
        tables[str(name)] = Table(str(name), match, rows, columns, body.get("provenance"),
                                  body.get("source"), loc)
    c.tables = tables
    for name, table in tables.items():
        _check_columns(c, doc["tables"][name], table)
    return tables


def _check_columns(c: Compiler, body: Mapping[str, Any], table: Table) -> None:
    """Check cells of typed columns (int, number, bool, str, enum, list) like fields."""
    declared = body.get("columns") or {}
    for col, decl in declared.items():
        ctype = table.columns[str(col)]
        if ctype in ("dice", "expr", "any"):
            continue
        spec = compile_field(c, str(col), decl, c.where(declared, col), {
            **{k: tuple(map(str, v)) for k, v in (c.doc.get("enums") or {}).items()
               if isinstance(v, list)},
            **{k: tuple(map(str, v)) for k, v in (c.doc.get("enums") or {}).items()
               if isinstance(v, Mapping)}}, f"{table.name}.{col}", labelled=False)
        if spec is None:
            continue
        raw_rows = body["rows"]
        for row, raw in zip(table.rows, raw_rows):
            if str(col) not in row._cells:
                continue
            try:
                row._cells[str(col)] = spec.check(row._cells[str(col)], c.where(raw, col),
                                                  f"table '{table.name}' column")
            except StratagemError as err:
                c.errors.append(err)


def _exact_deep(value: Any) -> Any:
    if isinstance(value, list):
        return [_exact_deep(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _exact_deep(v) for k, v in value.items()}
    return exact(value)


def _row_key(c: Compiler, table: str, match: str, raw: Mapping[str, Any],
             loc: Location | None) -> Any:
    if match == "range":
        rng = raw.get("range")
        if not (isinstance(rng, list) and len(rng) == 2):
            c.error(f"table '{table}': a range row needs `range: [low, high]` (null = open)", loc,
                    key="compile.row_range", table=table)
            return (None, None)
        return (exact(rng[0]), exact(rng[1]))
    if match == "threshold":
        if "at_least" not in raw:
            c.error(f"table '{table}': a threshold row needs `at_least: N`", loc,
                    key="compile.row_threshold", table=table)
            return 0
        return exact(raw["at_least"])
    if match == "keys":
        keys = raw.get("keys")
        if not isinstance(keys, list):
            c.error(f"table '{table}': a matrix row needs `keys: [a, b]`", loc,
                    key="compile.row_matrix", table=table)
            return ()
        return tuple(exact(k) for k in keys)
    if "key" in raw:
        return exact(raw["key"])
    if "id" in raw:
        return raw["id"]
    c.error(f"table '{table}': a row needs `key:` (or `id:`)", loc,
            key="compile.row_no_key", table=table)
    return None
