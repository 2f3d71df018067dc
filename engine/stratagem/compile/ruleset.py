"""Compiling a merged ruleset document into a :class:`Ruleset` (``stratagem.model``):
declarations, tables, formulas, and procedures as frozen step records.

Every problem is collected (not just the first) with its file, line and column.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

from stratagem.compile.checks import Type, check_ruleset
from stratagem.compile.compiler import Compiler, compile_derived, compile_kinds, compile_tables
from stratagem.compile.readers import plan_readers
from stratagem.compile.typed_reads import typed_reads
from stratagem.dice import DiceDialect
from stratagem.errors import Location, StratagemError, ValidationFailed, Word, a_or_an
from stratagem.expr import Expr
from stratagem.expr.bounds import describe_number
from stratagem.model.entities import EntityKind
from stratagem.model.ruleset import RUN_CAPS, TOP_LEVEL, Ruleset, RunLimits
from stratagem.model.steps import Procedure, block
from stratagem.model.tables import Row
from stratagem.model.values import Label, closest, exact, where


def compile_ruleset(doc: Mapping[str, Any], ref: str | None = None) -> Ruleset:
    """Compile a merged ruleset document. Raises :class:`ValidationFailed` with every error."""
    rs = Ruleset()
    rs.doc = doc
    rs.id = str(doc.get("id") or ref or "ruleset")
    rs.ref = ref or rs.id
    loc = where(doc)
    rs.path = loc.file if loc else None
    dice_opts = doc.get("dice") or {}
    try:
        rs.dialect = DiceDialect(**{k: v for k, v in dice_opts.items()})
    except TypeError as err:
        raise ValidationFailed([StratagemError(f"bad `dice:` options: {err}",
                                               location=where(doc, "dice"),
                                               key="compile.bad_dice_options",
                                               params={"problem": str(err)})]) from None
    c = Compiler(doc, rs.dialect)
    for key in doc:
        if key not in TOP_LEVEL:
            c.error(f"unknown top-level key '{key}'", c.key_where(doc, key),
                    hint=closest(key, TOP_LEVEL) or "keys: " + ", ".join(TOP_LEVEL),
                    key="compile.unknown_top_key", name=key, keys=", ".join(TOP_LEVEL))
    rs.constants = {str(k): _exact(v) for k, v in (doc.get("constants") or {}).items()}
    rs.evaluator.set_constants(rs.constants)
    c.constants = rs.constants
    rs.limits = _limits(c, doc)
    rs.tables = compile_tables(c, doc)
    c.tables = rs.tables
    rs.kinds = compile_kinds(c, doc)
    c.kinds = rs.kinds
    formulas = doc.get("formulas") or {}
    procedures = doc.get("procedures") or {}
    c.formula_names = {str(k) for k in formulas}
    c.procedure_params = {str(k): _params(body) for k, body in procedures.items()}
    _install_functions(rs)
    compiled_formulas = _compile_formulas(c, formulas)
    _install_formulas(rs, compiled_formulas)
    compile_derived(c, doc, rs.kinds)
    for name, body in procedures.items():
        rs.procedures[str(name)] = _compile_procedure(c, str(name), body,
                                                       where(procedures, name))
    entry = doc.get("entry") or {}
    for purpose, proc in entry.items():
        if str(proc) not in rs.procedures:
            c.error(f"entry '{purpose}' names unknown procedure '{proc}'", where(entry, purpose),
                    hint=closest(proc, rs.procedures),
                    key="compile.entry_unknown", purpose=purpose, procedure=proc)
        rs.entry[str(purpose)] = str(proc)
    rate = rs.entry.get("rate")
    if rate in rs.procedures and len(rs.procedures[rate].params) != 1:
        c.error(f"the rate procedure '{rate}' must take exactly one parameter (the side)",
                where(entry, "rate"), hint="e.g. rate: {params: [side], steps: [...]}",
                key="compile.rate_params", procedure=rate)
    if "battle" not in rs.entry and not c.errors:
        c.error("the ruleset has no `entry: {battle: PROCEDURE}`", where(doc),
                hint="name the procedure `stratagem battle` runs",
                key="compile.no_entry")
    report = doc.get("report") or {}
    parts = _compile_report(c, report, rs.kinds)
    rs.report, rs.rate_report = parts[""], parts["rate"]
    rs.rounds_report, rs.odds_report = parts["rounds"], parts["odds"]
    if "outcome" in doc:
        with c.procedure_scope({"battle"}):
            rs.outcome = c.expr(doc, "outcome")
    rs.notes = list(doc.get("notes") or [])
    rs.decisions = c.decisions
    c.message_keys.add("ruleset.title")
    rs._message_keys = c.message_keys
    receivers: dict[int, Type | None] = {}  # what each `x.name` reads from (checks.py)
    nodes: dict[int, Any] = {}  # and the `x.name` nodes themselves
    if not c.errors:  # the static checks read a ruleset whose every part compiled
        c.errors.extend(check_ruleset(rs, compiled_formulas, receivers, nodes))
    if c.errors:
        raise ValidationFailed(_sorted_errors(c.errors))
    plan_readers(rs, compiled_formulas, receivers)
    rs.evaluator.set_reads(typed_reads(rs, receivers, nodes))
    return rs


def _limits(c: Compiler, doc: Mapping[str, Any]) -> RunLimits:
    """`limits:`: each a whole number from 1 to its hard cap (:data:`RUN_CAPS`); a ruleset
    lowers a limit freely and raises it only that far."""
    limits = doc.get("limits") or {}
    if not isinstance(limits, Mapping):
        c.error("`limits:` takes a map, e.g. limits: {max_rounds: 100}", where(doc, "limits"),
                key="compile.limits_map")
        return RunLimits()
    values: dict[str, int] = {}
    for key, value in limits.items():
        loc = where(limits, key)
        cap = RUN_CAPS.get(str(key))
        if cap is None:
            known = ", ".join(RUN_CAPS)
            c.error(f"unknown limit '{key}'", c.key_where(limits, key),
                    hint=closest(key, RUN_CAPS) or "limits: " + known,
                    key="compile.limit_unknown", limit=str(key), limits=known)
        elif isinstance(value, bool) or not isinstance(value, int) or value < 1:
            usual = getattr(RunLimits(), str(key))
            c.error(f"limits.{key} must be a whole number of at least 1, got {describe_number(value)}",
                    loc, hint=f"e.g. {key}: {usual:_}", key="compile.limit_not_whole",
                    limit=str(key), value=describe_number(value), usual=f"{usual:_}")
        elif value > cap:
            c.error(f"limits.{key} is {describe_number(value)}, over the hard cap of {cap:,} that the "
                    "engine sets", loc,
                    hint=f"a ruleset may lower a limit, and raise it up to {cap:_}",
                    key="compile.limit_over_cap", limit=str(key), value=describe_number(value),
                    cap=cap, cap_written=f"{cap:_}")
        else:
            values[str(key)] = value
    return RunLimits(**values)


#: The entries of `report:` that are not an entity kind: what `stratagem rate` shows, what
#: reports chart per round, what `stratagem odds` summarises.
REPORT_PARTS = ("rate", "rounds", "odds")


def _compile_report(c: Compiler, report: Mapping[str, Any], kinds: Mapping[str, EntityKind]
                    ) -> dict[str, dict[str, list[str]]]:
    """`report: {kind: [names]}` (under the key "") plus the optional `rate:`, `rounds:` and
    `odds:` entries, each `{kind: [names]}`; every name must be a field or derived value of
    its kind, and its label is a message key."""
    parts: dict[str, dict[str, list[str]]] = {"": {}, **{p: {} for p in REPORT_PARTS}}
    for key, value in report.items():
        part = str(key) if key in REPORT_PARTS else ""
        target, node = parts[part], (value if part else {key: value})
        if not isinstance(node, Mapping):
            c.error(f"`report.{key}` takes {{kind: [names]}}", where(report, key),
                    key="compile.report_not_map", section=key)
            continue
        for kind, names in node.items():
            loc = where(node, kind)
            if str(kind) not in kinds:
                c.error(f"`report` names unknown entity kind '{kind}'", loc,
                        hint=closest(kind, kinds),
                        key="compile.report_unknown_kind", kind=kind)
                continue
            members = kinds[str(kind)].member_names()
            target[str(kind)] = []
            for i, name in enumerate(names or []):
                if name not in members:
                    c.error(f"`report`: {a_or_an(kind)} has no field or derived value '{name}'",
                            where(names, i), hint=closest(name, members),
                            key="compile.report_no_member", kind=Word(kind),
                            name=name)
                    continue
                target[str(kind)].append(str(name))
                c.message_keys.add(f"field.{kind}.{name}")
    shown = {kind for part in parts.values() for kind in part}
    for parent, declared in kinds.items():  # the headings of the tables of a side's entities
        for collection, child in declared.children.items():
            if child in shown and parent != "battle":
                c.message_keys.add(f"field.{parent}.{collection}")
    return parts


def _sorted_errors(errors: list[StratagemError]) -> list[StratagemError]:
    def key(err: StratagemError) -> tuple[str, int, int]:
        loc = err.location or Location()
        return (loc.file or "", loc.line or 0, loc.column or 0)

    return sorted(errors, key=key)


def _exact(value: Any) -> Any:
    if isinstance(value, list):
        return [_exact(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _exact(v) for k, v in value.items()}
    return exact(value)


def _compile_formulas(c: Compiler, formulas: Mapping[str, Any]) -> dict[str, tuple[list[str], Expr]]:
    out = {}
    for name, body in formulas.items():
        loc = where(formulas, name)
        if isinstance(body, (str, int, float)):
            params: list[str] = []
            node, key = formulas, name
        elif isinstance(body, Mapping) and "expr" in body:
            params = [str(p) for p in body.get("params") or []]
            node, key = body, "expr"
        else:
            c.error(f"formula '{name}' must be an expression or {{params: [..], expr: '..'}}",
                    loc,
                    key="compile.formula_shape", name=name)
            continue
        with c.procedure_scope(set(params)):
            out[str(name)] = (params, c.expr(node, key))
    return out


#: Argument types whose values fully determine a formula's result (no entity state).
_PLAIN_ARGS: Final = frozenset({int, float, str, bool, type(None), Fraction})
_MEMO_SIZE: Final = 4096
#: The plain argument types a formula's memo keys as they are (a Fraction is keyed by its
#: terms: its own hash and comparison are Python methods).
_HASHED: Final = _PLAIN_ARGS - {Fraction}
#: A formula's value not given (`one` and `two` take their values as positional-only
#: parameters with this default).
_NONE: Final = object()


def _given(*values: Any) -> tuple[Any, ...]:
    """The values a call of `one` or `two` gave, in order: those its parameters took (up to
    the first not given), then the rest (``values[-1]``, the tuple of more)."""
    given = []
    for value in values[:-1]:
        if value is _NONE:
            break
        given.append(value)
    return (*given, *values[-1])


def _install_formulas(rs: Ruleset, formulas: Mapping[str, tuple[list[str], Expr]]) -> None:
    """Formulas become functions of the ruleset's expressions. A formula reads only its
    arguments, the constants and the tables, all immutable, so a call whose arguments are
    plain values (numbers, text) is remembered: the same call never evaluates twice."""

    def make(name: str, params: list[str], expr: Expr) -> Any:
        memo: dict[tuple[Any, ...], Any] = {}
        count = len(params)
        first = params[0] if params else ""
        second = params[1] if count > 1 else ""

        # A call of plain values is remembered under its values and their types (1, 1.0
        # and True are different calls): ``(type, a)`` for one value, ``(type, type, a,
        # b)`` for two (the common calls, each answered by a function of its own: `one`,
        # `two`, keyed without a loop), ``(types, values)`` for more. Only calls of all the
        # formula's values by position are remembered, so the keys of one formula all have
        # one shape. `one` and `two` key a fraction by its terms (numerator, denominator:
        # the same value, as its type is in the key), whose hash and comparison are C's,
        # where a Fraction's are Python methods (about 2 µs a call found in the memo).
        def formula(*args: Any, **kwargs: Any) -> Any:
            if kwargs or len(args) != count:  # named values, or a mistake to explain
                return evaluate(args, kwargs)
            types = tuple([type(arg) for arg in args])
            key: tuple[Any, ...] | None = (types, args)
            for kind in types:
                if kind not in _PLAIN_ARGS:
                    key = None
                    break
            if key is not None:
                try:
                    return memo[key]
                except KeyError:
                    pass
            value = rs.evaluator.eval(expr, dict(zip(params, args)))
            if key is None:  # an entity, a list: its value may change between calls
                return value
            if len(memo) < _MEMO_SIZE:
                memo[key] = value
            return value

        def evaluate(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            if len(args) > len(params):
                raise StratagemError(f"formula '{name}' takes {len(params)} values, "
                                     f"got {len(args)}", location=expr.location,
                                     key="compile.formula_values",
                                     params={"name": name, "n": len(params), "given": len(args)})
            scope = dict(zip(params, args))
            if kwargs or len(args) < len(params):
                scope.update(kwargs)
                missing = [p for p in params if not dict.__contains__(scope, p)]
                if missing:
                    raise StratagemError(f"formula '{name}' needs {', '.join(missing)}",
                                         location=expr.location,
                                         key="compile.formula_needs",
                                         params={"name": name, "missing": ", ".join(missing)})
            return rs.evaluator.eval(expr, scope)

        # `formula`, written for one value and for two (no branch on their number). Their
        # values are positional-only parameters (no tuple of them made a call); the keys of
        # the common values are made first, a fraction's (by its terms) after them.
        def one(a: Any = _NONE, /, *more: Any, **kwargs: Any) -> Any:
            if kwargs or more or a is _NONE:
                return evaluate(_given(a, more), kwargs)
            kind = type(a)
            if kind in _HASHED:
                key: tuple[Any, ...] = (kind, a)
            elif kind is Fraction:
                key = (kind, a.numerator, a.denominator)
            else:
                return rs.evaluator.eval(expr, {first: a})
            try:
                return memo[key]
            except KeyError:
                pass
            value = rs.evaluator.eval(expr, {first: a})
            if len(memo) < _MEMO_SIZE:
                memo[key] = value
            return value

        def two(a: Any = _NONE, b: Any = _NONE, /, *more: Any, **kwargs: Any) -> Any:
            if kwargs or more or b is _NONE:
                return evaluate(_given(a, b, more), kwargs)
            kind, other = type(a), type(b)
            if kind in _HASHED and other in _HASHED:
                key: tuple[Any, ...] = (kind, other, a, b)
            elif kind in _PLAIN_ARGS and other in _PLAIN_ARGS:
                key = (kind, other, (a.numerator, a.denominator) if kind is Fraction else a,
                       (b.numerator, b.denominator) if other is Fraction else b)
            else:
                return rs.evaluator.eval(expr, {first: a, second: b})
            try:
                return memo[key]
            except KeyError:
                pass
            value = rs.evaluator.eval(expr, {first: a, second: b})
            if len(memo) < _MEMO_SIZE:
                memo[key] = value
            return value

        made = one if count == 1 else two if count == 2 else formula
        made.__name__ = name
        return made

    for name, (params, expr) in formulas.items():
        rs.evaluator.functions[name] = make(name, params, expr)


def _install_functions(rs: Ruleset) -> None:
    def lookup(table: Any, *keys: Any, shift: Any = 0) -> Row:
        return rs._table(table).lookup(*keys, shift=int(shift))

    def row(table: Any, key: Any) -> Row:
        return rs._table(table).row_by_id(key)

    def has(table: Any, *keys: Any) -> bool:
        return rs._table(table).find(keys) is not None

    def keys(table: Any) -> list[Any]:
        return rs._table(table).keys()

    def rows(table: Any) -> list[Row]:
        return list(rs._table(table).rows)

    def label(enum: Any, value: Any = None) -> Label:
        if value is None:
            return Label(str(enum), str(enum))
        return Label(f"enum.{enum}.{value}", str(value))

    rs.evaluator.functions.update(lookup=lookup, row=row, has=has, keys=keys, rows=rows,
                                  label=label)


def _params(body: Any) -> list[str]:
    """The parameters of a procedure, from its YAML."""
    if isinstance(body, Mapping):
        return [str(p) for p in body.get("params") or []]
    return []


def _compile_procedure(c: Compiler, name: str, body: Any, loc: Location | None) -> Procedure:
    params = _params(body)
    if isinstance(body, list):
        node: Mapping[str, Any] = {"steps": body}
    elif isinstance(body, Mapping):
        node = body
    else:
        c.error(f"procedure '{name}' must be a list of steps or {{params: [..], steps: [..]}}",
                loc,
                key="compile.procedure_shape", name=name)
        return Procedure(name, [], block(), loc)
    with c.procedure_scope(set(params) | {"battle"}):
        steps = c.block(node, "steps")
    return Procedure(name, params, steps, loc)
