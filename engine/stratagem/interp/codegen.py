"""Procedures compiled to Python functions: the fast back-end of the interpreter.

Each procedure of a loaded ruleset becomes one Python function ``(run, scope) -> value``,
generated from its validated step records (``stratagem.model.steps``) once per ruleset and
per kind of run (with a trace or without). Blocks are inlined: the control-flow steps
(`set`, `if`, `for_each`, `repeat`, `call`, `return`, `break`) become Python statements,
every other step calls its runner in ``interp.steps`` (the ``RUN`` table) as the
interpreter does, and every expression is evaluated by the ruleset's evaluator, so the
expressions are compiled once, by ``stratagem.expr.compiled``, for both back-ends.

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

import os
from collections.abc import Callable, Mapping
from typing import Any

from stratagem import _native
from stratagem.errors import StratagemError
from stratagem.expr import Evaluator, Expr
from stratagem.expr.bounds import MAX_MAGNITUDE
from stratagem.interp.context import Run
from stratagem.interp.steps import (
    KEPT_AS_IT_IS,
    RUN,
    EntityOverlay,
    added_to,
    emit,
    endless,
    field_value,
    kept,
    loop_items,
    note,
    passes,
    round_end,
    run_procedure,
    too_deep,
    update_check,
)
from stratagem.model.entities import Entity, Unchanged
from stratagem.model.ruleset import Ruleset
from stratagem.model.steps import (
    Block,
    BreakStep,
    CallStep,
    ForEachStep,
    IfStep,
    Procedure,
    RepeatStep,
    ReturnStep,
    SetStep,
    Step,
    UpdateStep,
)

#: The back-ends: ``generated`` (the default of the sources) runs the procedures as
#: generated Python functions, ``interpreter`` runs their step records (the reference, and
#: the default of a compiled build).
BACKENDS = ("generated", "interpreter")

Function = Callable[[Run, dict[str, Any]], Any]

#: The bounds of a whole number a battle keeps (``stratagem.interp.steps.kept``); objects
#: of their own, so that the writer's globals name them once.
_SMALLEST = -MAX_MAGNITUDE

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
        self.line(depth, f"if {of} is not {self.value(int, 'g')} or not "
                         f"{self.value(_SMALLEST)} < {value} < {self.value(MAX_MAGNITUDE)}:")
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
        if self.ruleset.evaluator.mode != "compiled":
            return f"r.evaluator.eval({record}, {scope})"
        function = self._names.get(("f", id(expr)))
        if function is None:
            function = self._names[("f", id(expr))] = f"f{record[1:]}"
            self.ns[function] = _first_call(self.ns, function, self.ruleset.evaluator, expr)
        value = self.temp()
        self.line(depth, "try:")
        self.line(depth + 1, f"{value} = {function}({scope})")
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
        self.line(depth, f"{items} = items({record}, {self.expr(step.items, depth)})")
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
        by the same helpers (with a trace, the runner records the changes)."""
        if self.tracing:
            return False
        assert step.entity is not None
        record = self.value(step, "t")
        target, entity = self.temp(), self.temp()
        self.line(depth, f"{target} = {self.expr(step.entity, depth)}")
        self.line(depth, f"for {entity} in {target} if {self.value(isinstance, 'g')}({target}, "
                         f"{self.value((list, tuple), 'g')}) else ({target},):")
        inner = depth + 1
        self.line(inner, f"if {self.value(type, 'g')}({entity}) is not {self.value(Entity, 'g')} or "
                         f"{entity}._kind.name not in {record}.kinds:")
        self.line(inner + 1, f"checked({record}, {entity})")
        scope = "s"
        if not step.local:
            scope = self.temp()
            self.line(inner, f"{scope} = overlay(s, {entity})")
        fields = self.temp()
        self.line(inner, f"{fields} = {entity}._kind.fields")
        values = []
        for name, expr in step.assign.items():
            values.append((name, self.field(name, self.expr(expr, inner, scope), inner,
                                            fields, record, entity)))
        of, whole = self.value(type, 'g'), self.value(int, 'g')
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
            self.line(inner, f"{entity}.set({self.value(name)}, {value})")
            return True
        given = "".join(f"({self.value(name)}, {value}), " for name, value in values)
        self.line(inner, f"{entity}.update(({given}))")
        return True

    def field(self, name: str, given: str, depth: int, fields: str, record: str,
              entity: str) -> str:
        """Code for ``given`` checked as the value of the field ``name`` (``field_value``).
        When every kind of entity that has the field takes the same values as they are
        (``FieldSpec.unchanged``), those are passed here without the call (an entity the
        step may change has the field: ``update_check`` saw to it)."""
        value = self.temp()
        call = f"field({fields}, {self.value(name)}, {value}, {record}, {entity})"
        self.line(depth, f"{value} = {given}")
        taken = self.declared.get(name, ())
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


_STEPS: dict[type, Callable[[_Writer, Any, int], bool]] = {
    SetStep: _Writer.set_, IfStep: _Writer.if_, ForEachStep: _Writer.for_each,
    RepeatStep: _Writer.repeat, BreakStep: _Writer.break_, ReturnStep: _Writer.return_,
    CallStep: _Writer.call, UpdateStep: _Writer.update,
}

__all__ = ["BACKENDS", "backend", "generate", "procedures_for", "sources"]
