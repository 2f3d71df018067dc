"""Procedures compiled to Python functions: the fast back-end of the interpreter.

Each procedure of a loaded ruleset becomes one Python function ``(run, scope) -> value``,
generated from its validated step records (``stratagem.model.steps``) once per ruleset and
per kind of run (with a trace or without). Blocks are inlined: the control-flow steps
(`set`, `if`, `for_each`, `repeat`, `call`, `return`, `break`) become Python statements,
every other step calls its runner in ``interp.steps`` (the ``RUN`` table) as the
interpreter does, and every expression is evaluated by the ruleset's evaluator, so the
expressions are compiled once, by ``stratagem.expr.compiled``, for both back-ends (but for
a bare name, whose compiled function is ``scope[name]``: the code reads the scope itself).

What the generated code may contain is fixed here, not by the rule files: its identifiers
are made from an index (``p3`` the fourth procedure, ``t12`` a step record, ``e7`` an
expression, ``k5`` a constant, ``v2`` a temporary), and everything taken from a file —
names, texts, numbers, records — reaches it only as a value of the function's globals
(``k5 = 'attacker'``), never as source text. The globals hold no builtins but the few
the generator itself writes.

The interpreter stays the reference: the battles fought by both are compared byte for
byte (``tests/engine/test_codegen.py``). The generated functions count steps against
``limits.max_steps`` block by block, keep ``run.depth`` and ``run.procedure`` as the
interpreter does, and fail with the interpreter's messages (the same helpers raise them).
A run without a trace gets functions with no trace calls at all. A procedure Python cannot
compile (loops nested deeper than Python allows) is interpreted; the others still run
compiled.

``STRATAGEM_BACKEND`` (``generated``, the default, or ``interpreter``) or the API's
``backend=`` picks the back-end of a run.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Mapping
from typing import Any

from stratagem import _native
from stratagem.errors import StratagemError
from stratagem.expr import Evaluator, Expr
from stratagem.interp.context import Run
from stratagem.interp.decisions import answer, check_default
from stratagem.interp.steps import (
    KEPT_AS_IT_IS,
    RUN,
    EntityOverlay,
    added_to,
    broken,
    emit,
    endless,
    field_value,
    kept,
    loop_items,
    note,
    passes,
    perform,
    roll_dice,
    round_end,
    run_procedure,
    too_deep,
    update_check,
)
from stratagem.model.entities import _ABSENT, _CHANGED, Entity, EntityKind, Unchanged
from stratagem.model.ruleset import Ruleset
from stratagem.model.steps import (
    Block,
    BreakStep,
    CallStep,
    CheckStep,
    DecideStep,
    EmitStep,
    ForEachStep,
    IfStep,
    LookupStep,
    Procedure,
    RepeatStep,
    RequireStep,
    ReturnStep,
    RollStep,
    ScheduleStep,
    SetStep,
    Step,
    UpdateStep,
)

#: The back-ends: ``generated`` (the default of the sources) runs the procedures as
#: generated Python functions, ``interpreter`` runs their step records (the reference, and
#: the default of a compiled build).
BACKENDS = ("generated", "interpreter")

Function = Callable[[Run, dict[str, Any]], Any]

#: What a change of a field reaches: the slots it moves on, the entity's own readers.
Reach = tuple[tuple[int, ...], tuple[str, ...]]

#: The most ways of reaching (groups of kinds) an `update` step's code is written for;
#: past them, every entity is changed by ``Entity.set`` or ``Entity.update``.
MAX_REACHES = 4

#: The bound under which the generated code keeps a whole number without calling ``kept``
#: (whose bound, ``MAX_MAGNITUDE``, is larger): the largest number CPython holds in one
#: digit, which it compares without a call.
_COMPACT = 2**30 - 1

#: What reading a table's index of the keys already seen raises for a key not there
#: (``Table.find``).
_UNSEEN = (KeyError, TypeError)

#: The only builtins the generated code reads (it writes them itself; a file cannot).
_BUILTINS: dict[str, Any] = {"enumerate": enumerate, "len": len, "bool": bool,
                            "Exception": Exception}


#: The default back-end, once known (a list: mypyc compiles no module-level assignment).
_DEFAULT: list[str] = []


def default_backend() -> str:
    """generated, except in a compiled build: there the interpreter is machine code and
    beats generated Python (docs/performance.md, "After the one-pipeline restructure")."""
    if not _DEFAULT:
        _DEFAULT.append("interpreter" if _native.build() == "compiled" else "generated")
    return _DEFAULT[0]


def backend(name: str | None = None) -> str:
    """The back-end a run uses: ``name``, else ``STRATAGEM_BACKEND``, else the default."""
    chosen = name or os.environ.get("STRATAGEM_BACKEND") or default_backend()
    if chosen not in BACKENDS:
        raise StratagemError(f"unknown back-end '{chosen}'",
                             hint="STRATAGEM_BACKEND (or backend=) is 'generated' or "
                                  "'interpreter'",
                             key="run.unknown_backend", params={"name": chosen})
    return chosen


def procedures_for(ruleset: Ruleset, tracing: bool,
                   name: str | None = None) -> Mapping[str, Function] | None:
    """What a :class:`Run` of ``ruleset`` takes as ``generated``: the procedures as
    functions (made on first use, then kept with the ruleset), or None when the chosen
    back-end is the interpreter."""
    if backend(name) == "interpreter":
        return None
    made = ruleset.generated.get(tracing)
    if made is None:
        made = ruleset.generated[tracing] = generate(ruleset, tracing)
    return made


def generate(ruleset: Ruleset, tracing: bool) -> dict[str, Function]:
    """One function per procedure of ``ruleset``, for runs with a trace or without."""
    namespace, written = _write(ruleset, tracing)
    functions: dict[str, Function] = {}
    for proc in ruleset.procedures.values():
        fname, source = written[proc.name]
        try:
            code = compile(source, f"<procedure {fname}>", "exec")
        except (SyntaxError, RecursionError, MemoryError):
            # Python's own bounds (statically nested blocks, parser depth): interpreted.
            namespace[fname] = _interpreted(proc)
        else:
            exec(code, namespace)  # noqa: S102 - made only of the writer's own statements
        functions[proc.name] = namespace[fname]
    return functions


def sources(ruleset: Ruleset, tracing: bool) -> dict[str, str]:
    """The source :func:`generate` compiles for each procedure (to read, or to check)."""
    return {name: source for name, (_, source) in _write(ruleset, tracing)[1].items()}


def _write(ruleset: Ruleset, tracing: bool) -> tuple[dict[str, Any], dict[str, tuple[str, str]]]:
    """The globals of the generated code, and each procedure's function name and source."""
    names = {proc.name: f"p{i}" for i, proc in enumerate(ruleset.procedures.values())}
    namespace: dict[str, Any] = {"__builtins__": dict(_BUILTINS)}
    writer = _Writer(namespace, names, tracing, ruleset)
    return namespace, {proc.name: (names[proc.name], writer.procedure(proc, names[proc.name]))
                       for proc in ruleset.procedures.values()}


def _first_call(namespace: dict[str, Any], name: str, evaluator: Evaluator,
                expr: Expr) -> Callable[[Mapping[str, Any]], Any]:
    """What the generated code calls for ``expr`` until it first runs: the expression is
    compiled then (as the interpreter compiles it), and its function takes this one's place."""

    def first(scope: Mapping[str, Any]) -> Any:
        function = evaluator.function(expr)
        assert function is not None
        namespace[name] = function
        return function(scope)

    return first


def _interpreted(proc: Procedure) -> Function:
    def interpreted(run: Run, scope: dict[str, Any]) -> Any:
        return run_procedure(run, proc, scope)

    return interpreted


class _Writer:
    """Writes the source of one procedure at a time into a shared namespace."""

    def __init__(self, namespace: dict[str, Any], procedures: Mapping[str, str],
                 tracing: bool, ruleset: Ruleset) -> None:
        self.ns = namespace
        self.procedures = procedures
        self.tracing = tracing
        self.ruleset = ruleset
        self._names: dict[tuple[str, int], str] = {}
        self._count = 0
        self.lines: list[str] = []
        #: the loops around the step being written: (record, its pass counter or None)
        self.loops: list[tuple[Step, str | None]] = []
        #: each field's name -> the values the kinds that have it take as they are
        #: (``FieldSpec.unchanged``): one way, or several
        self.declared: dict[str, set[Unchanged]] = {}
        for kind in ruleset.kinds.values():
            for name, spec in kind.fields.items():
                self.declared.setdefault(name, set()).add(spec.unchanged)
        self.ns.update(emit=emit, note=note, round_end=round_end, endless=endless,
                       items=loop_items, deep=too_deep, passes=passes, kept=kept,
                       checked=update_check, added=added_to, field=field_value,
                       overlay=EntityOverlay)

    # -- names ----------------------------------------------------------------------------
    def value(self, value: Any, prefix: str = "k") -> str:
        """The global through which the code reads ``value`` (one per object)."""
        key = (prefix, id(value))
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = f"{prefix}{self._count}"
            self._count += 1
            self.ns[name] = value
        return name

    def kept(self, expr: Expr, depth: int, what: str) -> str:
        """Code for the value of ``expr`` checked as a value a battle may keep (as the
        interpreter's runners check it: :func:`stratagem.interp.steps.kept`). The common
        values (a whole number of a size a battle keeps, an entity, text, true or false)
        are passed here without a call."""
        value = self.expr(expr, depth)
        call = f"kept({value}, {self.value(expr, 'e')}, {self.value(what)})"
        if not value.startswith("v"):  # a constant, or the evaluator called for it
            if expr.is_constant and not expr.compiled:
                try:  # a constant is kept as it is or refused, the same on every pass
                    kept(expr.constant, expr, what)
                except Exception:  # noqa: BLE001 - refused: the call says so when it runs
                    return call
                return value
            return call
        of = f"{self.value(type, 'g')}({value})"
        # a whole number within +-_COMPACT is kept as it is (CPython compares numbers that
        # small without a call, not ``MAX_MAGNITUDE``); any other goes to ``kept``
        self.line(depth, f"if {of} is not {self.value(int, 'g')} or not "
                         f"-{_COMPACT} < {value} < {_COMPACT}:")
        self.line(depth + 1, f"if {of} not in {self.value(KEPT_AS_IT_IS, 'g')}: {value} = {call}")
        return value

    def temp(self) -> str:
        self._count += 1
        return f"v{self._count}"

    def expr(self, expr: Expr, depth: int, scope: str = "s") -> str:
        """Python code that reads the value of ``expr`` in the scope ``s``: a constant, or a
        temporary that the lines written here at ``depth`` compute. The expression's
        compiled function (``Evaluator.function``, made on its first call) is called
        directly; what it raises becomes the error :meth:`Evaluator.eval` would raise."""
        if expr.is_constant and not expr.compiled:
            return self.value(expr.constant)
        record = self.value(expr, "e")
        evaluator = self.ruleset.evaluator
        if evaluator.mode != "compiled":
            return f"r.evaluator.eval({record}, {scope})"
        node = expr.node
        if type(node) is ast.Name and node.id not in evaluator.constants:
            # a bare name: its compiled function is ``scope[name]`` (``expr.compiled``), so
            # the read is written here, without the call (a missing name raises the same
            # KeyError, which becomes the same error)
            computed = f"{scope}[{self.value(node.id)}]"
        else:
            function = self._names.get(("f", id(expr)))
            if function is None:
                function = self._names[("f", id(expr))] = f"f{record[1:]}"
                self.ns[function] = _first_call(self.ns, function, evaluator, expr)
            computed = f"{function}({scope})"
        value = self.temp()
        self.line(depth, "try:")
        self.line(depth + 1, f"{value} = {computed}")
        self.line(depth, "except Exception as x:")
        self.line(depth + 1, f"raise r.evaluator.failure(x, {record}, {scope}) from None")
        return value

    # -- writing --------------------------------------------------------------------------
    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def procedure(self, proc: Procedure, fname: str) -> str:
        self.lines = []
        self.loops = []
        self.line(0, f"def {fname}(r, s):")
        self.line(1, f"s[{self.value('battle')}] = r.root")
        self.line(1, "o = r.procedure")
        self.line(1, f"r.procedure = {self.value(proc.name)}")
        self.line(1, "d = r.depth")
        self.line(1, "r.depth = d + 1")
        self.line(1, "try:")
        self.block(proc.steps, 2)
        self.line(1, "finally:")
        self.line(2, "r.depth = d")
        self.line(2, "r.procedure = o")
        return "\n".join(self.lines) + "\n"

    def block(self, block: Block, depth: int) -> None:
        steps = block.steps if self.tracing else block.untraced
        if not steps:
            self.line(depth, "pass")
            return
        self.line(depth, f"r.steps += {len(steps)}")
        self.line(depth, f"if r.steps > r.max_steps: r.checkpoint({self.value(steps[0], 't')})")
        for step in steps:
            if step.when is not None:
                self.line(depth, f"if {self.expr(step.when, depth)}:")
                self.step(step, depth + 1)
            else:
                self.step(step, depth)

    def step(self, step: Step, depth: int) -> None:
        start = len(self.lines)
        writer = _STEPS.get(type(step))
        if writer is None or not writer(self, step, depth):
            self.line(depth, f"{self.value(RUN[type(step)], 'g')}(r, {self.value(step, 't')}, s)")
        if len(self.lines) == start:
            self.line(depth, "pass")

    # -- the control-flow steps (each answers whether it wrote the step) ------------------
    def set_(self, step: SetStep, depth: int) -> bool:
        for name, expr in step.values:
            value = self.kept(expr, depth, "the value of '" + name + "'")
            self.line(depth, f"s[{self.value(name)}] = {value}")
        if self.tracing:
            shown = ", ".join(f"{self.value(name)}: s[{self.value(name)}]"
                              for name, _ in step.values)
            self.line(depth, f"emit(r, {self.value(step, 't')}, s, {{{shown}}})")
        return True

    def if_(self, step: IfStep, depth: int) -> bool:
        assert step.cond is not None
        if self.tracing:
            taken = self.temp()
            self.line(depth, f"{taken} = bool({self.expr(step.cond, depth)})")
            self.line(depth, f"note(r, {self.value(step, 't')}, s, "
                             f"{{'condition': {self.value(step.cond.text)}, 'value': {taken}}})")
        else:
            taken = self.expr(step.cond, depth)
        self.line(depth, f"if {taken}:")
        self.block(step.then, depth + 1)
        if (step.otherwise.steps if self.tracing else step.otherwise.untraced):
            self.line(depth, "else:")
            self.block(step.otherwise, depth + 1)
        return True

    def for_each(self, step: ForEachStep, depth: int) -> bool:
        assert step.items is not None
        record = self.value(step, "t")
        items, item, index = self.temp(), self.temp(), self.temp()
        name = self.value(step.name)
        given = self.expr(step.items, depth)
        # what ``items`` (``loop_items``) does, without its call: the list, or its error
        self.line(depth, "try:")
        self.line(depth + 1, f"{items} = {self.value(list, 'g')}({given})")
        self.line(depth, f"except {self.value(TypeError, 'g')}:")
        self.line(depth + 1, f"items({record}, {given})")
        if not self.tracing and step.body.trace_only:
            # Nothing to record: only bind what the loop leaves behind.
            self.line(depth, f"if {items}:")
            self.line(depth + 1, f"s[{name}] = {items}[-1]")
            if step.index:
                self.line(depth + 1, f"s[{self.value(step.index)}] = len({items}) - 1")
            return True
        if self.tracing:
            self.line(depth, f"note(r, {record}, s, {{'in': {self.value(step.items.text)}, "
                             f"'count': len({items})}})")
        self.line(depth, "r.depth += 1")
        if step.index:
            self.line(depth, f"for {index}, {item} in enumerate({items}):")
            self.line(depth + 1, f"s[{name}] = {item}")
            self.line(depth + 1, f"s[{self.value(step.index)}] = {index}")
        else:
            self.line(depth, f"for {item} in {items}:")
            self.line(depth + 1, f"s[{name}] = {item}")
        self.loops.append((step, None))
        self.block(step.body, depth + 1)
        self.loops.pop()
        self.line(depth, "r.depth -= 1")
        return True

    def repeat(self, step: RepeatStep, depth: int) -> bool:
        record = self.value(step, "t")
        limit, bound, n = self.temp(), self.temp(), self.temp()
        self.line(depth, f"{limit} = r.limits.max_rounds")
        if step.max is not None:
            self.line(depth, f"{bound} = passes({record}, {self.expr(step.max, depth)})")
        self.line(depth, f"{n} = 0")
        self.line(depth, "r.depth += 1")
        self.line(depth, "while True:")
        inner = depth + 1
        if step.max is not None:
            self.line(inner, f"if {n} >= {bound}: break")
        if step.while_ is not None:
            self.line(inner, f"if not {self.expr(step.while_, inner)}: break")
        self.line(inner, f"{n} += 1")
        self.line(inner, f"if {n} > {limit}: endless({record}, {limit})")
        if step.name:
            self.line(inner, f"s[{self.value(step.name)}] = {n}")
        marked = step.report and self.tracing
        if marked:
            self.line(inner, f"r.record({record}, {{'round': {n}, 'heading': {record}.heading}}, "
                             "level='quiet')")
        self.loops.append((step, n if marked else None))
        self.block(step.body, inner)
        self.loops.pop()
        if marked:
            self.line(inner, f"round_end(r, {record}, {n})")
        if step.until is not None:
            self.line(inner, f"if {self.expr(step.until, inner)}: break")
        self.line(depth, "r.depth -= 1")
        if self.tracing:
            self.line(depth, f"note(r, {record}, s, {{'passes': {n}}})")
        return True

    def break_(self, step: BreakStep, depth: int) -> bool:
        if not self.loops:
            return False  # refused at load; the runner says what the interpreter says
        if self.tracing:
            self.line(depth, f"note(r, {self.value(step, 't')}, s, {{}})")
        loop, counter = self.loops[-1]
        if counter is not None:
            self.line(depth, f"round_end(r, {self.value(loop, 't')}, {counter})")
        self.line(depth, "break")
        return True

    def return_(self, step: ReturnStep, depth: int) -> bool:
        value = "None"
        if step.value is not None:
            value = self.temp()
            self.line(depth, f"{value} = {self.kept(step.value, depth, 'the value returned')}")
        if self.tracing:
            self.line(depth, f"note(r, {self.value(step, 't')}, s, {{'value': {value}}})")
        self.line(depth, f"return {value}")
        return True

    def call(self, step: CallStep, depth: int) -> bool:
        callee = self.procedures.get(step.procedure)
        if callee is None:
            return False
        record = self.value(step, "t")
        args, result = self.temp(), self.temp()
        given = ", ".join(self.value(name) + ": "
                          + self.kept(expr, depth, "the argument '" + name + "'")
                          for name, expr in step.args.items())
        self.line(depth, f"{args} = {{{given}}}")
        self.line(depth, f"if r.depth > r.limits.max_call_depth: deep(r, {record}.location)")
        self.line(depth, f"{result} = {callee}(r, {args})")
        if step.target:
            self.line(depth, f"s[{self.value(step.target)}] = {result}")
        if self.tracing:
            self.line(depth, f"note(r, {record}, s, {{'procedure': {record}.procedure, "
                             f"'result': {result}}})")
        return True

    def update(self, step: UpdateStep, depth: int) -> bool:
        """`update` without a trace: as ``run_update`` does it, each field's value checked
        by the same helpers (with a trace, the runner records the changes). An entity of
        a kind that has every field the step names (known here: ``_reach``) is changed by
        the code itself, what each change reaches written in as it is; any other entity
        (and a template's, which never changes) is checked by ``update_check`` and changed
        by ``Entity.set`` or ``Entity.update``, which say why not."""
        if self.tracing:
            return False
        assert step.entity is not None
        record = self.value(step, "t")
        target, entity = self.expr(step.entity, depth), self.temp()
        of, whole = self.value(type, 'g'), self.value(int, 'g')
        # one entity, the common case, told first (``isinstance`` of anything but a list
        # or a tuple also looks up its ``__class__``)
        self.line(depth, f"for {entity} in ({target},) if {of}({target}) is "
                         f"{self.value(Entity, 'g')} else {target} if "
                         f"{self.value(isinstance, 'g')}({target}, "
                         f"{self.value((list, tuple), 'g')}) else ({target},):")
        inner = depth + 1
        reach = self._reach(step)
        kind = self.temp()
        if reach:
            # the kinds known to have every field need no check (``update_check`` would
            # pass them); a kind the step has checked already passes by its name
            self.line(inner, f"if {of}({entity}) is {self.value(Entity, 'g')}:")
            self.line(inner + 1, f"{kind} = {entity}._kind")
            known = " and ".join(f"{kind} is not {self.value(k, 'g')}"
                                 for kinds, _ in reach for k in kinds)
            self.line(inner + 1, f"if {known} and {kind}.name not in {record}.kinds: "
                                 f"checked({record}, {entity})")
            self.line(inner, "else:")
            self.line(inner + 1, f"{kind} = None")
            self.line(inner + 1, f"checked({record}, {entity})")
        else:
            self.line(inner, f"if {of}({entity}) is not {self.value(Entity, 'g')} or "
                             f"{entity}._kind.name not in {record}.kinds:")
            self.line(inner + 1, f"checked({record}, {entity})")
        scope = "s"
        if not step.local:
            scope = self.temp()
            self.line(inner, f"{scope} = overlay(s, {entity})")
        fields = f"{entity}._kind.fields"  # read only by a value's check that fails
        values = []
        for name, expr in step.assign.items():
            values.append((name, self.field(name, self.expr(expr, inner, scope), inner,
                                            fields, record, entity)))
        for name, expr in step.add.items():
            more, now = self.expr(expr, inner, scope), self.temp()
            # two whole numbers added here (a procedure reads the field as it is: no
            # derived value is being computed), anything else by ``added_to``
            self.line(inner, f"{now} = {entity}._f.get({self.value(name)})")
            values.append((name, self.field(
                name, f"{now} + {more} if {of}({now}) is {of}({more}) is {whole} else "
                      f"added({record}, {entity}, {self.value(name)}, {more})", inner,
                fields, record, entity)))
        if len(values) == 1:
            (name, value), = values
            call = f"{entity}.set({self.value(name)}, {value})"
        else:
            given = "".join(f"({self.value(name)}, {value}), " for name, value in values)
            call = f"{entity}.update(({given}))"
        if not reach:
            self.line(inner, call)
            return True
        world = self.temp()
        for i, (kinds, fields_reach) in enumerate(reach):
            test = " or ".join(f"{kind} is {self.value(k, 'g')}" for k in kinds)
            self.line(inner, f"{'elif' if i else 'if'} ({test}) and not "
                             f"({world} := {entity}._w).frozen:")
            self.change(inner + 1, entity, world, values, fields_reach)
        self.line(inner, "else:")
        self.line(inner + 1, call)
        return True

    # -- steps whose runner, without a trace, does only what is written here ---------------
    # (with a trace, each runner records what it did: the runner is called)
    def lookup(self, step: LookupStep, depth: int) -> bool:
        """`lookup` without a trace, as ``run_lookup`` does it: the keys, then the shift,
        evaluated in order; the table's row found by ``Table.lookup``, whose error is placed
        at the step. One key and no shift: the row a key already seen found (the table's
        index, ``Table.find``) is read here; any other key goes to ``Table.lookup``."""
        table = self.ruleset.tables.get(step.table)
        if self.tracing or table is None:
            return False  # a table not there: the runner raises what it raises
        keys = [self.expr(key, depth) for key in step.keys]
        given = ", ".join(keys)
        if step.shift is not None:
            shift = self.temp()
            self.line(depth, f"{shift} = {self.value(int, 'g')}({self.expr(step.shift, depth)})")
            given += f", shift={shift}"
        name, row = self.value(table), self.temp()
        self.line(depth, "try:")
        if len(keys) == 1 and step.shift is None and table.match != "keys":
            self.line(depth + 1, "try:")
            self.line(depth + 2, f"{row} = {self.value(table.rows)}[{self.value(table._index)}"
                                 f"[{keys[0]}]]")
            self.line(depth + 1, f"except {self.value(_UNSEEN, 'g')}:")
            self.line(depth + 2, f"{row} = {name}.lookup({given})")
        else:
            self.line(depth + 1, f"{row} = {name}.lookup({given})")
        self.line(depth, f"except {self.value(StratagemError, 'g')} as x:")
        self.line(depth + 1, f"x.location = {self.value(step, 't')}.location")
        self.line(depth + 1, "raise")
        if step.target:
            self.line(depth, f"s[{self.value(step.target)}] = {row}")
        return True

    def roll(self, step: RollStep, depth: int) -> bool:
        """`roll` without a trace: ``roll_dice`` called as ``run_roll`` calls it (for the
        total alone when that is all the step keeps)."""
        if self.tracing:
            return False
        call = f"{self.value(roll_dice, 'g')}(r, {self.value(step.dice)}, s, " \
               f"{self.value(step.subject)}, {self.value(step.label)}, " \
               f"{self.value(step, 't')}.location"
        if not step.values_as:
            self.line(depth, f"s[{self.value(step.target)}] = {call}, True)" if step.target
                      else f"{call}, True)")
            return True
        result = self.temp()
        self.line(depth, f"{result} = {call})")
        if step.target:
            self.line(depth, f"s[{self.value(step.target)}] = {result}.total")
        if step.values_as:
            self.line(depth, f"s[{self.value(step.values_as)}] = "
                             f"{self.value(list, 'g')}({result}.values)")
        return True

    def check(self, step: CheckStep, depth: int) -> bool:
        """`check` without a trace: ``perform`` called as ``run_check`` calls it."""
        if self.tracing:
            return False
        call = f"{self.value(perform, 'g')}(r, {self.value(step.spec)}, s, " \
               f"{self.value(step, 't')}.location)"
        self.line(depth, f"s[{self.value(step.target)}] = {call}[0]" if step.target else call)
        return True

    def decide(self, step: DecideStep, depth: int) -> bool:
        """`decide` without a trace, as ``decide`` does it: the subject evaluated; the
        common ask (no plan for the decision, no prompt: its default) answered here, the
        default checked by ``check_default`` when it must be (nothing else reads the
        subject's name); any other by ``answer``."""
        if self.tracing:
            return False
        record, target = self.value(step, "t"), f"s[{self.value(step.target)}]"
        subject = "None" if step.subject is None else self.expr(step.subject, depth)
        if step.default is None:
            self.line(depth, f"{target} = {self.value(answer, 'g')}(r, {record}, s, {subject})[0]")
            return True
        decisions = self.temp()
        self.line(depth, f"{decisions} = r.decisions")
        self.line(depth, f"if {decisions}.ask is None and not "
                         f"{decisions}.given.get({self.value(step.id)}):")
        value = self.expr(step.default, depth + 1)
        check = f"{self.value(check_default, 'g')}(r, {record}, s, {subject}, {value})"
        if step.range is not None or step.options is not None:
            self.line(depth + 1, check)
        elif step.type == "bool" and not (value in self.ns and type(self.ns[value]) is bool):
            # what ``check_default`` tests of a bool decision's default (a constant: now)
            self.line(depth + 1, f"if {self.value(type, 'g')}({value}) is not "
                                 f"{self.value(bool, 'g')}: {check}")
        self.line(depth + 1, f"{target} = {value}")
        self.line(depth, "else:")
        self.line(depth + 1, f"{target} = {self.value(answer, 'g')}(r, {record}, s, {subject})[0]")
        return True

    def require(self, step: RequireStep, depth: int) -> bool:
        """`require` without a trace: the rule tested here, ``broken`` raising the
        runner's error when it does not hold."""
        if self.tracing:
            return False
        assert step.cond is not None
        self.line(depth, f"if not {self.expr(step.cond, depth)}: "
                         f"{self.value(broken, 'g')}(r, {self.value(step, 't')}, s)")
        return True

    def untraced(self, step: Step, depth: int) -> bool:
        """`emit` and `schedule` only record: without a trace nothing is written (a `when:`
        is still evaluated, as the interpreter evaluates it)."""
        return not self.tracing

    def _reach(self, step: UpdateStep) -> list[tuple[list[EntityKind], dict[str, Reach]]]:
        """The kinds of entity that have every field the step changes (those
        ``update_check`` passes), grouped by what a change of each field reaches
        (``EntityKind.bumps``, ``EntityKind.readers``, fixed before any code is written);
        none if more than ``MAX_REACHES`` ways."""
        names = [*step.assign, *step.add]
        groups: dict[tuple[tuple[str, Reach], ...], list[EntityKind]] = {}
        for kind in self.ruleset.kinds.values():
            if all(name in kind.fields or name in kind.children for name in names):
                reach = tuple((name, (kind.bumps.get(name, ()), kind.readers.get(name, ())))
                              for name in names)
                groups.setdefault(reach, []).append(kind)
        if len(groups) > MAX_REACHES:
            return []
        return [(kinds, dict(reach)) for reach, kinds in groups.items()]

    def change(self, depth: int, entity: str, world: str, values: list[tuple[str, str]],
               reach: Mapping[str, Reach]) -> None:
        """The changes of ``Entity.set`` (one field) or ``Entity.update`` (several), made by
        the code: each field set, and if its value is not the one it had, the slots it bumps
        moved on and its readers' cached values dropped; the entity added once to the
        battle's list of changes (``set``: at its change, ``update``: after them all)."""
        of, absent = self.value(type, 'g'), self.value(_ABSENT, 'g')
        fields, old = self.temp(), self.temp()
        alone = len(values) == 1
        changed = self.temp()
        self.line(depth, f"{fields} = {entity}._f")
        if not alone:
            self.line(depth, f"{changed} = False")
        for name, value in values:
            key = self.value(name)
            self.line(depth, f"{old} = {fields}.get({key}, {absent})")
            self.line(depth, f"{fields}[{key}] = {value}")
            self.line(depth, f"if {of}({old}) is not {of}({value}) or {old} != {value}:")
            inner = depth + 1
            if alone:
                self.line(inner, f"if {world}.follow: {world}.changes.append({entity})")
            else:
                self.line(inner, f"{changed} = True")
            slots, readers = reach[name]
            if len(slots) == 1:
                self.line(inner, f"{world}.versions[{slots[0]}] += 1")
            elif slots:
                versions = self.temp()
                self.line(inner, f"{versions} = {world}.versions")
                for slot in slots:
                    self.line(inner, f"{versions}[{slot}] += 1")
            if len(readers) == 1:
                self.line(inner, f"{entity}._cache[{self.value(readers[0])}] = "
                                 f"{self.value(_CHANGED, 'g')}")
            elif readers:
                cache = self.temp()
                self.line(inner, f"{cache} = {entity}._cache")
                for reader in readers:
                    self.line(inner, f"{cache}[{self.value(reader)}] = {self.value(_CHANGED, 'g')}")
        if not alone:
            self.line(depth, f"if {changed} and {world}.follow: {world}.changes.append({entity})")

    def field(self, name: str, given: str, depth: int, fields: str, record: str,
              entity: str) -> str:
        """Code for ``given`` checked as the value of the field ``name`` (``field_value``).
        When every kind of entity that has the field takes the same values as they are
        (``FieldSpec.unchanged``), those are passed here without the call (an entity the
        step may change has the field: ``update_check`` saw to it)."""
        taken = self.declared.get(name, ())
        if len(taken) == 1 and given in self.ns and _takes(next(iter(taken)), self.ns[given]):
            return given  # a constant every kind that has the field takes as it is
        if given[0] == "v" and given[1:].isdigit():
            value = given  # a temporary of its own
        else:
            value = self.temp()
            self.line(depth, f"{value} = {given}")
        call = f"field({fields}, {self.value(name)}, {value}, {record}, {entity})"
        passed = self._passed(next(iter(taken)), value) if len(taken) == 1 else []
        if not passed:
            self.line(depth, f"{value} = {call}")
        else:
            self.line(depth, f"if not ({' or '.join(passed)}): {value} = {call}")
        return value

    def _passed(self, unchanged: Unchanged, value: str) -> list[str]:
        """The tests under which ``field_value`` returns ``value`` as it is, for a field that
        takes ``unchanged`` as they are (none when it takes no type of value: only None, if
        anything, which the call returns)."""
        if unchanged.cls is None:
            return []
        test = f"{self.value(type, 'g')}({value}) is {self.value(unchanged.cls, 'g')}"
        if unchanged.cls is int:
            test += f" and {self.value(unchanged.low)} <= {value} <= {self.value(unchanged.high)}"
        elif unchanged.values is not None:
            test += f" and {value} in {self.value(unchanged.values)}"
        return [test, f"{value} is None"] if unchanged.none else [test]


def _takes(unchanged: Unchanged, value: Any) -> bool:
    """Whether the tests :meth:`_Writer._passed` writes pass ``value`` (a constant)."""
    kind = type(value)
    if unchanged.cls is None:
        return False
    if kind is unchanged.cls:
        if kind is int:
            if unchanged.low <= value <= unchanged.high:
                return True
        elif unchanged.values is None or value in unchanged.values:
            return True
    return unchanged.none and value is None


_STEPS: dict[type, Callable[[_Writer, Any, int], bool]] = {
    SetStep: _Writer.set_, IfStep: _Writer.if_, ForEachStep: _Writer.for_each,
    RepeatStep: _Writer.repeat, BreakStep: _Writer.break_, ReturnStep: _Writer.return_,
    CallStep: _Writer.call, UpdateStep: _Writer.update, LookupStep: _Writer.lookup,
    RollStep: _Writer.roll, CheckStep: _Writer.check, DecideStep: _Writer.decide,
    RequireStep: _Writer.require, EmitStep: _Writer.untraced, ScheduleStep: _Writer.untraced,
}

__all__ = ["BACKENDS", "backend", "generate", "procedures_for", "sources"]
